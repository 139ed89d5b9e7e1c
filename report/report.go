// Package report holds the finding model and renders it in each output
// format (one file per format).
package report

import (
	"cmp"
	"slices"
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
	ID          string     `json:"id"`
	Slug        string     `json:"slug"`
	Severity    string     `json:"severity"`
	Message     string     `json:"message"`
	File        string     `json:"file"`
	Line        int        `json:"line"`
	Column      int        `json:"column"`
	Environment string     `json:"environment"`
	Cluster     string     `json:"cluster"`
	Related     []Location `json:"related"`
	DocsURL     string     `json:"docs_url"`
	// Key is the logical thing the finding is about (a config key or
	// resource), stable across edits that move lines.
	Key string `json:"key,omitempty"`
}

// LoadError is an input that could not be read or parsed.
type LoadError struct {
	File    string `json:"file"`
	Line    int    `json:"line"`
	Message string `json:"message"`
}

// Summary counts what a run saw.
type Summary struct {
	Files      int            `json:"files"`
	Skipped    int            `json:"skipped"`
	Clusters   int            `json:"clusters"`
	Findings   int            `json:"findings"`
	BySeverity map[string]int `json:"by_severity"`
}

// Report is the result of one run.
type Report struct {
	Version  int         `json:"version"`
	Findings []Finding   `json:"findings"`
	Errors   []LoadError `json:"errors"`
	Summary  Summary     `json:"summary"`
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
	for i := range r.Findings {
		f := &r.Findings[i]
		if f.Related == nil {
			f.Related = []Location{}
		}
		slices.SortFunc(f.Related, compareLocations)
	}
	slices.SortFunc(r.Findings, func(a, b Finding) int {
		return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line), cmp.Compare(a.ID, b.ID),
			cmp.Compare(a.Column, b.Column), cmp.Compare(a.Message, b.Message))
	})
	r.Findings = slices.CompactFunc(r.Findings, func(a, b Finding) bool {
		return a.ID == b.ID && a.File == b.File && a.Line == b.Line && a.Column == b.Column && a.Message == b.Message
	})
	slices.SortFunc(r.Errors, func(a, b LoadError) int {
		return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line), cmp.Compare(a.Message, b.Message))
	})
	r.Summary.Findings = len(r.Findings)
	r.Summary.BySeverity = map[string]int{Error: 0, Warning: 0, Info: 0}
	for _, f := range r.Findings {
		r.Summary.BySeverity[f.Severity]++
	}
}

func compareLocations(a, b Location) int {
	return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line), cmp.Compare(a.Column, b.Column))
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
