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
	// Width is the width the text format wraps the lines below a finding
	// to (0: DefaultWidth); the finding's own line is never wrapped.
	Width int
	// Terminal: the text goes to a terminal (Width is its width), where a
	// finding's fix is shown when the terminal is wide enough.
	Terminal bool
	// Verbose: the text format shows every finding's why and fix.
	Verbose bool
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
		return writeText(w, r, textOptionsOf(opts))
	case formatJSON:
		return writeJSON(w, r)
	case formatSARIF:
		return writeSARIF(w, r, opts)
	case FormatGitHub:
		return writeGitHub(w, r, opts)
	case formatJUnit:
		return WriteJUnit(w, r, opts.FailLevel)
	}
	return fmt.Errorf("unknown format %q", format)
}
