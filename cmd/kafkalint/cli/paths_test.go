package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/kafkalint/kafkalint/baseline"
	"github.com/kafkalint/kafkalint/report"
)

// TestLintWithoutPath: `kafkalint lint` lints the working directory.
func TestLintWithoutPath(t *testing.T) {
	t.Chdir(t.TempDir())
	isolate(t)
	writeFile(t, "prod/server.properties", cleanBroker+"offsets.topic.replication.factor=1\n")
	code, out, errOut := run(t, "lint")
	if code != ExitFindings || !strings.Contains(out, "prod/server.properties:6:1: error KFK1001") {
		t.Errorf("lint with no PATH: exit %d, want 1 and the finding in ./prod\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
}

// TestPathWithoutKafkaConfiguration: a PATH that holds no Kafka
// configuration is named on stderr; --strict-paths makes it exit 2.
func TestPathWithoutKafkaConfiguration(t *testing.T) {
	t.Chdir(t.TempDir())
	isolate(t)
	writeFile(t, "prod/server.properties", cleanBroker)
	writeFile(t, "docs/notes.yaml", "not: kafka\n")
	const line = "kafkalint: no Kafka configuration found in docs\n"
	code, out, errOut := run(t, "lint", "prod", "docs", "missing-dir")
	if code != ExitError || errOut != line || !strings.Contains(out, "missing-dir: load error") {
		t.Errorf("exit %d, stdout:\n%s\nstderr:\n%s\nwant 2, the load error of missing-dir and only the line %q (prod holds a broker configuration)", code, out, errOut, line)
	}
	code, _, errOut = run(t, "lint", "docs")
	if code != ExitOK || errOut != line {
		t.Errorf("without --strict-paths: exit %d, stderr %q; want 0 and %q", code, errOut, line)
	}
	code, _, errOut = run(t, "lint", "--strict-paths", "docs")
	if code != ExitError || errOut != line {
		t.Errorf("--strict-paths: exit %d, stderr %q; want 2 and %q", code, errOut, line)
	}
	if code, _, errOut := run(t, "lint", "--strict-paths", "prod"); code != ExitOK || errOut != "" {
		t.Errorf("--strict-paths on a Kafka directory: exit %d, stderr %q; want 0 and nothing", code, errOut)
	}
}

// TestInspectLoadErrorsOnStderr: inspect's stdout is the model (often piped
// into jq), so its load errors are on stderr too.
func TestInspectLoadErrorsOnStderr(t *testing.T) {
	t.Chdir(t.TempDir())
	isolate(t)
	writeFile(t, "broken/server.properties", "process.roles=broker\nbad=\\uZZZZ\n")
	code, out, errOut := run(t, "inspect", "broken")
	if code != ExitError || !strings.Contains(out, `"errors": [`) ||
		!strings.HasPrefix(errOut, "kafkalint: broken/server.properties:2") || !strings.Contains(errOut, "escape") {
		t.Errorf("exit %d, stderr %q; want 2 and the load error of broken/server.properties:2 on stderr", code, errOut)
	}
}

// TestHelpWithoutBoolNoise: help shows boolean flags as `--no-color`, not
// pflag's `--no-color[=true|false]`, in every command; and they still parse
// with and without a value.
func TestHelpWithoutBoolNoise(t *testing.T) {
	var walk func(path []string, cmd *cobra.Command)
	walk = func(path []string, cmd *cobra.Command) {
		code, out, errOut := run(t, append(path, "--help")...)
		if code != ExitOK || !strings.Contains(out, "-h, --help ") || strings.Contains(out, "[=true|false]") {
			t.Errorf("kafkalint %s --help: exit %d, stderr %q, output:\n%s", strings.Join(path, " "), code, errOut, out)
		}
		for _, c := range cmd.Commands() {
			walk(append(slices.Clone(path), c.Name()), c)
		}
	}
	walk(nil, newRoot(Streams{Out: io.Discard, Err: io.Discard}))

	t.Chdir(t.TempDir())
	isolate(t)
	writeFile(t, "prod/server.properties", cleanBroker)
	for _, args := range [][]string{{"--no-color", "--strict-paths"}, {"--no-color=false", "--strict-paths=true"}} {
		if code, _, errOut := run(t, append([]string{"lint"}, append(args, "prod")...)...); code != ExitOK {
			t.Errorf("lint %v prod: exit %d, %s", args, code, errOut)
		}
	}
}

// TestEmptyPathsByDirectory: a PATH is empty unless a linted file or a load
// error is the PATH itself or under it; a sibling sharing its prefix does
// not count.
func TestEmptyPathsByDirectory(t *testing.T) {
	t.Chdir(t.TempDir())
	rep := &report.Report{
		Linted: []string{"prod2/server.properties", "a/b/c/server.properties", "one.properties"},
		Errors: []report.LoadError{{File: "broken/x/server.properties"}},
	}
	paths := []string{"prod", "prod2", "a", "a/b", "a/b/c/server.properties", "a/d", "one.properties", "broken", "broken/y"}
	got := emptyPaths(paths, rep, realPaths{})
	if want := []string{"prod", "a/d", "broken/y"}; !slices.Equal(got, want) {
		t.Errorf("emptyPaths = %v, want %v", got, want)
	}
}

// BenchmarkEmptyPaths: pre-commit passes every changed file as a PATH, and
// each is matched against every linted file; linear in the two, not their
// product (2,000 of each took 34 s when each match resolved both paths).
func BenchmarkEmptyPaths(b *testing.B) {
	b.Chdir(b.TempDir())
	rep := &report.Report{}
	for i := range 2000 {
		rep.Linted = append(rep.Linted, fmt.Sprintf("repo-%04d/kafka/server.properties", i))
	}
	for b.Loop() {
		if empty := emptyPaths(rep.Linted, rep, realPaths{}); len(empty) != 0 {
			b.Fatal(empty)
		}
	}
}

// TestRealPathsResolveAsRealPath: realPaths resolves a path from its
// resolved directory with one Lstat, which must give exactly what
// baseline.RealPath gives: for regular files, symlinked files and
// directories, missing and dangling paths, loops, ".", "..", trailing
// slashes (which shell completion adds) and absolute paths, from a working
// directory entered through a symlink (where ".." is lexical for
// filepath.Abs and physical for the kernel).
func TestRealPathsResolveAsRealPath(t *testing.T) {
	top := baseline.RealPath(t.TempDir())
	mk := func(p string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Join(top, p), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	link := func(target, p string) {
		t.Helper()
		if err := os.Symlink(target, filepath.Join(top, p)); err != nil {
			t.Fatal(err)
		}
	}
	mk("real/dir/sub")
	mk("real/dir/sub/sub") // sub/ must not resolve to sub/sub
	mk("real/other")
	mk("elsewhere/x")
	for _, f := range []string{"real/dir/a.properties", "real/dir/sub/b.properties", "real/other/t.properties", "elsewhere/x/e.properties", "elsewhere/n.properties"} {
		if err := os.WriteFile(filepath.Join(top, f), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	link("../other/t.properties", "real/dir/file-link.properties")
	link("sub", "real/dir/dir-link")
	link("nowhere", "real/dir/dangling.properties")
	link("loop", "real/dir/loop")
	link(filepath.Join(top, "elsewhere", "x"), "real/dir/abs-link")
	link("real/dir", "cwd-link")

	paths := []string{
		"a.properties", "sub/b.properties", "file-link.properties", "dir-link/b.properties",
		"dangling.properties", "loop", "loop/x", "missing.properties", "missing/x.properties",
		"abs-link/e.properties", "abs-link/../n.properties", ".", "..", "../other/t.properties",
		"../../elsewhere/x/e.properties", "sub/..", "",
		"sub/", "sub//", "./sub/", "dir-link/", "dir-link/sub/", "a.properties/", "../dir/sub/", "abs-link/./e.properties",
		filepath.Join(top, "real", "dir", "sub", "b.properties"), filepath.Join(top, "cwd-link", "file-link.properties"), "/",
	}
	for _, wd := range []string{filepath.Join(top, "real", "dir"), filepath.Join(top, "cwd-link")} {
		t.Run(filepath.Base(wd), func(t *testing.T) {
			t.Chdir(wd)
			r := realPaths{}
			for _, p := range paths {
				if got, want := r.of(p), baseline.RealPath(p); got != want {
					t.Errorf("realPaths.of(%q) = %q, want baseline.RealPath's %q", p, got, want)
				}
			}
		})
	}
}
