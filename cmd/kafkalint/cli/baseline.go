package cli

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/kafkalint/kafkalint/cmd/kafkalint/config"
	"github.com/kafkalint/kafkalint/loader"
	"github.com/kafkalint/kafkalint/loader/safefs"
	"github.com/kafkalint/kafkalint/report"
)

// A baseline records accepted findings so that only new ones are
// reported. Entries are keyed by rule id, file (relative to the baseline
// file's directory, so it works from any working directory), the logical
// key and a hash of the key's value: never the line, so edits elsewhere in
// the file do not invalidate it, while changing the flagged value does.
//
// The value of a sensitive setting (a password, a secret, a Terraform
// variable declared sensitive) is never hashed: the file is committed, and
// an unsalted hash of a weak password is as good as the password. Its entry
// has no value_hash, so it keeps matching when the secret is rotated.
// Entries written before that carry the secret's hash; they still match
// while the value is unchanged (compared in memory), and --baseline-prune
// or --write-baseline rewrites them without it.

const baselineVersion = 1

type baselineFile struct {
	Version  int             `json:"version"`
	Findings []baselineEntry `json:"findings"`
}

type baselineEntry struct {
	Rule string `json:"rule"`
	// Slug is informative, for readers of the file.
	Slug string `json:"slug,omitempty"`
	File string `json:"file"`
	Key  string `json:"key"`
	// ValueHash is empty for a sensitive setting's finding.
	ValueHash string `json:"value_hash,omitempty"`
}

// writtenValue is a setting's value as written, for the baseline.
type writtenValue struct {
	raw string
	// secret: the setting is sensitive; its value is never hashed into
	// the file (only compared with an old entry's hash, in memory).
	secret bool
}

// settingValueMap maps file → key → value as written.
type settingValueMap map[string]map[string]writtenValue

func (e baselineEntry) match() string {
	return e.Rule + "\x00" + e.File + "\x00" + e.Key + "\x00" + e.ValueHash
}

// settingValues maps file → key → value as written, for the baseline's
// value hash. Defaults are not values anyone wrote, so they are left out
// (a finding about a missing key hashes the empty value).
func settingValues(res *loader.Result) settingValueMap {
	out := settingValueMap{}
	add := func(settings map[string]*loader.Setting) {
		for _, s := range settings {
			if s == nil || s.Source != loader.SourceExplicit {
				continue
			}
			if out[s.Loc.File] == nil {
				out[s.Loc.File] = map[string]writtenValue{}
			}
			out[s.Loc.File][s.Key] = writtenValue{raw: s.Raw, secret: s.Sensitive}
		}
	}
	for _, c := range res.Clusters {
		for _, n := range c.Nodes {
			add(n.Settings)
		}
		for _, cl := range c.Clients {
			add(cl.Settings)
		}
		for _, m := range c.Meta {
			add(m.Settings)
		}
		for _, m := range c.MirrorMakers {
			add(m.Settings)
		}
		for _, t := range c.Topics {
			add(t.Settings)
			add(map[string]*loader.Setting{"replication_factor": t.ReplicationFactor, "partitions": t.Partitions})
		}
	}
	return out
}

// entryFor builds the baseline entry of a finding.
func entryFor(f report.Finding, dir string, values settingValueMap) baselineEntry {
	file := filepath.ToSlash(f.File)
	if rel, err := filepath.Rel(dir, realPath(f.File)); err == nil {
		file = filepath.ToSlash(rel)
	}
	e := baselineEntry{Rule: f.ID, Slug: f.Slug, File: file, Key: f.Key}
	if v := values[f.File][f.Key]; !v.secret {
		e.ValueHash = valueHash(v.raw)
	}
	return e
}

func valueHash(raw string) string { return report.LogicalHash(raw)[:16] }

// legacyEntry is the entry an older kafkalint wrote for a finding about a
// sensitive setting, with the secret's hash; false for any other finding.
func legacyEntry(f report.Finding, dir string, values settingValueMap) (baselineEntry, bool) {
	v, ok := values[f.File][f.Key]
	if !ok || !v.secret {
		return baselineEntry{}, false
	}
	e := entryFor(f, dir, nil)
	e.ValueHash = valueHash(v.raw)
	return e, true
}

// writeBaseline records findings in path and returns how many.
func writeBaseline(path string, findings []report.Finding, values settingValueMap) (int, error) {
	dir := realPath(filepath.Dir(path))
	b := baselineFile{Version: baselineVersion, Findings: []baselineEntry{}}
	for _, f := range findings {
		b.Findings = append(b.Findings, entryFor(f, dir, values))
	}
	return len(b.Findings), saveBaseline(path, b)
}

func saveBaseline(path string, b baselineFile) error {
	slices.SortFunc(b.Findings, func(x, y baselineEntry) int {
		return cmp.Or(cmp.Compare(x.File, y.File), cmp.Compare(x.Rule, y.Rule), cmp.Compare(x.Key, y.Key), cmp.Compare(x.ValueHash, y.ValueHash))
	})
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(b); err != nil {
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
	_, werr := tmp.Write(buf.Bytes())
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

func readBaseline(path string) (baselineFile, error) {
	var b baselineFile
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
			return b, fmt.Errorf("baseline %s: %s", path, r)
		}
		return b, fmt.Errorf("baseline %s: %w (create it with --write-baseline)", path, err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&b); err != nil {
		return b, fmt.Errorf("baseline %s is not a kafkalint baseline: %w", path, err)
	}
	if b.Version != baselineVersion {
		return b, fmt.Errorf("baseline %s has version %d; this kafkalint reads version %d", path, b.Version, baselineVersion)
	}
	return b, nil
}

// hideAll moves every finding to Suppressed as recorded in a baseline.
func hideAll(rep *report.Report, why string) {
	for _, f := range rep.Findings {
		f.Suppression = &report.Suppression{Kind: report.SuppressedExternal, Justification: why}
		rep.Suppressed = append(rep.Suppressed, f)
	}
	rep.Findings = nil
}

// applyBaseline hides the findings the baseline records (each entry hides
// one finding). Entries of linted files that match nothing are stale: they
// are counted on stderr, or with prune listed and removed from the file.
// Entries of files this run did not lint are kept as they are.
func applyBaseline(s Streams, rep *report.Report, res *loader.Result, values settingValueMap, path string, prune bool) error {
	b, err := readBaseline(path)
	if err != nil {
		return &exitError{code: ExitError, err: err}
	}
	dir := realPath(filepath.Dir(path))
	open := map[string]int{}
	for _, e := range b.Findings {
		open[e.match()]++
	}
	why := "recorded in baseline " + filepath.ToSlash(path)
	kept := rep.Findings[:0]
	legacy := map[string]int{} // matched entries that hold a secret's hash
	for _, f := range rep.Findings {
		k := entryFor(f, dir, values).match()
		if open[k] == 0 {
			old, ok := legacyEntry(f, dir, values)
			if !ok || open[old.match()] == 0 {
				kept = append(kept, f)
				continue
			}
			k = old.match()
			legacy[k]++
		}
		open[k]--
		f.Suppression = &report.Suppression{Kind: report.SuppressedExternal, Justification: why}
		rep.Suppressed = append(rep.Suppressed, f)
	}
	rep.Findings = kept
	linted := map[string]bool{}
	for _, f := range lintedFiles(res) {
		linted[entryFor(report.Finding{File: f}, dir, nil).File] = true
	}
	var stale []baselineEntry
	remaining, rewritten := b.Findings[:0:0], 0
	for _, e := range b.Findings {
		if linted[e.File] && open[e.match()] > 0 {
			open[e.match()]--
			stale = append(stale, e)
			continue
		}
		if legacy[e.match()] > 0 { // rewritten without the secret's hash
			legacy[e.match()]--
			e.ValueHash = ""
			rewritten++
		}
		remaining = append(remaining, e)
	}
	switch {
	case len(stale) == 0 && (!prune || rewritten == 0):
	case prune:
		if len(stale) > 0 {
			fmt.Fprintf(s.Err, "kafkalint: removed %d stale %s (matching no finding any more) from %s:\n", len(stale), plural(len(stale), "entry"), path)
		}
		for _, e := range stale {
			fmt.Fprintf(s.Err, "  %s %s %s\n", report.LinePath(e.File), report.OneLine(e.Rule), report.OneLine(e.Key))
		}
		if rewritten > 0 {
			fmt.Fprintf(s.Err, "kafkalint: rewrote %d %s of sensitive settings without the hash of their value in %s\n", rewritten, plural(rewritten, "entry"), path)
		}
		b.Findings = remaining
		if err := saveBaseline(path, b); err != nil {
			return &exitError{code: ExitError, err: err}
		}
	default:
		fmt.Fprintf(s.Err, "kafkalint: %d stale %s in %s (matching no finding any more; list and remove them with --baseline-prune)\n",
			len(stale), plural(len(stale), "entry"), path)
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
