package report

import (
	"cmp"
	"fmt"
	"io"
	"maps"
	"slices"
	"time"
)

// auditVersion is the version of the audit JSON contract (docs/audit.md):
// it changes only with incompatible changes, and `kafkalint audit merge`
// refuses any other.
const auditVersion = 1

// Formats only the audit writes.
const (
	formatCSV  = "csv"
	formatHTML = "html"
)

// AuditFormats lists the formats of `kafkalint audit`, the default first.
func AuditFormats() []string {
	return []string{FormatText, formatJSON, formatCSV, formatHTML}
}

// Shard says which part of a split audit a report covers: the
// repositories whose path hash is Index modulo Count.
type Shard struct {
	Index int `json:"index"`
	Count int `json:"count"`
}

func (s Shard) String() string { return fmt.Sprintf("%d/%d", s.Index, s.Count) }

// AuditRepo is one repository of an audit: its findings and load errors in
// the same shape as `lint --format json`, with paths relative to the
// repository's root.
type AuditRepo struct {
	// Path is the repository as the audit named it (ROOT/child, or a line
	// of --repos), slash-separated.
	Path     string      `json:"path"`
	Files    int         `json:"files"`
	Clusters int         `json:"clusters"`
	Findings []Finding   `json:"findings"`
	Errors   []LoadError `json:"errors"`
	Summary  RepoSummary `json:"summary"`
}

// RepoSummary counts one repository's results.
type RepoSummary struct {
	Skipped    int            `json:"skipped"`
	Findings   int            `json:"findings"`
	BySeverity map[string]int `json:"by_severity"`
	Suppressed int            `json:"suppressed"`
	// Errors counts Errors: files that could not be loaded, or the one
	// error that says why the repository was not analyzed (Failed).
	Errors int `json:"errors"`
	// Failed: the repository could not be analyzed at all (unreadable,
	// invalid .kafkalint.yaml, timeout); Errors says why.
	Failed bool `json:"failed"`
	// WorstRule is the id of the rule with the most severe findings (the
	// most findings among equally severe rules), "" when none.
	WorstRule string `json:"worst_rule"`
}

// RepoFailure is the file of the error recorded for a repository that was
// not analyzed: the repository itself.
const RepoFailure = "."

// NewAuditRepo turns one repository's finished lint report into its audit
// entry.
func NewAuditRepo(path string, r *Report) *AuditRepo {
	a := &AuditRepo{
		Path: path, Files: r.Summary.Files, Clusters: r.Summary.Clusters,
		Findings: r.Findings, Errors: r.Errors,
		Summary: RepoSummary{Skipped: r.Summary.Skipped, Suppressed: r.Summary.Suppressed + r.Summary.Baselined},
	}
	a.Finish()
	return a
}

// FailedRepo is the audit entry of a repository that could not be
// analyzed, with why.
func FailedRepo(path, why string) *AuditRepo {
	a := &AuditRepo{Path: path, Errors: []LoadError{{File: RepoFailure, Message: why}}, Summary: RepoSummary{Failed: true}}
	a.Finish()
	return a
}

// Finish fills the counts derived from Findings and Errors (the others,
// Skipped, Suppressed and Failed, are kept) and makes the lists non-nil.
func (a *AuditRepo) Finish() {
	if a.Findings == nil {
		a.Findings = []Finding{}
	}
	if a.Errors == nil {
		a.Errors = []LoadError{}
	}
	s := &a.Summary
	s.Findings, s.Errors = len(a.Findings), len(a.Errors)
	s.BySeverity = map[string]int{Error: 0, Warning: 0, Info: 0}
	for _, f := range a.Findings {
		s.BySeverity[f.Severity]++
	}
	s.WorstRule = worstRule(a.Findings)
}

// worstRule is the rule with the most severe findings; among equally
// severe rules the one with the most findings, then the lowest id.
func worstRule(fs []Finding) string {
	type score struct{ rank, n int }
	by := map[string]*score{}
	for _, f := range fs {
		s := by[f.ID]
		if s == nil {
			s = &score{}
			by[f.ID] = s
		}
		s.rank = max(s.rank, Rank(f.Severity))
		s.n++
	}
	best, bestScore := "", score{}
	for _, id := range slices.Sorted(maps.Keys(by)) {
		if s := *by[id]; best == "" || s.rank > bestScore.rank || (s.rank == bestScore.rank && s.n > bestScore.n) {
			best, bestScore = id, s
		}
	}
	return best
}

// RuleCount counts one rule's findings over an audit.
type RuleCount struct {
	Slug       string         `json:"slug"`
	DocsURL    string         `json:"docs_url"`
	Findings   int            `json:"findings"`
	BySeverity map[string]int `json:"by_severity"`
	// Repos counts the repositories with at least one of its findings.
	Repos int `json:"repos"`
}

// AuditTotals add up every repository of an audit.
type AuditTotals struct {
	Repos int `json:"repos"`
	// Failed counts repositories not analyzed at all; WithErrors those
	// with any error (failed, or a file that could not be loaded).
	Failed     int            `json:"failed"`
	WithErrors int            `json:"with_errors"`
	Files      int            `json:"files"`
	Skipped    int            `json:"skipped"`
	Clusters   int            `json:"clusters"`
	Findings   int            `json:"findings"`
	BySeverity map[string]int `json:"by_severity"`
	Suppressed int            `json:"suppressed"`
	Errors     int            `json:"errors"`
	// ByRule maps a rule id to its counts (rules without findings are
	// left out).
	ByRule map[string]*RuleCount `json:"by_rule"`
}

// NewAuditTotals is the totals of no repository.
func NewAuditTotals() AuditTotals {
	return AuditTotals{BySeverity: map[string]int{Error: 0, Warning: 0, Info: 0}, ByRule: map[string]*RuleCount{}}
}

// Add counts one finished repository.
func (t *AuditTotals) Add(a *AuditRepo) {
	if t.BySeverity == nil {
		t.BySeverity = map[string]int{Error: 0, Warning: 0, Info: 0}
	}
	if t.ByRule == nil {
		t.ByRule = map[string]*RuleCount{}
	}
	s := a.Summary
	t.Repos++
	if s.Failed {
		t.Failed++
	}
	if s.Failed || s.Errors > 0 {
		t.WithErrors++
	}
	t.Files += a.Files
	t.Skipped += s.Skipped
	t.Clusters += a.Clusters
	t.Findings += s.Findings
	t.Suppressed += s.Suppressed
	t.Errors += s.Errors
	seen := map[string]bool{}
	for _, f := range a.Findings {
		t.BySeverity[f.Severity]++
		rc := t.ByRule[f.ID]
		if rc == nil {
			rc = &RuleCount{Slug: f.Slug, DocsURL: f.DocsURL, BySeverity: map[string]int{Error: 0, Warning: 0, Info: 0}}
			t.ByRule[f.ID] = rc
		}
		rc.Findings++
		rc.BySeverity[f.Severity]++
		if !seen[f.ID] {
			seen[f.ID] = true
			rc.Repos++
		}
	}
}

// AtOrAbove counts findings at or above a severity.
func (t *AuditTotals) AtOrAbove(severity string) int {
	n := 0
	for sev, c := range t.BySeverity {
		if Rank(sev) >= Rank(severity) {
			n += c
		}
	}
	return n
}

// rulesByCount lists the ids of ByRule, most findings first (then id).
func (t *AuditTotals) rulesByCount() []string {
	ids := slices.Collect(maps.Keys(t.ByRule))
	slices.SortFunc(ids, func(a, b string) int {
		return cmp.Or(cmp.Compare(t.ByRule[b].Findings, t.ByRule[a].Findings), cmp.Compare(a, b))
	})
	return ids
}

// Audit is what the audit formats render. Repositories are read one at a
// time through Repo, so a renderer never needs the whole audit in memory:
// Repos holds every repository without its findings and errors (for
// tables and counts), Repo(i) the complete repository i.
type Audit struct {
	// Shard is the part of a split audit this report covers (nil: all).
	Shard *Shard
	// Repos are in path order; their Findings and Errors may be nil.
	Repos  []AuditRepo
	Totals AuditTotals
	// Load returns repository i complete; nil means Repos are complete.
	Load func(i int) (*AuditRepo, error)
	// Rules describe the rules (title and description for HTML); a rule
	// missing here is shown by id and slug only.
	Rules []Rule
}

// newAudit builds an in-memory audit of complete repositories (sorted by
// path here) with their totals.
func newAudit(repos []AuditRepo) *Audit {
	repos = slices.Clone(repos)
	slices.SortFunc(repos, func(a, b AuditRepo) int { return cmp.Compare(a.Path, b.Path) })
	a := &Audit{Repos: repos, Totals: NewAuditTotals()}
	for i := range a.Repos {
		a.Repos[i].Finish()
		a.Totals.Add(&a.Repos[i])
	}
	return a
}

// Repo returns repository i complete.
func (a *Audit) Repo(i int) (*AuditRepo, error) {
	if a.Load == nil {
		return &a.Repos[i], nil
	}
	r, err := a.Load(i)
	if err != nil {
		return nil, fmt.Errorf("repository %s: %w", a.Repos[i].Path, err)
	}
	return r, nil
}

// each calls fn with every complete repository in order.
func (a *Audit) each(fn func(*AuditRepo) error) error {
	for i := range a.Repos {
		r, err := a.Repo(i)
		if err != nil {
			return err
		}
		if err := fn(r); err != nil {
			return err
		}
	}
	return nil
}

// ruleCount counts a rule's findings in repository i (reading it when
// Repos does not hold its findings).
func (a *Audit) ruleCount(i int, id string) (int, error) {
	fs := a.Repos[i].Findings
	if fs == nil {
		r, err := a.Repo(i)
		if err != nil {
			return 0, err
		}
		fs = r.Findings
	}
	n := 0
	for _, f := range fs {
		if f.ID == id {
			n++
		}
	}
	return n, nil
}

// rule finds a rule's description by id.
func (a *Audit) rule(id string) (Rule, bool) {
	for _, r := range a.Rules {
		if r.ID == id {
			return r, true
		}
	}
	return Rule{}, false
}

// AuditOptions control the audit formats.
type AuditOptions struct {
	// ToolVersion is kafkalint's version, shown by html.
	ToolVersion string
	// Generated is when the report was made, shown by html (zero: not
	// shown). An input, not the clock, so that output stays deterministic.
	Generated time.Time
	// Width is the width the text table is fitted to (0: DefaultWidth).
	Width int
}

// WriteAudit renders an audit in one of AuditFormats.
func WriteAudit(w io.Writer, format string, a *Audit, opts AuditOptions) error {
	switch format {
	case FormatText:
		return writeAuditText(w, a, opts.Width)
	case formatJSON:
		return writeAuditJSON(w, a)
	case formatCSV:
		return writeAuditCSV(w, a)
	case formatHTML:
		return writeAuditHTML(w, a, opts)
	}
	return fmt.Errorf("unknown audit format %q", format)
}

// repoFile is where a repository's file is, shown from outside it.
func repoFile(repo, file string) string {
	if file == RepoFailure || file == "" {
		return repo
	}
	return repo + "/" + file
}
