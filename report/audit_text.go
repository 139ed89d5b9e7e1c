package report

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// auditColumns are the columns of the audit's text table: the counts are
// kept whole, the repository and the worst rule wrap to fit the width.
var auditColumns = []Column{
	{"REPOSITORY", Wrap}, {"FILES", Keep}, {"CLUSTERS", Keep}, {"ERRORS", Keep}, {"WARNINGS", Keep},
	{"INFO", Keep}, {"LOAD ERRORS", Keep}, {"WORST RULE", Wrap},
}

// writeAuditText writes one table row per repository (files, clusters,
// findings by severity, load errors and the worst rule), fitted to width
// (0: DefaultWidth), then every load error and a summary line.
func writeAuditText(w io.Writer, a *Audit, width int) error {
	bw := bufio.NewWriter(w)
	rows := make([][]string, 0, len(a.Repos))
	for i, r := range a.Repos {
		s := r.Summary
		if s.Failed {
			rows = append(rows, []string{LinePath(r.Path), "-", "-", "-", "-", "-", strconv.Itoa(s.Errors), "not analyzed (see below)"})
			continue
		}
		worst := "-"
		if s.WorstRule != "" {
			worst = OneLine(s.WorstRule)
			if rc := a.Totals.ByRule[s.WorstRule]; rc != nil && rc.Slug != "" {
				worst += " " + OneLine(rc.Slug)
			}
			n, err := a.ruleCount(i, s.WorstRule)
			if err != nil {
				return err
			}
			worst += " (" + strconv.Itoa(n) + ")"
		}
		rows = append(rows, []string{LinePath(r.Path), strconv.Itoa(r.Files), strconv.Itoa(r.Clusters),
			strconv.Itoa(s.BySeverity[Error]), strconv.Itoa(s.BySeverity[Warning]), strconv.Itoa(s.BySeverity[Info]), strconv.Itoa(s.Errors), worst})
	}
	if err := WriteTable(bw, width, auditColumns, rows); err != nil {
		return err
	}
	if a.Totals.Errors > 0 {
		fmt.Fprint(bw, "\nload errors:\n")
		for i, r := range a.Repos {
			if r.Summary.Errors == 0 {
				continue
			}
			full, err := a.Repo(i)
			if err != nil {
				return err
			}
			for _, e := range full.Errors {
				switch {
				case e.File == RepoFailure:
					fmt.Fprintf(bw, "%s: %s\n", LinePath(full.Path), OneLine(e.Message))
				case e.Line > 0:
					fmt.Fprintf(bw, "%s:%d: load error %s\n", LinePath(repoFile(full.Path, e.File)), e.Line, OneLine(e.Message))
				default:
					fmt.Fprintf(bw, "%s: load error %s\n", LinePath(repoFile(full.Path, e.File)), OneLine(e.Message))
				}
			}
		}
	}
	fmt.Fprint(bw, "\n"+AuditSummaryLine(a.Totals)+"\n")
	return bw.Flush()
}

// AuditSummaryLine is the one-line summary of an audit's totals.
func AuditSummaryLine(t AuditTotals) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d %s", t.Repos, pluralWord(t.Repos, "repository", "repositories"))
	if t.Failed > 0 {
		fmt.Fprintf(&b, " (%d not analyzed)", t.Failed)
	}
	fmt.Fprintf(&b, ", %s: %s", sizeCounts(t.Files, t.Clusters), severityCounts(t.BySeverity))
	if t.Suppressed > 0 {
		fmt.Fprintf(&b, "; not shown: %d suppressed", t.Suppressed)
	}
	if t.WithErrors > 0 {
		fmt.Fprintf(&b, "; %d load %s in %d %s", t.Errors, plural(t.Errors, "error"), t.WithErrors, pluralWord(t.WithErrors, "repository", "repositories"))
	}
	return b.String()
}

func pluralWord(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
