// Package safefs is the one place kafkalint reads a file's content from
// disk. Files come from repositories nobody reviewed (a pull request, an
// audit of thousands of repositories), so every read is
//
//   - confined: a Root reads only inside its directory, after resolving
//     symlinks (os.Root does the resolution and refuses escapes, including
//     absolute symlink targets), so `.env -> /proc/self/environ` is refused
//     instead of copied into a finding;
//   - of regular files only: a named pipe would block the run forever and
//     a device (/dev/zero) never ends, so anything else is refused, and the
//     file is opened non-blocking so that even a FIFO swapped in between
//     the check and the open cannot hang;
//   - bounded: at most a size limit is read (DefaultMaxSize unless the
//     caller says otherwise), and a larger file is refused.
//
// A refusal is an *Error naming the path and the reason; other failures
// (a missing file) are the os package's errors, unchanged.
package safefs

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// DefaultMaxSize is the largest file read unless a limit is given: far
// beyond any real configuration file, small enough that a hostile one
// cannot exhaust memory.
const DefaultMaxSize int64 = 16 << 20

// Reasons a read is refused; errors.Is(err, ErrX) tells them apart.
var (
	ErrOutside    = errors.New("resolves outside the linted root")
	ErrNotRegular = errors.New("not a regular file")
	ErrTooLarge   = errors.New("file too large")
)

// Error is a refused read.
type Error struct {
	Path   string // as the caller named it
	Reason string // e.g. "not a regular file (named pipe)"
	Err    error  // ErrOutside, ErrNotRegular or ErrTooLarge
}

func (e *Error) Error() string { return e.Path + ": " + e.Reason }
func (e *Error) Unwrap() error { return e.Err }

// Reason is the reason of a refusal, or "" when err is not one.
func Reason(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Reason
	}
	return ""
}

// Root reads files inside one directory.
type Root struct {
	dir  string // absolute, as given (not symlink-resolved)
	wd   string // the working directory when opened; "" if unknown
	root *os.Root
	max  int64
}

// OpenRoot returns a Root for dir that reads at most max bytes per file
// (max <= 0: DefaultMaxSize). A nil *Root reads nothing: every file is
// missing (in-memory sources have no directory). Relative names given to
// its methods are relative to the working directory at the time OpenRoot
// was called.
func OpenRoot(dir string, limitBytes int64) (*Root, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	r, err := os.OpenRoot(abs)
	if err != nil {
		return nil, err
	}
	// filepath.Abs asks for the working directory on every call (two
	// system calls each); a load names the same one thousands of times.
	wd, _ := os.Getwd()
	return &Root{dir: abs, wd: wd, root: r, max: limit(limitBytes)}, nil
}

func limit(limitBytes int64) int64 {
	if limitBytes <= 0 {
		return DefaultMaxSize
	}
	return limitBytes
}

// Dir is the root's absolute directory.
func (r *Root) Dir() string { return r.dir }

// Close releases the root's directory.
func (r *Root) Close() error {
	if r == nil {
		return nil
	}
	return r.root.Close()
}

// Contains reports whether name (absolute, or relative to the working
// directory) is lexically inside the root, before any symlink.
func (r *Root) Contains(name string) bool {
	_, err := r.rel(name)
	return err == nil
}

// rel is name relative to the root's directory, or an ErrOutside refusal.
func (r *Root) rel(name string) (string, error) {
	abs, err := r.Abs(name)
	if err != nil {
		return "", err
	}
	rel, err := Rel(r.dir, abs)
	if err != nil || !filepath.IsLocal(rel) {
		return "", outside(name)
	}
	return rel, nil
}

// Abs is filepath.Abs with the working directory the root was opened in.
func (r *Root) Abs(name string) (string, error) {
	if r == nil || filepath.IsAbs(name) || r.wd == "" {
		return filepath.Abs(name)
	}
	return Join(r.wd, name), nil
}

// Stat describes name (absolute, or relative to the working directory),
// following symlinks inside the root; a path that leaves the root is an
// ErrOutside refusal.
func (r *Root) Stat(name string) (fs.FileInfo, error) {
	if r == nil {
		return nil, &fs.PathError{Op: "stat", Path: name, Err: fs.ErrNotExist}
	}
	rel, err := r.rel(name)
	if err != nil {
		return nil, err
	}
	info, err := r.root.Stat(rel)
	if err != nil {
		return nil, classify(name, err)
	}
	return info, nil
}

// ReadFile reads name (absolute, or relative to the working directory)
// if it is a regular file inside the root, of at most the root's limit.
func (r *Root) ReadFile(name string) ([]byte, error) { return r.readFile(name, true) }

// ReadListed is ReadFile for a name that a listing of its directory
// (ReadDir) described as a regular file, not a symlink: that listing was
// the check before opening, which ReadFile repeats at the cost of a walk
// of every directory on the way (os.Root opens each). The open file is
// checked as always.
func (r *Root) ReadListed(name string) ([]byte, error) { return r.readFile(name, false) }

func (r *Root) readFile(name string, checkFirst bool) ([]byte, error) {
	if r == nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	rel, err := r.rel(name)
	if err != nil {
		return nil, err
	}
	if checkFirst {
		// Checking the type before opening means a device is not even
		// opened (opening some has side effects); the check on the open
		// file (readOpen) is the one that counts.
		info, err := r.root.Stat(rel)
		if err != nil {
			return nil, classify(name, err)
		}
		if err := regular(name, info); err != nil {
			return nil, err
		}
	}
	f, err := r.root.OpenFile(rel, openFlags, 0)
	if err != nil {
		return nil, classify(name, err)
	}
	defer f.Close()
	return readOpen(name, f, r.max)
}

// ReadFile reads name wherever it is (a path the user named on the command
// line), if it is a regular file of at most max bytes (max <= 0:
// DefaultMaxSize).
func ReadFile(name string, limitBytes int64) ([]byte, error) {
	info, err := os.Stat(name)
	if err != nil {
		return nil, err
	}
	if err := regular(name, info); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(name, openFlags, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readOpen(name, f, limit(limitBytes))
}

// readOpen checks the open file itself (what was checked before opening
// may have been replaced since) and reads it up to max bytes.
func readOpen(name string, f *os.File, limitBytes int64) ([]byte, error) {
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if err := regular(name, info); err != nil {
		return nil, err
	}
	if info.Size() > limitBytes {
		return nil, tooLarge(name, limitBytes)
	}
	// The size can grow while reading (or lie, as /proc files do): read
	// one byte past the limit to tell. Room for the size stat gave and one
	// read more makes a file that keeps its size one allocation (io.ReadAll
	// grows a buffer from 512 bytes).
	var buf bytes.Buffer
	buf.Grow(int(info.Size()) + bytes.MinRead)
	if _, err := buf.ReadFrom(io.LimitReader(f, limitBytes+1)); err != nil {
		return nil, err
	}
	data := buf.Bytes()
	if int64(len(data)) > limitBytes {
		return nil, tooLarge(name, limitBytes)
	}
	return data, nil
}

func regular(name string, info fs.FileInfo) error {
	t := info.Mode().Type()
	if t.IsRegular() {
		return nil
	}
	kind := "irregular file"
	switch {
	case t&fs.ModeNamedPipe != 0:
		kind = "named pipe"
	case t&fs.ModeSocket != 0:
		kind = "socket"
	case t&fs.ModeDevice != 0 || t&fs.ModeCharDevice != 0:
		kind = "device"
	case t.IsDir():
		kind = "directory"
	}
	return &Error{Path: name, Reason: "not a regular file (" + kind + ")", Err: ErrNotRegular}
}

func tooLarge(name string, limitBytes int64) error {
	return &Error{Path: name, Reason: "larger than " + Size(limitBytes), Err: ErrTooLarge}
}

func outside(name string) error {
	return &Error{Path: name, Reason: ErrOutside.Error(), Err: ErrOutside}
}

// classify turns os.Root's refusal to leave the root into ErrOutside. The
// os package does not export that error; its text is part of Go's
// behavior since os.Root exists (Go 1.24), and the tests of this package
// fail if it changes.
func classify(name string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) && pe.Err.Error() == "path escapes from parent" {
		return outside(name)
	}
	return err
}

// Size shows a byte count as the limit flags are written: "16 MiB",
// "512 KiB", "1000 bytes".
func Size(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// ParseSize reads a size flag: a number of bytes with an optional unit
// suffix K, KB, KiB, M, MB, MiB, G, GB or GiB (all binary).
func ParseSize(s string) (int64, error) {
	t := strings.TrimSpace(s)
	mult := int64(1)
	upper := strings.ToUpper(t)
	for _, u := range []struct {
		suffix string
		mult   int64
	}{{"GIB", 1 << 30}, {"MIB", 1 << 20}, {"KIB", 1 << 10}, {"GB", 1 << 30}, {"MB", 1 << 20}, {"KB", 1 << 10}, {"G", 1 << 30}, {"M", 1 << 20}, {"K", 1 << 10}, {"B", 1}} {
		if strings.HasSuffix(upper, u.suffix) {
			t, mult = strings.TrimSpace(t[:len(t)-len(u.suffix)]), u.mult
			break
		}
	}
	n, err := strconv.ParseInt(t, 10, 64)
	if err != nil || n <= 0 || n > (1<<62)/mult {
		return 0, fmt.Errorf("invalid size %q: want a positive number of bytes, optionally with K, M or G (e.g. 64M)", s)
	}
	return n * mult, nil
}

// ReadDir lists the directory name (absolute, or relative to the working
// directory) inside the root, sorted by name. Entries are not followed: a
// symlink is listed as a symlink.
func (r *Root) ReadDir(name string) ([]fs.DirEntry, error) {
	if r == nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	rel, err := r.rel(name)
	if err != nil {
		return nil, err
	}
	f, err := r.root.Open(rel)
	if err != nil {
		return nil, classify(name, err)
	}
	defer f.Close()
	entries, err := f.ReadDir(-1)
	slices.SortFunc(entries, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return entries, err
}
