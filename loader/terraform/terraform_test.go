package terraform

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// loadDir loads a fixture directory the way the loader does: every module
// file of the directory, named by its path relative to dir's parent.
func loadDir(t *testing.T, dir string) *Result {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var files []File
	for _, e := range entries {
		if e.IsDir() || !IsModuleFile(e.Name()) {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, File{Name: filepath.Base(dir) + "/" + e.Name(), Data: data})
	}
	return Load(files, Options{ReadFile: DirReader(dir)})
}

// TestGolden compares what each fixture module yields, positions included,
// with testdata/<case>/result.golden.json (go test -update rewrites them).
func TestGolden(t *testing.T) {
	dirs, err := filepath.Glob("testdata/*")
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	for _, dir := range dirs {
		if info, err := os.Stat(dir); err != nil || !info.IsDir() || filepath.Base(dir) == "fuzz" {
			continue
		}
		t.Run(filepath.Base(dir), func(t *testing.T) {
			got, err := json.MarshalIndent(loadDir(t, dir), "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, '\n')
			golden := filepath.Join(dir, "result.golden.json")
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test ./loader/terraform -update)", err)
			}
			if diff := cmp.Diff(string(want), string(got)); diff != "" {
				t.Errorf("%s mismatch (-want +got):\n%s", golden, diff)
			}
		})
	}
}

// TestCommentMarker: with a marker, only the files containing it have
// their comments listed.
func TestCommentMarker(t *testing.T) {
	files := []File{
		{Name: "m/a.tf", Data: []byte("# plain comment\nlocals {\n  x = 1 # trailing\n}\n")},
		{Name: "m/b.tf", Data: []byte("locals {\n  # kafkalint:ignore KFK1001 -- reason\n  y = 2\n}\n")},
	}
	all := Load(files, Options{})
	if len(all.Comments["m/a.tf"]) != 2 || len(all.Comments["m/b.tf"]) != 1 {
		t.Fatalf("without a marker every comment is listed: %+v", all.Comments)
	}
	marked := Load(files, Options{CommentMarker: "kafkalint:"})
	if _, ok := marked.Comments["m/a.tf"]; ok {
		t.Errorf("a.tf has no marker, but its comments are listed: %+v", marked.Comments["m/a.tf"])
	}
	if diff := cmp.Diff(all.Comments["m/b.tf"], marked.Comments["m/b.tf"]); diff != "" {
		t.Errorf("b.tf holds the marker, its comments must be listed (-all +marked):\n%s", diff)
	}
}
