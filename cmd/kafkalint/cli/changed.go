package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/kafkalint/kafkalint/baseline"
	"github.com/kafkalint/kafkalint/report"
)

// pathFilter keeps the findings anchored in, or related to, one of its
// paths (absolute, symlinks resolved; a directory keeps everything under
// it). nil means no filter; an empty non-nil filter keeps nothing.
type pathFilter []string

// match reports whether a display path (relative to the working directory,
// or absolute) is one of the filter's paths or under one.
func (p pathFilter) match(display string) bool {
	abs := baseline.RealPath(display)
	for _, q := range p {
		if abs == q || strings.HasPrefix(abs, q+string(filepath.Separator)) {
			return true
		}
	}
	return false
}

// keeps reports whether a finding touches the filter's paths: its own file
// or any related location (a cross-file finding about a changed file is
// reported even when anchored in an unchanged one).
func (p pathFilter) keeps(f report.Finding) bool {
	if p.match(f.File) {
		return true
	}
	return slices.ContainsFunc(f.Related, func(l report.Location) bool { return p.match(l.File) })
}

// apply drops the findings (reported and suppressed) the filter does not
// keep and counts the reported ones dropped in the summary's Filtered, so
// that a run with everything filtered out does not look clean.
func (p pathFilter) apply(rep *report.Report) {
	drop := func(f report.Finding) bool { return !p.keeps(f) }
	n := len(rep.Findings)
	rep.Findings = slices.DeleteFunc(rep.Findings, drop)
	rep.Summary.Filtered += n - len(rep.Findings)
	rep.Suppressed = slices.DeleteFunc(rep.Suppressed, drop)
}

// existingPaths is the filter for --context's PATH arguments; each must exist.
func existingPaths(args []string) (pathFilter, error) {
	out := pathFilter{}
	for _, a := range args {
		if _, err := os.Stat(a); err != nil {
			return nil, usageError("%s: %v", a, errors.Unwrap(err))
		}
		out = append(out, baseline.RealPath(a))
	}
	return out, nil
}

// gitChanged lists the files that differ between rev and the working tree
// (committed, staged or not) plus untracked files that are not ignored.
func gitChanged(ctx context.Context, rev string) (pathFilter, error) {
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
	out := pathFilter{}
	for _, name := range bytes.Split(append(diff, untracked...), []byte{0}) {
		if len(name) > 0 {
			out = append(out, baseline.RealPath(filepath.Join(topDir, filepath.FromSlash(string(name)))))
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
