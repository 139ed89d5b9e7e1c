package report

import (
	"bufio"
	"cmp"
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"maps"
	"slices"
	"strings"
	"time"
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
	// Hit* is the row's clickable area: the bar's whole track, so that a
	// short bar is as easy to click as a long one.
	HitX, HitY, HitW, HitH int
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
	// Repos are the repositories the rule hits, most of its severe
	// findings first.
	Repos []htmlRuleRepo
}

// htmlRuleRepo is one repository a rule hits, with the rule's findings
// there by severity.
type htmlRuleRepo struct {
	Index      int
	Path       string
	BySeverity map[string]int
	Findings   int
	Worst      string
}

type htmlRepoRow struct {
	Index                                   int
	Path                                    string
	Files, Clusters, Errors, Warnings, Info int
	LoadErrors                              int
	Failed                                  bool
	WorstRule, WorstSlug                    string
	HasDetail                               bool
	// Risk is the row's place in risk order; Hits its findings' distinct
	// rule:severity pairs, space-separated, for the filters.
	Risk int
	Hits string
}

type htmlHead struct {
	Title, ToolVersion, Shard string
	// Generated is the report's time for people, GeneratedISO for
	// <time datetime>; "" when not given.
	Generated, GeneratedISO string
	Totals                  AuditTotals
	Chart                   chartData
	Rows                    []htmlRepoRow
	AnyDetail               bool
	// Rules are the rule filter's choices, most findings first.
	Rules []htmlRule
}

type htmlFinding struct {
	Finding
	Title string
}

type htmlRepo struct {
	Index    int
	Hits     string
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
// a chart of findings by rule and severity, a table of repositories in
// risk order (sortable, filterable by path, severity and rule), per
// repository its findings most severe first (file:line, message and the
// rule with its docs) and load errors, and per rule the repositories it
// hits. Repositories are read twice through Repo (the table's filters need
// every repository's rules before the first detail is written), one at a
// time.
func writeAuditHTML(w io.Writer, a *Audit, opts AuditOptions) error {
	bw := bufio.NewWriter(w)
	head := htmlHead{
		Title:       fmt.Sprintf("kafkalint audit: %d %s", a.Totals.Repos, pluralWord(a.Totals.Repos, "repository", "repositories")),
		ToolVersion: opts.ToolVersion,
		Totals:      a.Totals,
		Chart:       chart(a),
	}
	if !opts.Generated.IsZero() {
		g := opts.Generated.UTC()
		head.Generated, head.GeneratedISO = g.Format("2006-01-02 15:04 UTC"), g.Format(time.RFC3339)
	}
	if a.Shard != nil {
		head.Shard = a.Shard.String()
	}
	rules, byID := htmlRules(a)
	head.Rules = rules
	order := riskOrder(a.Repos)
	hits := make([]string, len(a.Repos))
	for _, i := range order {
		if a.Repos[i].Summary.Findings == 0 {
			continue
		}
		r, err := a.Repo(i)
		if err != nil {
			return err
		}
		hits[i] = ruleHits(r.Findings)
		by := countByRule(r.Findings)
		for _, id := range slices.Sorted(maps.Keys(by)) {
			if hr := byID[id]; hr != nil {
				hr.Repos = append(hr.Repos, htmlRuleRepo{Index: i, Path: r.Path, BySeverity: by[id]})
			}
		}
	}
	for k := range rules {
		finishRuleRepos(rules[k].Repos)
	}
	for k, i := range order {
		r := a.Repos[i]
		s := r.Summary
		row := htmlRepoRow{
			Index: i, Path: r.Path, Files: r.Files, Clusters: r.Clusters,
			Errors: s.BySeverity[Error], Warnings: s.BySeverity[Warning], Info: s.BySeverity[Info],
			LoadErrors: s.Errors, Failed: s.Failed, WorstRule: s.WorstRule,
			HasDetail: s.Findings > 0 || s.Errors > 0, Risk: k, Hits: hits[i],
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
	for _, i := range order {
		if sum := a.Repos[i].Summary; sum.Findings == 0 && sum.Errors == 0 {
			continue
		}
		r, err := a.Repo(i)
		if err != nil {
			return err
		}
		hr := htmlRepo{Index: i, Hits: hits[i], Path: r.Path, Failed: r.Summary.Failed, Summary: r.Summary, Errors: r.Errors}
		for _, f := range bySeverity(r.Findings) {
			hr.Findings = append(hr.Findings, htmlFinding{Finding: f, Title: titles[f.ID]})
		}
		if err := auditHTML.ExecuteTemplate(bw, "repo", hr); err != nil {
			return err
		}
	}
	if err := auditHTML.ExecuteTemplate(bw, "foot", htmlFoot{Rules: rules}); err != nil {
		return err
	}
	return bw.Flush()
}

// htmlRules describes every rule with findings, most findings first, and
// indexes them by id.
func htmlRules(a *Audit) ([]htmlRule, map[string]*htmlRule) {
	ids := a.Totals.rulesByCount()
	rules := make([]htmlRule, len(ids))
	byID := map[string]*htmlRule{}
	for k, id := range ids {
		rc := a.Totals.ByRule[id]
		hr := htmlRule{ID: id, Slug: rc.Slug, DocsURL: rc.DocsURL, Count: rc}
		if r, ok := a.rule(id); ok {
			hr.Slug, hr.Title, hr.Description = r.Slug, r.Title, strings.TrimSpace(r.Description)
			if r.DocsURL != "" {
				hr.DocsURL = r.DocsURL
			}
		}
		rules[k] = hr
		byID[id] = &rules[k]
	}
	return rules, byID
}

// riskOrder lists the indexes of repos most at risk first: most errors,
// then warnings, then info, then load errors (so a repository not analyzed
// comes before the clean ones), then path.
func riskOrder(repos []AuditRepo) []int {
	order := make([]int, len(repos))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(i, j int) int {
		a, b := repos[i].Summary, repos[j].Summary
		return cmp.Or(
			cmp.Compare(b.BySeverity[Error], a.BySeverity[Error]),
			cmp.Compare(b.BySeverity[Warning], a.BySeverity[Warning]),
			cmp.Compare(b.BySeverity[Info], a.BySeverity[Info]),
			cmp.Compare(b.Errors, a.Errors),
			cmp.Compare(repos[i].Path, repos[j].Path),
			cmp.Compare(i, j))
	})
	return order
}

// bySeverity is fs most severe first, in their order among equals.
func bySeverity(fs []Finding) []Finding {
	fs = slices.Clone(fs)
	slices.SortStableFunc(fs, func(a, b Finding) int { return cmp.Compare(Rank(b.Severity), Rank(a.Severity)) })
	return fs
}

// countByRule counts findings by rule and severity.
func countByRule(fs []Finding) map[string]map[string]int {
	by := map[string]map[string]int{}
	for _, f := range fs {
		if by[f.ID] == nil {
			by[f.ID] = map[string]int{}
		}
		by[f.ID][f.Severity]++
	}
	return by
}

// ruleHits is the distinct "rule:severity" pairs of fs, sorted and
// space-separated: what the page's filters match a repository against.
func ruleHits(fs []Finding) string {
	var pairs []string
	for id, bySev := range countByRule(fs) {
		for sev := range bySev {
			pairs = append(pairs, id+":"+sev)
		}
	}
	slices.Sort(pairs)
	return strings.Join(pairs, " ")
}

// finishRuleRepos counts and orders the repositories a rule hits: most of
// its errors first, then warnings, then info, then path.
func finishRuleRepos(rs []htmlRuleRepo) {
	for k := range rs {
		r := &rs[k]
		for _, sev := range slices.Backward(Severities) {
			if n := r.BySeverity[sev]; n > 0 {
				r.Findings += n
				r.Worst = sev
			}
		}
	}
	slices.SortFunc(rs, func(a, b htmlRuleRepo) int {
		return cmp.Or(
			cmp.Compare(b.BySeverity[Error], a.BySeverity[Error]),
			cmp.Compare(b.BySeverity[Warning], a.BySeverity[Warning]),
			cmp.Compare(b.BySeverity[Info], a.BySeverity[Info]),
			cmp.Compare(a.Path, b.Path))
	})
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
		row := chartRow{
			ID: id, Label: id + " " + rc.Slug, Anchor: "rule-" + id, Y: y, TextY: y + chartBarH - 3, Total: rc.Findings,
			HitX: chartLabelW - 4, HitY: y - (chartRowH-chartBarH)/2, HitW: chartWidth - chartLabelW + 4, HitH: chartRowH,
		}
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
