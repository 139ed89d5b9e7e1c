package safefs

import (
	"path/filepath"
	"testing"
)

var pathSeeds = [][2]string{
	{"/tmp/tree", "repo-1/kafka/server.properties"}, {"/tmp/tree", "/tmp/tree/repo-1/server.properties"},
	{"/", "etc"}, {"/", "/etc"}, {".", "a"}, {"a", "."}, {"a/", "b"}, {"a", "b/"}, {"a//b", "c"}, {"a", "b//c"},
	{"/a", "/a"}, {"/a", "/a/"}, {"/a", "/ab"}, {"/a", "/a/../b"}, {"/a", "/a/./b"}, {"/a/b", "/a"}, {"", "a"},
	{"a", ""}, {"..", "a"}, {"a", ".."}, {"/a/", "/a/b"}, {"/a", "/a//b"}, {"a", "a/b"}, {"a/b", "a/b/c.properties"},
	{"/a/..", "/b"}, {"/a", "/a/b/"}, {"/a", "/a/..."}, {"/a", "/a/.b"},
}

func TestPathsAsFilepath(t *testing.T) {
	for _, s := range pathSeeds {
		checkPaths(t, s[0], s[1])
	}
	if !cleanLocal("repo-1/kafka/server.properties") || cleanLocal("repo-1//x") {
		t.Error("cleanLocal misjudges the common case")
	}
}

func FuzzPaths(f *testing.F) {
	for _, s := range pathSeeds {
		f.Add(s[0], s[1])
	}
	f.Fuzz(checkPaths)
}

func mustAbs(p string, err error) string {
	if err != nil {
		return "error: " + err.Error()
	}
	return p
}

func checkPaths(t *testing.T, a, b string) {
	if got, want := Join(a, b), filepath.Join(a, b); got != want {
		t.Fatalf("Join(%q, %q) = %q, filepath.Join %q", a, b, got, want)
	}
	for _, p := range []string{a, b} {
		if got, want := mustAbs(Abs(p)), mustAbs(filepath.Abs(p)); got != want {
			t.Fatalf("Abs(%q) = %q, filepath.Abs %q", p, got, want)
		}
	}
	got, err := Rel(a, b)
	want, wantErr := filepath.Rel(a, b)
	if got != want || (err == nil) != (wantErr == nil) {
		t.Fatalf("Rel(%q, %q) = %q, %v; filepath.Rel %q, %v", a, b, got, err, want, wantErr)
	}
}
