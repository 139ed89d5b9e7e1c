package report

import (
	"fmt"
	"io"
)

// Output formats.
const (
	FormatText   = "text"
	FormatJSON   = "json"
	FormatSARIF  = "sarif"
	FormatGitHub = "github"
	FormatJUnit  = "junit"
)

// Formats lists the output formats, the default first.
func Formats() []string {
	return []string{FormatText, FormatJSON, FormatSARIF, FormatGitHub, FormatJUnit}
}

// Options control the formats.
type Options struct {
	// Color: color the text format (and the text part of github).
	Color bool
	// ToolVersion is kafkalint's version, for SARIF.
	ToolVersion string
	// StepSummary, when set, receives github's Markdown job summary (the
	// file named by GITHUB_STEP_SUMMARY).
	StepSummary io.Writer
	// MaxResults caps SARIF's results (the most important are kept, and a
	// notification counts the others); 0 writes them all. The CLI's
	// default is GitHubMaxResults.
	MaxResults int
	// FailLevel is the lowest severity that fails the run ("" = Error):
	// JUnit reports findings below it as skipped test cases, not failures.
	FailLevel string
}

// Write renders r in one format.
func Write(w io.Writer, format string, r *Report, opts Options) error {
	switch format {
	case FormatText:
		return WriteText(w, r, TextOptions{Color: opts.Color})
	case FormatJSON:
		return WriteJSON(w, r)
	case FormatSARIF:
		return WriteSARIF(w, r, opts)
	case FormatGitHub:
		return WriteGitHub(w, r, opts.StepSummary)
	case FormatJUnit:
		return WriteJUnit(w, r, opts.FailLevel)
	}
	return fmt.Errorf("unknown format %q", format)
}
