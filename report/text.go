package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/fatih/color"
)

// TextOptions control the text format.
type TextOptions struct {
	Color bool
}

// WriteText writes one line per finding, `file:line:col: severity ID
// message (slug)`, related locations indented below, then load errors and
// a one-line summary.
func WriteText(w io.Writer, r *Report, opts TextOptions) error {
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
	var b strings.Builder
	for _, f := range r.Findings {
		fmt.Fprintf(&b, "%s %s %s %s %s\n",
			pos.Sprintf("%s:%d:%d:", f.File, f.Line, max(f.Column, 1)),
			sev[f.Severity].Sprint(f.Severity), f.ID, f.Message, dim.Sprintf("(%s)", f.Slug))
		for _, rel := range f.Related {
			fmt.Fprintf(&b, "    related: %s:%d\n", rel.File, rel.Line)
		}
	}
	for _, e := range r.Errors {
		loc := e.File
		if e.Line > 0 {
			loc = fmt.Sprintf("%s:%d", e.File, e.Line)
		}
		fmt.Fprintf(&b, "%s %s %s\n", pos.Sprint(loc+":"), sev[Error].Sprint("load error"), e.Message)
	}
	s := r.Summary
	fmt.Fprintf(&b, "%s: %s", sizeCounts(s.Files, s.Clusters), severityCounts(s.BySeverity))
	if s.Skipped > 0 {
		fmt.Fprintf(&b, " (%d skipped: not Kafka configuration)", s.Skipped)
	}
	if n := len(s.SkippedLinks); n > 0 {
		fmt.Fprintf(&b, "; %d %s not followed: %s", n, plural(n, "symlink"), skippedLinks(s.SkippedLinks))
	}
	if s.Suppressed > 0 || s.Baselined > 0 {
		fmt.Fprintf(&b, "; not shown: %d suppressed inline, %d in the baseline", s.Suppressed, s.Baselined)
	}
	if len(r.Errors) > 0 {
		fmt.Fprintf(&b, "; %d %s could not be loaded", len(r.Errors), plural(len(r.Errors), "file"))
	}
	b.WriteString("\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// skippedLinks lists the first few links not followed, with the reason.
func skippedLinks(links []SkippedLink) string {
	const shown = 3
	var parts []string
	for _, l := range links[:min(len(links), shown)] {
		parts = append(parts, l.Path+" ("+l.Reason+")")
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
