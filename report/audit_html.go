package report

import (
	"bufio"
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"strings"
)

// The HTML report is one self-contained file: CSS, the chart (SVG) and the
// script are inline and nothing is fetched, so it can be mailed, attached
// to a CI run or opened from disk. html/template escapes everything that
// comes from the audited repositories (paths, messages, even docs URLs,
// which a merged JSON report could carry from anywhere).

//go:embed audit_html.tmpl
var auditHTMLText string

var auditHTML = template.Must(template.New("audit").Funcs(template.FuncMap{
	"loc":      htmlLocation,
	"plural":   plural,
	"nonzero":  func(n int) bool { return n != 0 },
	"severity": func(m map[string]int, sev string) int { return m[sev] },
	"docs":     docsLink,
}).Parse(auditHTMLText))

// Chart geometry (SVG user units).
const (
	chartWidth    = 1000
	chartLabelW   = 420
	chartBarW     = 500
	chartRowH     = 24
	chartBarH     = 16
	chartTop      = 8
	chartMaxRules = 15
)

var severityColor = map[string]string{Error: "#cf222e", Warning: "#bf8700", Info: "#0969da"}

type chartSeg struct {
	X, W  float64
	Color string
	Title string
}

type chartRow struct {
	ID, Label, Anchor string
	Y, TextY          int
	Segs              []chartSeg
	Total             int
	TotalX            float64
}

type chartData struct {
	Rows   []chartRow
	Height int
	// More counts the rules left out of the chart (they are in the table
	// below it).
	More int
}

type htmlRule struct {
	ID, Slug, Title, Description, DocsURL string
	Count                                 *RuleCount
}

type htmlRepoRow struct {
	Index                                   int
	Path                                    string
	Files, Clusters, Errors, Warnings, Info int
	LoadErrors                              int
	Failed                                  bool
	WorstRule, WorstSlug                    string
	HasDetail                               bool
}

type htmlHead struct {
	Title, ToolVersion, Shard string
	Totals                    AuditTotals
	Chart                     chartData
	Rows                      []htmlRepoRow
	AnyDetail                 bool
}

type htmlFinding struct {
	Finding
	Title string
}

type htmlRepo struct {
	Index    int
	Path     string
	Failed   bool
	Summary  RepoSummary
	Findings []htmlFinding
	Errors   []LoadError
}

type htmlFoot struct {
	Rules []htmlRule
}

// writeAuditHTML writes the audit as one self-contained HTML page: totals,
// a chart of findings by rule and severity, a sortable table of
// repositories and, per repository, its findings (file:line, message and
// the rule with its docs) and load errors.
func writeAuditHTML(w io.Writer, a *Audit, opts AuditOptions) error {
	bw := bufio.NewWriter(w)
	head := htmlHead{
		Title:       fmt.Sprintf("kafkalint audit: %d %s", a.Totals.Repos, pluralWord(a.Totals.Repos, "repository", "repositories")),
		ToolVersion: opts.ToolVersion,
		Totals:      a.Totals,
		Chart:       chart(a),
	}
	if a.Shard != nil {
		head.Shard = a.Shard.String()
	}
	for i, r := range a.Repos {
		s := r.Summary
		row := htmlRepoRow{
			Index: i, Path: r.Path, Files: r.Files, Clusters: r.Clusters,
			Errors: s.BySeverity[Error], Warnings: s.BySeverity[Warning], Info: s.BySeverity[Info],
			LoadErrors: s.Errors, Failed: s.Failed, WorstRule: s.WorstRule,
			HasDetail: s.Findings > 0 || s.Errors > 0,
		}
		if rc := a.Totals.ByRule[s.WorstRule]; rc != nil {
			row.WorstSlug = rc.Slug
		}
		head.AnyDetail = head.AnyDetail || row.HasDetail
		head.Rows = append(head.Rows, row)
	}
	if err := auditHTML.ExecuteTemplate(bw, "head", head); err != nil {
		return err
	}
	titles := map[string]string{}
	for _, r := range a.Rules {
		titles[r.ID] = r.Title
	}
	for i, sum := range a.Repos {
		if sum.Summary.Findings == 0 && sum.Summary.Errors == 0 {
			continue
		}
		r, err := a.Repo(i)
		if err != nil {
			return err
		}
		hr := htmlRepo{Index: i, Path: r.Path, Failed: r.Summary.Failed, Summary: r.Summary, Errors: r.Errors}
		for _, f := range r.Findings {
			hr.Findings = append(hr.Findings, htmlFinding{Finding: f, Title: titles[f.ID]})
		}
		if err := auditHTML.ExecuteTemplate(bw, "repo", hr); err != nil {
			return err
		}
	}
	var foot htmlFoot
	for _, id := range a.Totals.rulesByCount() {
		rc := a.Totals.ByRule[id]
		hr := htmlRule{ID: id, Slug: rc.Slug, DocsURL: rc.DocsURL, Count: rc}
		if r, ok := a.rule(id); ok {
			hr.Slug, hr.Title, hr.Description = r.Slug, r.Title, strings.TrimSpace(r.Description)
			if r.DocsURL != "" {
				hr.DocsURL = r.DocsURL
			}
		}
		foot.Rules = append(foot.Rules, hr)
	}
	if err := auditHTML.ExecuteTemplate(bw, "foot", foot); err != nil {
		return err
	}
	return bw.Flush()
}

// chart lays out one horizontal bar per rule (the rules with the most
// findings, at most chartMaxRules), stacked by severity.
func chart(a *Audit) chartData {
	ids := a.Totals.rulesByCount()
	var c chartData
	if len(ids) > chartMaxRules {
		c.More = len(ids) - chartMaxRules
		ids = ids[:chartMaxRules]
	}
	maxTotal := 1
	for _, id := range ids {
		maxTotal = max(maxTotal, a.Totals.ByRule[id].Findings)
	}
	for i, id := range ids {
		rc := a.Totals.ByRule[id]
		y := chartTop + i*chartRowH
		row := chartRow{ID: id, Label: id + " " + rc.Slug, Anchor: "rule-" + id, Y: y, TextY: y + chartBarH - 3, Total: rc.Findings}
		x := float64(chartLabelW)
		for _, sev := range Severities {
			n := rc.BySeverity[sev]
			if n == 0 {
				continue
			}
			w := float64(n) * chartBarW / float64(maxTotal)
			row.Segs = append(row.Segs, chartSeg{X: x, W: w, Color: severityColor[sev], Title: fmt.Sprintf("%s %s: %d %s", id, rc.Slug, n, sev)})
			x += w
		}
		row.TotalX = x + 6
		c.Rows = append(c.Rows, row)
	}
	c.Height = chartTop*2 + len(ids)*chartRowH
	return c
}

// docsLink is a docs URL worth a link: http or https only (a merged
// report could carry anything), else "".
func docsLink(u string) string {
	if strings.HasPrefix(u, "https://") || strings.HasPrefix(u, "http://") {
		return u
	}
	return ""
}

// htmlLocation is file:line of a finding or error inside its repository.
func htmlLocation(file string, line int) string {
	if line > 0 {
		return fmt.Sprintf("%s:%d", file, line)
	}
	return file
}
