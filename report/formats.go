package report

import (
	"fmt"
	"io"
)

// Output formats.
const (
	FormatText   = "text"
	formatJSON   = "json"
	formatSARIF  = "sarif"
	FormatGitHub = "github"
	formatJUnit  = "junit"
)

// Formats lists the output formats, the default first.
func Formats() []string {
	return []string{FormatText, formatJSON, formatSARIF, FormatGitHub, formatJUnit}
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
		return writeText(w, r, textOptions{Color: opts.Color})
	case formatJSON:
		return writeJSON(w, r)
	case formatSARIF:
		return writeSARIF(w, r, opts)
	case FormatGitHub:
		return writeGitHub(w, r, opts.StepSummary)
	case formatJUnit:
		return WriteJUnit(w, r, opts.FailLevel)
	}
	return fmt.Errorf("unknown format %q", format)
}
