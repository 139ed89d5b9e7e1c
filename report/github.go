package report

import (
	"bufio"
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"
)

// GitHub shows at most this many annotations of each level per step
// (https://github.com/actions/toolkit/pull/734); the rest are dropped
// silently, so the full text report follows the annotations.
const gitHubAnnotationLimit = 10

// summaryRows caps the findings table of the job summary (GitHub limits a
// step summary to 1 MiB).
const summaryRows = 100

// writeGitHub writes one workflow command per finding
// (`::error file=...,line=...,col=...,title=KFKxxxx slug::message`, the
// fix, related locations and docs link on the annotation's next lines),
// then the plain text report (wrapped to opts.Width; why and fix with
// opts.Verbose), which GitHub shows in the log: no line of it starts with
// input text, and input never brings its own line break, so a
// configuration value cannot inject a workflow command. When
// opts.StepSummary is set, a Markdown job summary is appended to it.
func writeGitHub(w io.Writer, r *Report, opts Options) error {
	b := bufio.NewWriterSize(w, 64<<10)
	count := map[string]int{}
	for _, f := range r.Findings {
		count[f.Severity]++
	}
	hidden := 0
	for _, n := range count {
		hidden += max(n-gitHubAnnotationLimit, 0)
	}
	if hidden > 0 {
		fmt.Fprintf(b, "::notice title=%s::%s\n", escapeProperty("kafkalint"),
			escapeData(fmt.Sprintf("%d findings are not shown as annotations: GitHub shows at most %d per level in a step; the log below and the job summary list all of them", hidden, gitHubAnnotationLimit)))
	}
	for _, f := range r.Findings {
		// The message's own lines are ours (related locations, docs); the
		// input's control characters are escaped first (OneLine), so
		// an annotation shows a value's newline as \n.
		var msg strings.Builder
		msg.WriteString(OneLine(f.Message))
		if f.Fix != "" {
			msg.WriteString("\nfix: " + prose(f.Fix))
		}
		for _, rel := range f.Related {
			fmt.Fprintf(&msg, "\nrelated: %s:%d", OneLine(rel.File), rel.Line)
		}
		if f.RelatedOmitted > 0 {
			msg.WriteString("\n" + moreRelated(f.RelatedOmitted))
		}
		if f.DocsURL != "" {
			msg.WriteString("\ndocs: " + OneLine(f.DocsURL))
		}
		fmt.Fprintf(b, "::%s file=%s,line=%d,col=%d,title=%s::%s\n", gitHubLevel(f.Severity),
			escapeProperty(OneLine(f.File)), f.Line, max(f.Column, 1), escapeProperty(OneLine(f.ID+" "+f.Slug)), escapeData(msg.String()))
	}
	for _, e := range r.Errors {
		props := "file=" + escapeProperty(OneLine(e.File))
		if e.Line > 0 {
			props += fmt.Sprintf(",line=%d", e.Line)
			if e.Column > 0 {
				props += fmt.Sprintf(",col=%d", e.Column)
			}
		}
		fmt.Fprintf(b, "::error %s,title=%s::%s\n", props, escapeProperty("kafkalint load error"), escapeData(OneLine(e.Message)))
	}
	if err := b.Flush(); err != nil {
		return err
	}
	if err := writeText(w, r, textOptionsOf(Options{Width: opts.Width, Verbose: opts.Verbose})); err != nil {
		return err
	}
	if opts.StepSummary != nil {
		return writeGitHubSummary(opts.StepSummary, r)
	}
	return nil
}

func gitHubLevel(severity string) string {
	switch severity {
	case Error:
		return "error"
	case Warning:
		return "warning"
	}
	return "notice"
}

// escapeData escapes a workflow command's message: %, CR and LF.
func escapeData(s string) string {
	return dataEscaper.Replace(s)
}

// escapeProperty escapes a workflow command property value: as a message,
// plus ':' and ',' which would end the value.
func escapeProperty(s string) string {
	return propertyEscaper.Replace(s)
}

// writeGitHubSummary writes the Markdown job summary: the counts, then a
// table of findings (at most summaryRows, the most severe: severity, rule,
// location, message and, when any finding has one, fix: a page is as wide
// as the browser, so the fix has its own column) and of load errors.
func writeGitHubSummary(w io.Writer, r *Report) error {
	var b strings.Builder
	s := r.Summary
	fmt.Fprintf(&b, "## kafkalint\n\n%s: **%s**", sizeCounts(s.Files, s.Clusters), severityCounts(s.BySeverity))
	if hidden := notShown(s); hidden != "" {
		fmt.Fprintf(&b, " (%s)", hidden)
	}
	if note := unknownEnvironment(s); note != "" {
		fmt.Fprintf(&b, "\n\n%s", note)
	}
	b.WriteString("\n\n")
	if len(r.Findings) > 0 {
		// The fix column is left out when no finding has a fix.
		withFix := slices.ContainsFunc(r.Findings, func(f Finding) bool { return f.Fix != "" })
		if withFix {
			b.WriteString("| Severity | Rule | Location | Message | Fix |\n|---|---|---|---|---|\n")
		} else {
			b.WriteString("| Severity | Rule | Location | Message |\n|---|---|---|---|\n")
		}
		rows := r.Findings
		if len(rows) > summaryRows {
			// The rows kept are the most severe (errors first, then in
			// file order): a thousand infos must not push out the error.
			rows = slices.Clone(rows)
			slices.SortStableFunc(rows, func(a, b Finding) int { return cmp.Compare(Rank(b.Severity), Rank(a.Severity)) })
		}
		for i, f := range rows {
			if i == summaryRows {
				fmt.Fprintf(&b, "\n… and %d more findings, none more severe than those above: see the job log.\n", len(rows)-summaryRows)
				break
			}
			rule := f.ID + " " + f.Slug
			if f.DocsURL != "" {
				rule = fmt.Sprintf("[%s](%s) %s", f.ID, f.DocsURL, f.Slug)
			}
			fmt.Fprintf(&b, "| %s | %s | `%s:%d` | %s |", f.Severity, rule, cell(f.File), f.Line, cell(f.Message))
			if withFix {
				fmt.Fprintf(&b, " %s |", cellEscaper.Replace(prose(f.Fix)))
			}
			b.WriteByte('\n')
		}
		b.WriteString("\n")
	}
	if len(r.Errors) > 0 {
		b.WriteString("| Load error | Message |\n|---|---|\n")
		for _, e := range r.Errors {
			fmt.Fprintf(&b, "| `%s` | %s |\n", cell(e.File+linePos(e.Line, e.Column)), cell(e.Message))
		}
		b.WriteString("\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// cell makes text safe inside a Markdown table cell, on one line.
func cell(s string) string {
	return cellEscaper.Replace(OneLine(s))
}

// The replacers are built once: building one per call cost more than the
// rest of the github format.
var (
	dataEscaper     = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")
	propertyEscaper = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C")
	cellEscaper     = strings.NewReplacer("|", `\|`, "<", "&lt;", ">", "&gt;", "`", "'")
)
