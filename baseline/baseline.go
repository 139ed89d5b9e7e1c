// Package baseline records accepted findings so that only new ones are
// reported: the file behind `kafkalint lint --baseline` and
// `--write-baseline`. Its functions read and write no file: that is the
// caller's (the CLI reads it inside its repository and replaces it by
// rename); they only resolve symlinks in the findings' paths (RealPath).
//
// Entries are keyed by rule id, file (relative to the baseline file's
// directory, so it works from any working directory), the logical key and
// a hash of the key's value: never the line, so edits elsewhere in the
// file do not invalidate it, while changing the flagged value does.
//
// The value of a sensitive setting (a password, a secret, a Terraform
// variable declared sensitive) is never hashed: the file is committed, and
// an unsalted hash of a weak password is as good as the password. Its entry
// has no value_hash, so it keeps matching when the secret is rotated.
// Entries written before that carry the secret's hash; they still match
// while the value is unchanged (compared in memory), and a pruned or
// re-recorded file holds them without it.
package baseline

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"

	"github.com/kafkalint/kafkalint/loader"
	"github.com/kafkalint/kafkalint/report"
)

// version is the only file version this package reads and writes.
const version = 1

// File is a baseline file's content.
type File struct {
	Version  int     `json:"version"`
	Findings []Entry `json:"findings"`
}

// Entry is one accepted finding.
type Entry struct {
	Rule string `json:"rule"`
	// Slug is informative, for readers of the file.
	Slug string `json:"slug,omitempty"`
	File string `json:"file"`
	Key  string `json:"key"`
	// ValueHash is empty for a sensitive setting's finding.
	ValueHash string `json:"value_hash,omitempty"`
}

func (e Entry) match() string {
	return e.Rule + "\x00" + e.File + "\x00" + e.Key + "\x00" + e.ValueHash
}

// value is a setting's value as written.
type value struct {
	raw string
	// secret: the setting is sensitive; its value is never hashed into
	// the file (only compared with an old entry's hash, in memory).
	secret bool
}

// Values maps file → key → the value written there, which entries hash.
// Collect them (Add) before a cluster's model is released.
type Values map[string]map[string]value

// Add records the values written in a cluster's files. Defaults are not
// values anyone wrote, so they are left out (a finding about a missing key
// hashes the empty value).
func (v Values) Add(c *loader.Cluster) {
	add := func(settings map[string]*loader.Setting) {
		for _, s := range settings {
			if s == nil || s.Source != loader.SourceExplicit {
				continue
			}
			if v[s.Loc.File] == nil {
				v[s.Loc.File] = map[string]value{}
			}
			v[s.Loc.File][s.Key] = value{raw: s.Raw, secret: s.Sensitive}
		}
	}
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

// entryFor builds the baseline entry of a finding; dir is the baseline
// file's directory, symlinks resolved.
func entryFor(f report.Finding, dir string, values Values) Entry {
	file := filepath.ToSlash(f.File)
	if rel, err := filepath.Rel(dir, RealPath(f.File)); err == nil {
		file = filepath.ToSlash(rel)
	}
	e := Entry{Rule: f.ID, Slug: f.Slug, File: file, Key: f.Key}
	if v := values[f.File][f.Key]; !v.secret {
		e.ValueHash = valueHash(v.raw)
	}
	return e
}

func valueHash(raw string) string { return report.LogicalHash(raw)[:16] }

// legacyEntry is the entry an older kafkalint wrote for a finding about a
// sensitive setting, with the secret's hash; false for any other finding.
func legacyEntry(f report.Finding, dir string, values Values) (Entry, bool) {
	v, ok := values[f.File][f.Key]
	if !ok || !v.secret {
		return Entry{}, false
	}
	e := entryFor(f, dir, nil)
	e.ValueHash = valueHash(v.raw)
	return e, true
}

// Record is the baseline of findings, for a baseline file in directory dir
// (symlinks resolved: RealPath).
func Record(findings []report.Finding, dir string, values Values) File {
	b := File{Version: version, Findings: []Entry{}}
	for _, f := range findings {
		b.Findings = append(b.Findings, entryFor(f, dir, values))
	}
	return b
}

// Marshal encodes the file with its entries sorted, so that re-recording
// unchanged findings rewrites the same bytes.
func (b File) Marshal() ([]byte, error) {
	b.Findings = slices.Clone(b.Findings)
	slices.SortFunc(b.Findings, func(x, y Entry) int {
		return cmp.Or(cmp.Compare(x.File, y.File), cmp.Compare(x.Rule, y.Rule), cmp.Compare(x.Key, y.Key), cmp.Compare(x.ValueHash, y.ValueHash))
	})
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(b); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Parse decodes a baseline file; name is how errors call it.
func Parse(name string, data []byte) (File, error) {
	var b File
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&b); err != nil {
		return b, fmt.Errorf("baseline %s is not a kafkalint baseline: %w", name, err)
	}
	if b.Version != version {
		return b, fmt.Errorf("baseline %s has version %d; this kafkalint reads version %d", name, b.Version, version)
	}
	return b, nil
}

// HideAll moves every finding to Suppressed, as recorded in a baseline.
func HideAll(rep *report.Report, why string) {
	for _, f := range rep.Findings {
		f.Suppression = &report.Suppression{Kind: report.SuppressedExternal, Justification: why}
		rep.Suppressed = append(rep.Suppressed, f)
	}
	rep.Findings = nil
}

// Outcome is what applying a baseline left of it.
type Outcome struct {
	// Stale are the entries of linted files that matched no finding.
	Stale []Entry
	// Pruned is the file without them, its sensitive settings' entries
	// rewritten without the hash of their value.
	Pruned File
	// Rewritten counts those rewritten entries.
	Rewritten int
}

// Apply hides the findings of rep that b records (each entry hides one
// finding), with why as their justification. dir is b's directory
// (symlinks resolved), linted the files the run linted: entries of other
// files are never stale, and are kept as they are.
func Apply(rep *report.Report, b File, dir, why string, values Values, linted []string) Outcome {
	open := map[string]int{}
	for _, e := range b.Findings {
		open[e.match()]++
	}
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
	isLinted := map[string]bool{}
	for _, f := range linted {
		isLinted[entryFor(report.Finding{File: f}, dir, nil).File] = true
	}
	out := Outcome{Pruned: File{Version: b.Version, Findings: b.Findings[:0:0]}}
	for _, e := range b.Findings {
		if isLinted[e.File] && open[e.match()] > 0 {
			open[e.match()]--
			out.Stale = append(out.Stale, e)
			continue
		}
		if legacy[e.match()] > 0 { // rewritten without the secret's hash
			legacy[e.match()]--
			e.ValueHash = ""
			out.Rewritten++
		}
		out.Pruned.Findings = append(out.Pruned.Findings, e)
	}
	return out
}

// RealPath makes a path absolute and resolves symlinks in as much of it as
// exists (a file deleted since it was recorded still compares equal).
func RealPath(p string) string {
	abs, err := filepath.Abs(filepath.FromSlash(p))
	if err != nil {
		return p
	}
	if r, err := filepath.EvalSymlinks(abs); err == nil {
		return r
	}
	if dir, err := filepath.EvalSymlinks(filepath.Dir(abs)); err == nil {
		return filepath.Join(dir, filepath.Base(abs))
	}
	return abs
}
