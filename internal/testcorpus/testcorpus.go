// Package testcorpus locates the real-world corpus for the tests that read
// it: ../shared/corpus/real-world beside the checkout (real configuration
// files from public repositories, too many licenses to vendor;
// docs/development.md). Without it those tests fail in CI and are skipped
// elsewhere, and Main says so in one line.
package testcorpus

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// Path is where the corpus is looked for: ../shared/corpus/real-world
// beside the module root.
func Path() string { return where }

// where is Path's answer (a variable so this package's tests can move it).
var where = filepath.Join(moduleDir(), "..", "shared", "corpus", "real-world")

// moduleDir is the module root, two levels above this file.
func moduleDir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Clean(filepath.Join(filepath.Dir(file), "..", ".."))
}

// skipped are the tests Dir skipped, for Main's line.
var skipped struct {
	sync.Mutex
	names []string
}

// Dir returns the corpus directory. When it is missing, the test fails if
// CI is set (CI must run every test) and is skipped otherwise.
func Dir(tb testing.TB) string {
	tb.Helper()
	dir := Path()
	if _, err := os.Stat(dir); err != nil {
		if os.Getenv("CI") != "" {
			tb.Fatalf("real-world corpus missing in CI (CI is set): %v", err)
		}
		skipped.Lock()
		skipped.names = append(skipped.names, tb.Name())
		skipped.Unlock()
		tb.Skipf("real-world corpus not found at %s", dir)
	}
	return dir
}

// Main runs a package's tests (call it from TestMain) and then, when Dir
// skipped any, prints one line naming them and how to get the corpus.
// The test binary exits with m.Run's code when TestMain returns.
func Main(m *testing.M) {
	m.Run()
	if line := Skipped(); line != "" {
		pkg := "."
		if _, file, _, ok := runtime.Caller(1); ok {
			if rel, err := filepath.Rel(moduleDir(), filepath.Dir(file)); err == nil {
				pkg = "./" + filepath.ToSlash(rel)
			}
		}
		announce("kafkalint: " + pkg + ": " + line)
	}
}

// Skipped is what Main prints after the package: which tests were skipped
// for want of the corpus and how to get it; "" when none was.
func Skipped() string {
	skipped.Lock()
	defer skipped.Unlock()
	n := len(skipped.names)
	if n == 0 {
		return ""
	}
	names := skipped.names
	if n > 3 {
		names = append(names[:3:3], fmt.Sprintf("%d more", n-3))
	}
	return fmt.Sprintf("%d %s skipped (%s): the real-world corpus is not at %s; "+
		"put it there to run them (docs/development.md); with CI set they fail instead",
		n, plural(n), strings.Join(names, ", "), Path())
}

func plural(n int) string {
	if n == 1 {
		return "corpus test"
	}
	return "corpus tests"
}

// announce writes the line to stderr, which `go test ./...` shows only for
// a failing package or with -v, so also to the terminal (/dev/tty) when
// stderr is not one and the run is not verbose: a developer running
// `go test ./...` must see it.
func announce(line string) {
	fmt.Fprintln(os.Stderr, line)
	if testing.Verbose() || isTerminal(os.Stderr) {
		return
	}
	if tty, err := os.OpenFile("/dev/tty", os.O_WRONLY, 0); err == nil {
		_, _ = tty.WriteString(line + "\n")
		_ = tty.Close()
	}
}

func isTerminal(f *os.File) bool {
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}
