package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/kafkalint/kafkalint/baseline"
	"github.com/kafkalint/kafkalint/report"
)

// realPaths resolves display paths (relative to the working directory, or
// absolute) as baseline.RealPath does, each distinct one once: a run
// matches every finding's file and related locations, and every linted
// file, against its PATH arguments, the same few thousand paths over and
// over. A resolution is a system call per path component, so a path is
// resolved as its resolved directory plus its name, with one Lstat to
// check that the name is no symlink: the step filepath.EvalSymlinks takes
// there. Anything else (a symlink, a missing file, "." or "..") takes
// baseline.RealPath's own way, and so does every path on Windows, where
// EvalSymlinks also rewrites each name to its case on disk.
type realPaths map[string]string

func (r realPaths) of(display string) string {
	resolved, ok := r[display]
	if !ok {
		resolved = r.resolve(display)
		r[display] = resolved
	}
	return resolved
}

func (r realPaths) resolve(display string) string {
	if runtime.GOOS == "windows" {
		return baseline.RealPath(display)
	}
	// RealPath cleans the path first (kafka/ is kafka, not kafka/kafka).
	if clean := filepath.Clean(filepath.FromSlash(display)); clean != display {
		return r.of(clean)
	}
	dir, name := filepath.Dir(display), filepath.Base(display)
	if dir != display && name != "." && name != ".." {
		p := filepath.Join(r.of(dir), name)
		if info, err := os.Lstat(p); err == nil && info.Mode()&fs.ModeSymlink == 0 {
			return p
		}
	}
	return baseline.RealPath(display)
}

// ancestors calls f with p and each directory above it, nearest first,
// until f returns false or the root was given.
func ancestors(p string, f func(string) bool) {
	for f(p) {
		parent := filepath.Dir(p)
		if parent == p {
			return
		}
		p = parent
	}
}

// pathFilter keeps the findings anchored in, or related to, one of its
// paths (absolute, symlinks resolved; a directory keeps everything under
// it). nil means no filter; an empty non-nil filter keeps nothing.
type pathFilter struct {
	paths    map[string]bool
	resolved realPaths
}

func newPathFilter(resolved realPaths) *pathFilter {
	return &pathFilter{paths: map[string]bool{}, resolved: resolved}
}

// match reports whether a display path is one of the filter's paths or
// under one: a lookup per directory above it, whatever the number of paths.
func (p *pathFilter) match(display string) bool {
	found := false
	ancestors(p.resolved.of(display), func(q string) bool {
		found = p.paths[q]
		return !found
	})
	return found
}

// keeps reports whether a finding touches the filter's paths: its own file
// or any related location (a cross-file finding about a changed file is
// reported even when anchored in an unchanged one).
func (p *pathFilter) keeps(f report.Finding) bool {
	if p.match(f.File) {
		return true
	}
	return slices.ContainsFunc(f.Related, func(l report.Location) bool { return p.match(l.File) })
}

// apply drops the findings (reported and suppressed) the filter does not
// keep and counts the reported ones dropped in the summary's Filtered, so
// that a run with everything filtered out does not look clean.
func (p *pathFilter) apply(rep *report.Report) {
	drop := func(f report.Finding) bool { return !p.keeps(f) }
	n := len(rep.Findings)
	rep.Findings = slices.DeleteFunc(rep.Findings, drop)
	rep.Summary.Filtered += n - len(rep.Findings)
	rep.Suppressed = slices.DeleteFunc(rep.Suppressed, drop)
}

// existingPaths is the filter for --context's PATH arguments; each must exist.
func existingPaths(args []string, resolved realPaths) (*pathFilter, error) {
	out := newPathFilter(resolved)
	for _, a := range args {
		if _, err := os.Stat(a); err != nil {
			return nil, usageError("%s: %v", a, errors.Unwrap(err))
		}
		out.paths[resolved.of(a)] = true
	}
	return out, nil
}

// gitChanged lists the files that differ between rev and the working tree
// (committed, staged or not) plus untracked files that are not ignored.
func gitChanged(ctx context.Context, rev string, resolved realPaths) (*pathFilter, error) {
	top, err := git(ctx, "", "rev-parse", "--show-toplevel")
	if err != nil {
		return nil, err
	}
	topDir := strings.TrimSpace(string(top))
	if _, err := git(ctx, topDir, "rev-parse", "--verify", "--quiet", "--end-of-options", rev+"^{commit}"); err != nil {
		return nil, fmt.Errorf("unknown git revision %q", rev)
	}
	diff, err := git(ctx, topDir, "diff", "--name-only", "-z", "--no-ext-diff", "--end-of-options", rev, "--")
	if err != nil {
		return nil, err
	}
	untracked, err := git(ctx, topDir, "ls-files", "--others", "--exclude-standard", "-z")
	if err != nil {
		return nil, err
	}
	out := newPathFilter(resolved)
	for _, name := range bytes.Split(append(diff, untracked...), []byte{0}) {
		if len(name) > 0 {
			out.paths[resolved.of(filepath.Join(topDir, filepath.FromSlash(string(name))))] = true
		}
	}
	return out, nil
}

// git runs a git command and returns its stdout; a failure carries git's
// own message.
func git(ctx context.Context, dir string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		return nil, fmt.Errorf("git %s: %s", args[0], msg)
	}
	return out, nil
}
