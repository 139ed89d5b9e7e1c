package safefs

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kafkalint/kafkalint/internal/fifotest"
)

// within fails the test when f does not return soon: a read that blocks
// (a FIFO opened without O_NONBLOCK) must fail, not hang the test run.
func within(t *testing.T, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("read blocked")
	}
}

func openRoot(t *testing.T, dir string, limitBytes int64) *Root {
	t.Helper()
	r, err := OpenRoot(dir, limitBytes)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = r.Close() })
	return r
}

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestReadFileRegularInside(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "a", "x.properties"), "k=v\n")
	if err := os.Symlink("a/x.properties", filepath.Join(dir, "link.properties")); err != nil {
		t.Fatal(err)
	}
	r := openRoot(t, dir, 0)
	for _, name := range []string{filepath.Join(dir, "a", "x.properties"), filepath.Join(dir, "link.properties")} {
		data, err := r.ReadFile(name)
		if err != nil || string(data) != "k=v\n" {
			t.Errorf("ReadFile(%s) = %q, %v; want the file", name, data, err)
		}
		data, err = r.ReadListed(name)
		if err != nil || string(data) != "k=v\n" {
			t.Errorf("ReadListed(%s) = %q, %v; want the file", name, data, err)
		}
	}
	if _, err := r.ReadFile(filepath.Join(dir, "missing")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v, want not exist", err)
	}
}

func TestReadFileRefusesFIFO(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "server.properties")
	fifotest.Make(t, fifo)
	r := openRoot(t, dir, 0)
	within(t, func() {
		_, err := r.ReadFile(fifo)
		if !errors.Is(err, ErrNotRegular) || Reason(err) != "not a regular file (named pipe)" {
			t.Errorf("FIFO: %v, want not a regular file (named pipe)", err)
		}
		_, err = ReadFile(fifo, 0)
		if !errors.Is(err, ErrNotRegular) {
			t.Errorf("FIFO (unconfined): %v, want not a regular file", err)
		}
		// A listing said regular, and a FIFO took the name since: the
		// open file is checked.
		_, err = r.ReadListed(fifo)
		if !errors.Is(err, ErrNotRegular) || Reason(err) != "not a regular file (named pipe)" {
			t.Errorf("FIFO read as listed: %v, want not a regular file (named pipe)", err)
		}
	})
}

// TestReadOpenRefusesFIFO checks the open file itself, as when a FIFO
// replaces the checked file between the check and the open.
func TestReadOpenRefusesFIFO(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "p")
	fifotest.Make(t, fifo)
	within(t, func() {
		f, err := os.OpenFile(fifo, openFlags, 0)
		if err != nil {
			t.Error(err)
			return
		}
		defer f.Close()
		if _, err := readOpen(fifo, f, DefaultMaxSize); !errors.Is(err, ErrNotRegular) {
			t.Errorf("open FIFO: %v, want not a regular file", err)
		}
	})
}

func TestReadFileRefusesEscapes(t *testing.T) {
	outsideDir := t.TempDir()
	secret := filepath.Join(outsideDir, "env")
	write(t, secret, "TOKEN=secret\n")
	dir := t.TempDir()
	for name, target := range map[string]string{
		"abs.env":  secret,
		"rel.env":  filepath.Join("..", filepath.Base(outsideDir), "env"),
		"zero.env": "/dev/zero",
	} {
		if err := os.Symlink(target, filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	r := openRoot(t, dir, 0)
	for _, name := range []string{"abs.env", "rel.env", "zero.env"} {
		within(t, func() {
			data, err := r.ReadFile(filepath.Join(dir, name))
			if !errors.Is(err, ErrOutside) || Reason(err) != "resolves outside the linted root" {
				t.Errorf("%s: %q, %v; want resolves outside the linted root", name, data, err)
			}
			// A link that replaced a listed regular file is confined too.
			data, err = r.ReadListed(filepath.Join(dir, name))
			if !errors.Is(err, ErrOutside) || Reason(err) != "resolves outside the linted root" {
				t.Errorf("%s read as listed: %q, %v; want resolves outside the linted root", name, data, err)
			}
		})
	}
	if _, err := r.ReadListed(secret); !errors.Is(err, ErrOutside) {
		t.Errorf("absolute path outside, read as listed: %v, want ErrOutside", err)
	}
	if _, err := r.ReadFile(secret); !errors.Is(err, ErrOutside) {
		t.Errorf("absolute path outside: %v, want ErrOutside", err)
	}
	if _, err := r.ReadFile(filepath.Join(dir, "..", filepath.Base(outsideDir), "env")); !errors.Is(err, ErrOutside) {
		t.Errorf("../ path outside: %v, want ErrOutside", err)
	}
}

func TestReadFileSizeLimit(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "small"), strings.Repeat("x", 1024))
	write(t, filepath.Join(dir, "big"), strings.Repeat("x", 1025))
	r := openRoot(t, dir, 1024)
	if data, err := r.ReadFile(filepath.Join(dir, "small")); err != nil || len(data) != 1024 {
		t.Errorf("at the limit: %d bytes, %v", len(data), err)
	}
	_, err := r.ReadFile(filepath.Join(dir, "big"))
	if !errors.Is(err, ErrTooLarge) || Reason(err) != "larger than 1 KiB" {
		t.Errorf("over the limit: %v, want larger than 1 KiB", err)
	}
	if _, err := ReadFile(filepath.Join(dir, "big"), 1024); !errors.Is(err, ErrTooLarge) {
		t.Errorf("over the limit (unconfined): %v", err)
	}
	if _, err := r.ReadListed(filepath.Join(dir, "big")); !errors.Is(err, ErrTooLarge) {
		t.Errorf("over the limit, read as listed: %v", err)
	}
}

// TestReadOpenLimitsUnsizedFiles: a file whose size says 0 (a /proc file)
// is still cut at the limit.
func TestReadOpenLimitsUnsizedFiles(t *testing.T) {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		t.Skip("no /proc")
	}
	defer f.Close()
	if _, err := readOpen("status", f, 8); !errors.Is(err, ErrTooLarge) {
		t.Errorf("unsized file over the limit: %v", err)
	}
	// Within the limit it is read whole, past the size stat gave.
	want, err := os.ReadFile("/proc/self/cmdline")
	if err != nil || len(want) == 0 {
		t.Skipf("no /proc/self/cmdline: %v", err)
	}
	g, err := os.Open("/proc/self/cmdline")
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	if got, err := readOpen("cmdline", g, 1<<20); err != nil || !bytes.Equal(got, want) {
		t.Errorf("unsized file within the limit: %q, %v; want %q", got, err, want)
	}
}

func TestRefusesDirectory(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, ".env"), 0o755); err != nil {
		t.Fatal(err)
	}
	r := openRoot(t, dir, 0)
	if _, err := r.ReadFile(filepath.Join(dir, ".env")); Reason(err) != "not a regular file (directory)" {
		t.Errorf("directory: %v", err)
	}
}

func TestNilRootReadsNothing(t *testing.T) {
	var r *Root
	if _, err := r.ReadFile("x"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("nil root: %v", err)
	}
}

func TestParseSize(t *testing.T) {
	for in, want := range map[string]int64{"100": 100, "64M": 64 << 20, "1 GiB": 1 << 30, "16mib": 16 << 20, "2KB": 2048} {
		if got, err := ParseSize(in); err != nil || got != want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "0", "-1", "1.5M", "12X", "M"} {
		if _, err := ParseSize(in); err == nil {
			t.Errorf("ParseSize(%q): want an error", in)
		}
	}
	if got := Size(16 << 20); got != "16 MiB" {
		t.Errorf("Size = %q", got)
	}
}

// TestRelativeNamesFromTheWorkingDirectoryAtOpen: a Root resolves relative
// names against the working directory it was opened in (it asks for it
// once, not on every read), and confines them as it does absolute ones.
func TestRelativeNamesFromTheWorkingDirectoryAtOpen(t *testing.T) {
	dir, other := t.TempDir(), t.TempDir()
	write(t, filepath.Join(dir, "a", "x.properties"), "k=v\n")
	write(t, filepath.Join(other, "a", "x.properties"), "other\n")
	write(t, filepath.Join(filepath.Dir(dir), "outside.properties"), "secret\n")
	t.Chdir(dir)
	r := openRoot(t, ".", 0)
	t.Chdir(other)
	for _, name := range []string{"a/x.properties", "./a/../a/x.properties"} {
		if data, err := r.ReadFile(name); err != nil || string(data) != "k=v\n" {
			t.Errorf("ReadFile(%q) after a chdir = %q, %v; want the file under the directory the root was opened in", name, data, err)
		}
		if abs, err := r.Abs(name); err != nil || abs != filepath.Join(dir, "a", "x.properties") {
			t.Errorf("Abs(%q) = %q, %v; want %s", name, abs, err, filepath.Join(dir, "a", "x.properties"))
		}
	}
	if _, err := r.ReadFile("../outside.properties"); !errors.Is(err, ErrOutside) {
		t.Errorf("ReadFile(../outside.properties): %v, want ErrOutside", err)
	}
	if entries, err := r.ReadDir("a"); err != nil || len(entries) != 1 {
		t.Errorf("ReadDir(a) after a chdir = %v, %v; want the root's a/", entries, err)
	}
}
