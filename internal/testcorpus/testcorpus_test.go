package testcorpus

import (
	"path/filepath"
	"strings"
	"testing"
)

// fakeTB records what Dir does instead of ending the test.
type fakeTB struct {
	testing.TB
	name             string
	fatal, skip      string
	fataled, skipped bool
}

func (f *fakeTB) Helper()      {}
func (f *fakeTB) Name() string { return f.name }
func (f *fakeTB) Fatalf(format string, _ ...any) {
	f.fataled, f.fatal = true, format
	panic(f)
}
func (f *fakeTB) Skipf(format string, _ ...any) {
	f.skipped, f.skip = true, format
	panic(f)
}

// dirIn calls Dir with Path pointing into root and catches the fake's
// Fatal/Skip (a real one stops the goroutine).
func dirIn(t *testing.T, tb *fakeTB) (dir string) {
	t.Helper()
	defer func() {
		if r := recover(); r != nil && r != tb {
			panic(r)
		}
	}()
	return Dir(tb)
}

// TestDirMissing: without the corpus a test fails under CI, and elsewhere
// is skipped and named in Main's line.
func TestDirMissing(t *testing.T) {
	old := where
	where = filepath.Join(t.TempDir(), "no-corpus")
	t.Cleanup(func() { where, skipped.names = old, nil })
	t.Setenv("CI", "true")
	ci := &fakeTB{name: "TestInCI"}
	dirIn(t, ci)
	if !ci.fataled || ci.skipped {
		t.Errorf("CI set: fatal %v, skipped %v; want a failure", ci.fataled, ci.skipped)
	}
	t.Setenv("CI", "")
	local := &fakeTB{name: "TestLocal"}
	dirIn(t, local)
	if !local.skipped || local.fataled {
		t.Errorf("CI unset: fatal %v, skipped %v; want a skip", local.fataled, local.skipped)
	}
	if line := Skipped(); !strings.HasPrefix(line, "1 corpus test skipped (TestLocal): the real-world corpus is not at "+where+";") {
		t.Errorf("Main's line %q does not name the skipped test and where the corpus belongs", line)
	}
}

// TestDirPresent: with the corpus, Dir returns it and records nothing.
func TestDirPresent(t *testing.T) {
	old := where
	where = t.TempDir()
	t.Cleanup(func() { where, skipped.names = old, nil })
	tb := &fakeTB{name: "TestPresent"}
	if dir := dirIn(t, tb); dir != where || tb.skipped || tb.fataled || Skipped() != "" {
		t.Errorf("Dir = %q, skipped %v, fatal %v, line %q; want the corpus and no line", dir, tb.skipped, tb.fataled, Skipped())
	}
}
