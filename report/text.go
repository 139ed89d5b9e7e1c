package report

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/fatih/color"
)

// textOptions control the text format.
type textOptions struct {
	Color bool
	// Width is the width the lines below a finding are wrapped to (0:
	// DefaultWidth).
	Width int
	// Why and Fix print a finding's why and fix below it.
	Why, Fix bool
}

// fixWidth is the narrowest terminal on which the text format shows each
// finding's fix without --verbose: below it, the extra lines would push
// the findings apart more than they help.
const fixWidth = 100

// textOptionsOf decides what the text format shows: the why and the fix
// with Verbose; else the fix on a terminal at least fixWidth wide; else
// (CI logs, pipes, files) the finding line alone.
func textOptionsOf(opts Options) textOptions {
	return textOptions{
		Color: opts.Color, Width: opts.Width,
		Why: opts.Verbose, Fix: opts.Verbose || opts.Terminal && lineWidth(opts.Width) >= fixWidth,
	}
}

// writeText writes one line per finding, `file:line:col: severity ID
// message (slug)`, never wrapped (editors and CI problem matchers parse
// it), then below it, indented and word-wrapped to opts.Width, its why and
// fix when asked for, its related locations and how many were left out;
// then load errors and a one-line summary. Input text is printed through
// OneLine, LinePath and prose (escape.go, wrap.go): one line per entry,
// none starting with input.
func writeText(w io.Writer, r *Report, opts textOptions) error {
	paint := func(c *color.Color) *color.Color {
		if opts.Color {
			c.EnableColor()
		} else {
			c.DisableColor()
		}
		return c
	}
	sev := map[string]*color.Color{
		Error:   paint(color.New(color.FgRed, color.Bold)),
		Warning: paint(color.New(color.FgYellow, color.Bold)),
		Info:    paint(color.New(color.FgCyan)),
	}
	pos := paint(color.New(color.Bold))
	dim := paint(color.New(color.Faint))
	b := bufio.NewWriterSize(w, 64<<10)
	for _, f := range r.Findings {
		c := sev[f.Severity]
		if c == nil { // a custom policy's own severity word
			c = dim
		}
		fmt.Fprintf(b, "%s %s %s %s %s\n",
			pos.Sprintf("%s:%d:%d:", LinePath(f.File), f.Line, max(f.Column, 1)),
			c.Sprint(OneLine(f.Severity)), OneLine(f.ID), OneLine(f.Message), dim.Sprintf("(%s)", OneLine(f.Slug)))
		if opts.Why && f.Why != "" {
			writeLines(b, wrap("    why: ", prose(f.Why), opts.Width))
		}
		if opts.Fix && f.Fix != "" {
			writeLines(b, wrap("    fix: ", prose(f.Fix), opts.Width))
		}
		for _, rel := range f.Related {
			writeLines(b, wrap("    related: ", OneLine(rel.File)+":"+strconv.Itoa(rel.Line), opts.Width))
		}
		if f.RelatedOmitted > 0 {
			writeLines(b, wrap("    ", moreRelated(f.RelatedOmitted), opts.Width))
		}
	}
	for _, e := range r.Errors {
		loc := LinePath(e.File) + linePos(e.Line, e.Column)
		fmt.Fprintf(b, "%s %s %s\n", pos.Sprint(loc+":"), sev[Error].Sprint("load error"), OneLine(e.Message))
	}
	s := r.Summary
	fmt.Fprintf(b, "%s: %s", sizeCounts(s.Files, s.Clusters), severityCounts(s.BySeverity))
	if s.Skipped > 0 {
		fmt.Fprintf(b, " (%d skipped: not Kafka configuration)", s.Skipped)
	}
	if n := len(s.SkippedLinks); n > 0 {
		fmt.Fprintf(b, "; %d %s not followed: %s", n, plural(n, "symlink"), skippedLinks(s.SkippedLinks))
	}
	if note := unknownEnvironment(s); note != "" {
		fmt.Fprintf(b, "; %s", note)
	}
	if hidden := notShown(s); hidden != "" {
		fmt.Fprintf(b, "; %s", hidden)
	}
	if len(r.Errors) > 0 {
		fmt.Fprintf(b, "; %d %s could not be loaded", len(r.Errors), plural(len(r.Errors), "file"))
	}
	// bufio.Writer's errors stick: Flush returns the first one.
	_ = b.WriteByte('\n')
	return b.Flush()
}

func writeLines(b *bufio.Writer, lines []string) {
	for _, l := range lines {
		_, _ = b.WriteString(l)
		_ = b.WriteByte('\n')
	}
}

// unknownEnvironment is the one note about files whose environment is
// unknown (they are judged as production), or "" when there are none.
func unknownEnvironment(s Summary) string {
	if n := s.UnknownEnvironment; n > 0 {
		return fmt.Sprintf("environment unknown for %d %s, treated as production; declare it in .kafkalint.yaml", n, plural(n, "file"))
	}
	return ""
}

// notShown says how many findings the run found but does not report
// (suppressed inline, in the baseline, outside the selected files), or ""
// when it reports all of them.
func notShown(s Summary) string {
	var parts []string
	if s.Suppressed > 0 || s.Baselined > 0 {
		parts = append(parts, fmt.Sprintf("%d suppressed inline", s.Suppressed), fmt.Sprintf("%d in the baseline", s.Baselined))
	}
	if s.Filtered > 0 {
		parts = append(parts, fmt.Sprintf("%d outside the changed files", s.Filtered))
	}
	if parts == nil {
		return ""
	}
	return "not shown: " + strings.Join(parts, ", ")
}

// moreRelated says how many related locations a finding left out:
// "… and 3 more related locations".
func moreRelated(n int) string {
	return fmt.Sprintf("… and %d more related %s", n, plural(n, "location"))
}

// skippedLinks lists the first few links not followed, with the reason.
func skippedLinks(links []SkippedLink) string {
	const shown = 3
	var parts []string
	for _, l := range links[:min(len(links), shown)] {
		parts = append(parts, OneLine(l.Path)+" ("+OneLine(l.Reason)+")")
	}
	if len(links) > shown {
		parts = append(parts, fmt.Sprintf("%d more", len(links)-shown))
	}
	return strings.Join(parts, ", ")
}

// sizeCounts and severityCounts are the two halves every summary line
// (text, GitHub, audit) starts with: "3 files, 1 cluster" and
// "2 errors, 0 warnings, 1 info".
func sizeCounts(files, clusters int) string {
	return fmt.Sprintf("%d %s, %d %s", files, plural(files, "file"), clusters, plural(clusters, "cluster"))
}

func severityCounts(by map[string]int) string {
	return fmt.Sprintf("%d %s, %d %s, %d info",
		by[Error], plural(by[Error], "error"), by[Warning], plural(by[Warning], "warning"), by[Info])
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

// linePos is ":line:column" of a load error, leaving out what is unknown.
func linePos(line, column int) string {
	switch {
	case line > 0 && column > 0:
		return fmt.Sprintf(":%d:%d", line, column)
	case line > 0:
		return fmt.Sprintf(":%d", line)
	}
	return ""
}
