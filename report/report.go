// Package report holds the finding model and renders it in each output
// format (one file per format).
package report

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strconv"

	"github.com/kafkalint/kafkalint/loader/doc"
)

// Severities, most severe first.
const (
	Error   = "error"
	Warning = "warning"
	Info    = "info"
)

// Severities lists the valid severities, most severe first.
var Severities = []string{Error, Warning, Info}

// Rank orders severities: error 3, warning 2, info 1, anything else 0.
func Rank(severity string) int {
	switch severity {
	case Error:
		return 3
	case Warning:
		return 2
	case Info:
		return 1
	}
	return 0
}

// Location is a file position.
type Location struct {
	File   string `json:"file"`
	Line   int    `json:"line"`
	Column int    `json:"column,omitempty"`
}

// Finding is one rule violation.
type Finding struct {
	ID       string `json:"id"`
	Slug     string `json:"slug"`
	Severity string `json:"severity"`
	// Message says what is wrong, with the value, in one short line
	// (about 120 characters); Why and Fix carry the explanation: what
	// breaks and how, and what to change. A rule's METADATA gives them
	// (description, custom.fix) unless a finding brings its own.
	Message     string     `json:"message"`
	Why         string     `json:"why"`
	Fix         string     `json:"fix"`
	File        string     `json:"file"`
	Line        int        `json:"line"`
	Column      int        `json:"column"`
	Environment string     `json:"environment"`
	Cluster     string     `json:"cluster"`
	Related     []Location `json:"related"`
	// RelatedOmitted counts the related locations left out of Related
	// (a disagreement among many nodes lists only the nearest ones), so
	// len(Related)+RelatedOmitted is always the exact number.
	RelatedOmitted int    `json:"related_omitted,omitempty"`
	DocsURL        string `json:"docs_url"`
	// Key is the logical thing the finding is about (a config key or
	// resource), stable across edits that move lines.
	Key string `json:"key,omitempty"`
	// Fingerprint identifies the finding across runs: a hash of rule id,
	// file and Key plus an ordinal among findings sharing those three,
	// never the line (Finish fills it).
	Fingerprint string `json:"fingerprint"`
	// Suppression says why a finding is hidden (only findings in
	// Report.Suppressed have one).
	Suppression *Suppression `json:"-"`
}

// Suppression kinds (SARIF's words).
const (
	// SuppressedInSource: a `# kafkalint:ignore` directive in the file.
	SuppressedInSource = "inSource"
	// SuppressedExternal: recorded in a baseline file.
	SuppressedExternal = "external"
)

// Suppression is why a finding is not reported: an inline directive or a
// baseline entry.
type Suppression struct {
	Kind          string // SuppressedInSource or SuppressedExternal
	Justification string // the directive's reason, or which baseline
}

// Rule describes a rule for the formats that list rules (SARIF).
type Rule struct {
	// Description is the rule's why: what breaks and how (METADATA
	// description); a finding's Why is it unless the finding brings its own.
	ID, Slug, Category, Title, Description string
	// Fix is what to change, in general (METADATA custom.fix); a finding's
	// Fix is it unless the finding brings its own.
	Fix string
	// Severity is the effective default severity (after configuration).
	Severity string
	Scope    string
	DocsURL  string
	// Help is the rule's documentation page (Markdown).
	Help string
	// Disabled: turned off by configuration.
	Disabled bool
}

// LoadError is an input that could not be read or parsed: the loader's
// positioned error (loader/doc.Error), column and end included when known.
type LoadError = doc.Error

// Summary counts what a run saw.
type Summary struct {
	Files      int            `json:"files"`
	Skipped    int            `json:"skipped"`
	Clusters   int            `json:"clusters"`
	Findings   int            `json:"findings"`
	BySeverity map[string]int `json:"by_severity"`
	// Suppressed counts findings hidden by inline directives, Baselined
	// those hidden by a baseline file; neither is in Findings.
	Suppressed int `json:"suppressed"`
	Baselined  int `json:"baselined"`
	// Filtered counts the findings left out because they are not in or
	// related to the files selected (--new-from-rev's changed files,
	// --context's PATH arguments); not in Findings either.
	Filtered int `json:"filtered"`
	// SkippedLinks are the symlinks the directory walk did not follow
	// (they leave the linted root, dangle or loop).
	SkippedLinks []SkippedLink `json:"skipped_links,omitempty"`
	// UnknownEnvironment counts the files whose environment is unknown:
	// production-only rules treat them as production. Said once here, not
	// in every finding's message.
	UnknownEnvironment int `json:"unknown_environment,omitempty"`
}

// SkippedLink is a symlink that was not followed, and why.
type SkippedLink struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
}

// Report is the result of one run.
type Report struct {
	Version  int         `json:"version"`
	Findings []Finding   `json:"findings"`
	Errors   []LoadError `json:"errors"`
	Summary  Summary     `json:"summary"`
	// Suppressed are findings hidden by a directive or a baseline: left
	// out of every format except SARIF, which lists them with a
	// suppression.
	Suppressed []Finding `json:"-"`
	// Rules are the rules that ran (for SARIF's rule list).
	Rules []Rule `json:"-"`
	// Linted are the files that were linted (so JUnit can list clean ones).
	Linted []string `json:"-"`
	// KafkaVersions is each linted file's target Kafka version, its
	// cluster's (the language server documents keys for it).
	KafkaVersions map[string]string `json:"-"`
}

// Finish sorts findings and errors deterministically and fills the counts.
func (r *Report) Finish() {
	r.Version = 1
	if r.Findings == nil {
		r.Findings = []Finding{}
	}
	if r.Errors == nil {
		r.Errors = []LoadError{}
	}
	r.Findings = sortFindings(r.Findings)
	r.Suppressed = sortFindings(r.Suppressed)
	fingerprint(r.Findings, r.Suppressed)
	slices.Sort(r.Linted)
	r.Linted = slices.Compact(r.Linted)
	slices.SortFunc(r.Errors, func(a, b LoadError) int {
		return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line), cmp.Compare(a.Message, b.Message))
	})
	r.Summary.Findings = len(r.Findings)
	r.Summary.BySeverity = map[string]int{Error: 0, Warning: 0, Info: 0}
	for _, f := range r.Findings {
		r.Summary.BySeverity[f.Severity]++
	}
	r.Summary.Suppressed, r.Summary.Baselined = 0, 0
	for _, f := range r.Suppressed {
		if f.Suppression != nil && f.Suppression.Kind == SuppressedExternal {
			r.Summary.Baselined++
		} else {
			r.Summary.Suppressed++
		}
	}
}

// sortFindings sorts by file, line, id, column and message, drops exact
// repeats and gives every finding a non-nil, sorted Related list.
//
// The order is total (ties are broken by every other field), so the
// report does not depend on the order findings were produced in: the
// clusters' worker pool, or the engine (the interpreter and the compiled
// rules list a rule's findings in different orders), and the repeat kept
// is always the same one.
func sortFindings(fs []Finding) []Finding {
	for i := range fs {
		f := &fs[i]
		if f.Related == nil {
			f.Related = []Location{}
		}
		slices.SortFunc(f.Related, compareLocations)
	}
	// Indexes are sorted, then the findings moved once each into their
	// place (a Finding is some 250 bytes to move per swap).
	order := make([]int, len(fs))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return compareFindings(&fs[a], &fs[b]) })
	permute(fs, order)
	return slices.CompactFunc(fs, func(a, b Finding) bool {
		return a.ID == b.ID && a.File == b.File && a.Line == b.Line && a.Column == b.Column && a.Message == b.Message
	})
}

// permute moves fs[order[i]] to fs[i] for every i, cycle by cycle; order
// is left as the identity.
func permute(fs []Finding, order []int) {
	for i := range order {
		if order[i] == i {
			continue
		}
		held := fs[i]
		j := i
		for order[j] != i {
			next := order[j]
			fs[j] = fs[next]
			order[j] = j
			j = next
		}
		fs[j] = held
		order[j] = j
	}
}

// compareFindings is the report's total order of findings. Each field is
// compared only when those before it are equal (cmp.Or would compare them
// all, the long why and fix texts too, for every one of the hundreds of
// thousands of comparisons a bulk run's sort makes).
func compareFindings(a, b *Finding) int {
	if c := cmp.Compare(a.File, b.File); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Line, b.Line); c != 0 {
		return c
	}
	if c := cmp.Compare(a.ID, b.ID); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Column, b.Column); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Message, b.Message); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Key, b.Key); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Cluster, b.Cluster); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Environment, b.Environment); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Severity, b.Severity); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Slug, b.Slug); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Why, b.Why); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Fix, b.Fix); c != 0 {
		return c
	}
	if c := cmp.Compare(a.DocsURL, b.DocsURL); c != 0 {
		return c
	}
	if c := slices.CompareFunc(a.Related, b.Related, compareLocations); c != 0 {
		return c
	}
	if c := cmp.Compare(a.RelatedOmitted, b.RelatedOmitted); c != 0 {
		return c
	}
	return compareSuppressions(a.Suppression, b.Suppression)
}

// fingerprint fills Fingerprint: hash(rule id, file, key) plus the
// finding's ordinal, by position, among findings with the same three (a
// key repeated in one file). Reported and suppressed findings are counted
// together so suppressing one does not renumber the others.
func fingerprint(lists ...[]Finding) {
	var all []*Finding
	for _, l := range lists {
		for i := range l {
			all = append(all, &l[i])
		}
	}
	slices.SortStableFunc(all, func(a, b *Finding) int {
		// Field by field, as compareFindings.
		if c := cmp.Compare(a.ID, b.ID); c != 0 {
			return c
		}
		if c := cmp.Compare(a.File, b.File); c != 0 {
			return c
		}
		if c := cmp.Compare(a.Key, b.Key); c != 0 {
			return c
		}
		if c := cmp.Compare(a.Line, b.Line); c != 0 {
			return c
		}
		if c := cmp.Compare(a.Column, b.Column); c != 0 {
			return c
		}
		return cmp.Compare(a.Message, b.Message)
	})
	n := 0
	for i, f := range all {
		if i > 0 && f.ID == all[i-1].ID && f.File == all[i-1].File && f.Key == all[i-1].Key {
			n++
		} else {
			n = 1
		}
		f.Fingerprint = LogicalHash(f.ID, f.File, f.Key) + ":" + strconv.Itoa(n)
	}
}

// LogicalHash hashes the parts that identify a finding whatever its line:
// the first 32 hex digits of the SHA-256 of each part followed by a zero
// byte. (One buffer and one Sum256: a bulk run fingerprints tens of
// thousands of findings.)
func LogicalHash(parts ...string) string {
	var buf [256]byte
	b := buf[:0]
	for _, p := range parts {
		b = append(b, p...)
		b = append(b, 0)
	}
	sum := sha256.Sum256(b)
	var out [32]byte
	hex.Encode(out[:], sum[:16])
	return string(out[:])
}

func compareLocations(a, b Location) int {
	if c := cmp.Compare(a.File, b.File); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Line, b.Line); c != 0 {
		return c
	}
	return cmp.Compare(a.Column, b.Column)
}

// AtOrAbove counts findings at or above a severity.
func (r *Report) AtOrAbove(severity string) int {
	n := 0
	for _, f := range r.Findings {
		if Rank(f.Severity) >= Rank(severity) {
			n++
		}
	}
	return n
}

// compareSuppressions orders suppressions: none first, then by kind and
// justification.
func compareSuppressions(a, b *Suppression) int {
	if a == nil || b == nil {
		return cmp.Compare(boolInt(a != nil), boolInt(b != nil))
	}
	return cmp.Or(cmp.Compare(a.Kind, b.Kind), cmp.Compare(a.Justification, b.Justification))
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
