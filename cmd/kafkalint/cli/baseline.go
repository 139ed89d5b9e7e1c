package cli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/kafkalint/kafkalint/baseline"
	"github.com/kafkalint/kafkalint/cmd/kafkalint/config"
	"github.com/kafkalint/kafkalint/loader/safefs"
	"github.com/kafkalint/kafkalint/report"
)

// The baseline file's entries and how a run applies them are package
// baseline's; here it is read, written and its stale entries reported.

func saveBaseline(path string, b baseline.File) error {
	data, err := b.Marshal()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("write baseline: %w", err)
	}
	// Write a new file and rename it over the old one: a committed symlink
	// at path is replaced, never followed to a file outside the repository.
	tmp, err := os.CreateTemp(filepath.Dir(path), ".kafkalint-baseline-*")
	if err != nil {
		return fmt.Errorf("write baseline: %w", err)
	}
	_, werr := tmp.Write(data)
	if cerr := tmp.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Chmod(tmp.Name(), 0o644)
	}
	if werr == nil {
		werr = os.Rename(tmp.Name(), path)
	}
	if werr != nil {
		_ = os.Remove(tmp.Name())
		return fmt.Errorf("write baseline: %w", werr)
	}
	return nil
}

func readBaseline(path string) (baseline.File, error) {
	// The baseline is committed with the repository under review: read it
	// as any file (a FIFO must not hang the run, /dev/zero not fill memory).
	// It is read inside its repository: a committed symlink to a file
	// elsewhere is refused like any other read (docs/security.md).
	data, err := readInRepo(path)
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		if r := safefs.Reason(err); r != "" {
			return baseline.File{}, fmt.Errorf("baseline %s: %s", path, r)
		}
		return baseline.File{}, fmt.Errorf("baseline %s: %w (create it with --write-baseline)", path, err)
	}
	return baseline.Parse(path, data)
}

// reportBaseline says what applying the baseline at path left of it: the
// stale entries (of linted files, matching no finding) are counted on
// stderr, or with prune listed and removed from the file, with the entries
// of sensitive settings rewritten without their value's hash.
func reportBaseline(s Streams, path string, o baseline.Outcome, prune bool) error {
	switch {
	case len(o.Stale) == 0 && (!prune || o.Rewritten == 0):
	case prune:
		if len(o.Stale) > 0 {
			fmt.Fprintf(s.Err, "kafkalint: removed %d stale %s (matching no finding any more) from %s:\n", len(o.Stale), plural(len(o.Stale), "entry"), path)
		}
		for _, e := range o.Stale {
			fmt.Fprintf(s.Err, "  %s %s %s\n", report.LinePath(e.File), report.OneLine(e.Rule), report.OneLine(e.Key))
		}
		if o.Rewritten > 0 {
			fmt.Fprintf(s.Err, "kafkalint: rewrote %d %s of sensitive settings without the hash of their value in %s\n", o.Rewritten, plural(o.Rewritten, "entry"), path)
		}
		return saveBaseline(path, o.Pruned)
	default:
		fmt.Fprintf(s.Err, "kafkalint: %d stale %s in %s (matching no finding any more; list and remove them with --baseline-prune)\n",
			len(o.Stale), plural(len(o.Stale), "entry"), path)
	}
	return nil
}

// plural is word or its plural for n.
func plural(n int, word string) string {
	switch {
	case n == 1:
		return word
	case strings.HasSuffix(word, "y"):
		return strings.TrimSuffix(word, "y") + "ies"
	}
	return word + "s"
}

// readInRepo reads path inside the repository holding it (the nearest
// directory above it with .git, else its own directory).
func readInRepo(path string) ([]byte, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	root, err := safefs.OpenRoot(config.RepoRoot(filepath.Dir(abs)), 0)
	if err != nil {
		return nil, err
	}
	defer func() { _ = root.Close() }()
	return root.ReadFile(abs)
}
