package report

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// loadAudit reads testdata/in-audit.json (through ReadAuditJSON) into an
// in-memory audit with two rule descriptions.
func loadAudit(t *testing.T) *Audit {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "in-audit.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var repos []AuditRepo
	h, err := ReadAuditJSON(f, nil, func(r *AuditRepo) error {
		repos = append(repos, *r)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	a := newAudit(repos)
	a.Shard = h.Shard
	a.Rules = []Rule{
		{ID: "KFK1001", Slug: "offsets-topic-replication-factor-one", Title: "offsets.topic.replication.factor is 1",
			Description: "The __consumer_offsets topic gets <one> replica.\n", DocsURL: "https://github.com/kafkalint/kafkalint/blob/main/docs/rules/KFK1001.md"},
		{ID: "KFK9001", Slug: "duplicate-key", Title: "Key set more than once", Description: "Java keeps the last one."},
	}
	return a
}

// testGenerated is the fixed generation time of the test reports (the CLI
// passes the clock's).
var testGenerated = time.Date(2026, 1, 2, 3, 4, 5, 0, time.FixedZone("CET", 3600))

func renderAudit(t *testing.T, format string, a *Audit) []byte {
	t.Helper()
	var out bytes.Buffer
	if err := WriteAudit(&out, format, a, AuditOptions{ToolVersion: "v1.2.3", Generated: testGenerated}); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

func TestAuditGolden(t *testing.T) {
	for _, format := range AuditFormats() {
		t.Run(format, func(t *testing.T) {
			golden(t, "out.audit."+format+".golden", renderAudit(t, format, loadAudit(t)))
		})
	}
}

// TestAuditTextWide is the audit table on a terminal 200 wide: as
// text/tabwriter laid it out, nothing wrapped (the golden at 80 wraps).
func TestAuditTextWide(t *testing.T) {
	var out bytes.Buffer
	if err := WriteAudit(&out, FormatText, loadAudit(t), AuditOptions{Width: 200}); err != nil {
		t.Fatal(err)
	}
	golden(t, "out.audit.text-200.golden", out.Bytes())
	for l := range strings.Lines(string(renderAudit(t, FormatText, loadAudit(t)))) {
		if n := runes(strings.TrimSuffix(l, "\n")); n > 80 && !strings.Contains(l, "load error") && !strings.HasPrefix(l, "4 repositories") {
			t.Errorf("the table at 80 has a line of %d: %q", n, l)
		}
	}
}

func TestWriteAuditUnknownFormat(t *testing.T) {
	if err := WriteAudit(&bytes.Buffer{}, formatSARIF, newAudit(nil), AuditOptions{}); err == nil {
		t.Error("WriteAudit accepted sarif, which is not an audit format")
	}
}

func TestAuditTotals(t *testing.T) {
	tot := loadAudit(t).Totals
	want := AuditTotals{
		Repos: 4, Failed: 1, WithErrors: 2, Files: 9, Skipped: 1, Clusters: 4, Findings: 6,
		BySeverity: map[string]int{Error: 1, Warning: 4, Info: 1}, Suppressed: 2, Errors: 2,
		ByRule: map[string]*RuleCount{
			"KFK1001": {Slug: "offsets-topic-replication-factor-one", DocsURL: "https://github.com/kafkalint/kafkalint/blob/main/docs/rules/KFK1001.md",
				Findings: 2, BySeverity: map[string]int{Error: 1, Warning: 1, Info: 0}, Repos: 2},
			"KFK9001": {Slug: "duplicate-key", DocsURL: "https://github.com/kafkalint/kafkalint/blob/main/docs/rules/KFK9001.md",
				Findings: 3, BySeverity: map[string]int{Error: 0, Warning: 3, Info: 0}, Repos: 2},
			"KFK9003": {Slug: "unused-suppression", DocsURL: "javascript:alert(1)",
				Findings: 1, BySeverity: map[string]int{Error: 0, Warning: 0, Info: 1}, Repos: 1},
		},
	}
	if diff := cmp.Diff(want, tot); diff != "" {
		t.Errorf("totals (-want +got):\n%s", diff)
	}
	if got := tot.rulesByCount(); !slicesEqual(got, []string{"KFK9001", "KFK1001", "KFK9003"}) {
		t.Errorf("rulesByCount = %v", got)
	}
	if n := tot.AtOrAbove(Warning); n != 5 {
		t.Errorf("AtOrAbove(warning) = %d, want 5", n)
	}
}

func slicesEqual(a, b []string) bool { return strings.Join(a, "\x00") == strings.Join(b, "\x00") }

func TestWorstRule(t *testing.T) {
	f := func(id, sev string) Finding { return Finding{ID: id, Severity: sev} }
	tests := []struct {
		name string
		in   []Finding
		want string
	}{
		{"none", nil, ""},
		{"severity beats count", []Finding{f("KFK9001", Warning), f("KFK9001", Warning), f("KFK1001", Error)}, "KFK1001"},
		{"count among equals", []Finding{f("KFK1001", Warning), f("KFK9001", Warning), f("KFK9001", Warning)}, "KFK9001"},
		{"lowest id on a tie", []Finding{f("KFK9001", Info), f("KFK2001", Info)}, "KFK2001"},
		{"a rule's worst finding counts", []Finding{f("KFK9001", Info), f("KFK9001", Error), f("KFK1001", Warning)}, "KFK9001"},
	}
	for _, tt := range tests {
		if got := worstRule(tt.in); got != tt.want {
			t.Errorf("%s: worstRule = %q, want %q", tt.name, got, tt.want)
		}
	}
}

// The JSON writer streams, but its output must be exactly what encoding
// the whole report at once gives, and read back to the same repositories.
func TestAuditJSONIsPlainJSON(t *testing.T) {
	a := loadAudit(t)
	got := renderAudit(t, formatJSON, a)
	whole := struct {
		Version int         `json:"version"`
		Shard   *Shard      `json:"shard,omitempty"`
		Repos   []AuditRepo `json:"repos"`
		Totals  AuditTotals `json:"totals"`
	}{auditVersion, a.Shard, a.Repos, a.Totals}
	var want bytes.Buffer
	enc := json.NewEncoder(&want)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(whole); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want.String(), string(got)); diff != "" {
		t.Errorf("streamed JSON differs from encoding/json (-want +got):\n%s", diff)
	}
	var back []AuditRepo
	h, err := ReadAuditJSON(bytes.NewReader(got), nil, func(r *AuditRepo) error {
		back = append(back, *r)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(a.Repos, back); diff != "" {
		t.Errorf("read back (-want +got):\n%s", diff)
	}
	if h.Version != auditVersion || h.Shard == nil || *h.Shard != (Shard{Index: 1, Count: 4}) {
		t.Errorf("header = %+v", h)
	}
	// An empty audit is valid JSON too.
	empty := renderAudit(t, formatJSON, newAudit(nil))
	if _, err := ReadAuditJSON(bytes.NewReader(empty), nil, func(*AuditRepo) error { t.Error("a repository in an empty audit"); return nil }); err != nil {
		t.Errorf("empty audit: %v\n%s", err, empty)
	}
}

// Renderers read repositories one at a time through Load: the output is
// the same as from a complete in-memory audit, and each repository with
// something to show is loaded once per pass.
func TestAuditRenderersStream(t *testing.T) {
	full := loadAudit(t)
	for _, format := range AuditFormats() {
		lazy := *full
		lazy.Repos = nil
		for _, r := range full.Repos {
			r.Findings, r.Errors = nil, nil
			lazy.Repos = append(lazy.Repos, r)
		}
		loads := map[int]int{}
		lazy.Load = func(i int) (*AuditRepo, error) {
			loads[i]++
			r := full.Repos[i]
			return &r, nil
		}
		if diff := cmp.Diff(string(renderAudit(t, format, full)), string(renderAudit(t, format, &lazy))); diff != "" {
			t.Errorf("%s: streamed rendering differs (-in memory +streamed):\n%s", format, diff)
		}
		for i, n := range loads {
			if n > 2 {
				t.Errorf("%s: repository %d loaded %d times", format, i, n)
			}
		}
		if len(loads) == 0 {
			t.Errorf("%s: never loaded a repository", format)
		}
	}
}

func TestReadAuditJSONRejects(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"other version", `{"version": 2, "repos": []}`, "audit report version 2; this kafkalint reads version 1"},
		{"lint report", `{"version": 1, "findings": [], "errors": [], "summary": {}}`, "`kafkalint lint` report"},
		{"no repos", `{"version": 1}`, "not a kafkalint audit report"},
		{"not an object", `[1, 2]`, "not a kafkalint audit report"},
		{"not JSON", `<html>`, "not a kafkalint audit report"},
		{"truncated", `{"version": 1, "repos": [{"path": "a"`, "not a kafkalint audit report"},
		{"trailing data", `{"version": 1, "repos": []} {}`, "data after the report"},
		{"repo without path", `{"version": 1, "repos": [{"files": 1}]}`, `without a "path"`},
		{"bad shard", `{"version": 1, "shard": {"index": 4, "count": 4}, "repos": []}`, "invalid shard 4/4"},
		{"bad finding", `{"version": 1, "repos": [{"path": "a", "findings": [{"line": "x"}]}]}`, "not a kafkalint audit report"},
	}
	for _, tt := range tests {
		_, err := ReadAuditJSON(strings.NewReader(tt.in), nil, func(*AuditRepo) error { return nil })
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: err = %v, want it to contain %q", tt.name, err, tt.want)
		}
	}
}

// Paths, messages and URLs come from the audited repositories: the HTML
// must show them as text, never run or load anything from them, and stay
// one file with nothing to fetch.
func TestAuditHTMLIsSafeAndSelfContained(t *testing.T) {
	out := string(renderAudit(t, formatHTML, loadAudit(t)))
	for _, bad := range []string{`<script>alert`, `<b>&`, `server<1>`, `href="javascript:`, `<one>`, `<img`} {
		if strings.Contains(out, bad) {
			t.Errorf("unescaped input %q in the HTML", bad)
		}
	}
	for _, good := range []string{`&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;`, `repos/beta&lt;b&gt;&amp;&#34;x&#34;`, `prod/server&lt;1&gt;.properties:14`, `&lt;one&gt;`,
		// A finding's why and fix, escaped, behind a <details> of its own.
		`<details class="why"><summary>why and fix</summary><p><strong>Why:</strong> The __consumer_offsets topic gets &lt;one&gt; replica:` + "\n" + `one broker down stops &lt;img/src=x onerror=alert(1)&gt; consumer groups.</p><p><strong>Fix:</strong> Set it to 3.</p></details>`} {
		if !strings.Contains(out, good) {
			t.Errorf("escaped input %q missing from the HTML", good)
		}
	}
	if n := strings.Count(out, "<script"); n != 1 {
		t.Errorf("%d <script> elements, want only the report's own", n)
	}
	// Nothing is fetched: no external stylesheet, script, image or font.
	fetch := regexp.MustCompile(`(?i)<link|\ssrc=|@import|url\(`)
	if m := fetch.FindString(out); m != "" {
		t.Errorf("the HTML fetches something: %q", m)
	}
	// The only absolute URLs are links to rule docs.
	for _, m := range regexp.MustCompile(`(?:href|xlink:href)="([^"#][^"]*)"`).FindAllStringSubmatch(out, -1) {
		if !strings.HasPrefix(m[1], "https://github.com/kafkalint/kafkalint/blob/main/docs/rules/") && m[1] != "http://www.w3.org/2000/svg" {
			t.Errorf("unexpected link %q", m[1])
		}
	}
	for _, want := range []string{"<svg", `id="repo-table"`, `id="r-1"`, `id="rule-KFK1001"`, "offsets.topic.replication.factor is 1", "not analyzed"} {
		if !strings.Contains(out, want) {
			t.Errorf("the HTML lacks %q", want)
		}
	}
}

func TestAuditCSVReadsBack(t *testing.T) {
	a := loadAudit(t)
	rows, err := csv.NewReader(bytes.NewReader(renderAudit(t, formatCSV, a))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if want := 1 + a.Totals.Findings + a.Totals.Errors; len(rows) != want {
		t.Fatalf("%d rows, want %d (header, findings, errors)", len(rows), want)
	}
	byMessage := map[string][]string{}
	for _, r := range rows[1:] {
		byMessage[r[8]] = r
	}
	// Commas, quotes and newlines survive quoting.
	if r := byMessage["log.retention.hours is set again at line 28 (earlier at line 25)\nkeep one"]; len(r) != len(auditCSVHeader) || r[0] != `repos/beta<b>&"x"` || r[2] != "prod/server<1>.properties" || r[12] != "prod/server<1>.properties:25" {
		t.Errorf("multi-line message row = %q", r)
	}
	// A cell a spreadsheet would run as a formula is defused.
	if r := byMessage[`'=HYPERLINK("http://example.com") suppresses nothing`]; len(r) != len(auditCSVHeader) || r[1] != "finding" {
		t.Errorf("formula cell not defused: %q", rows)
	}
	// why and fix are the last two columns, defused like the others.
	if h := auditCSVHeader[len(auditCSVHeader)-2:]; h[0] != "why" || h[1] != "fix" {
		t.Errorf("the last columns are %q, want why and fix", h)
	}
	if r := byMessage[`'=HYPERLINK("http://example.com") suppresses nothing`]; len(r) != len(auditCSVHeader) ||
		r[len(r)-2] != "A directive that suppresses nothing hides the next finding." || r[len(r)-1] != `'=cmd|' /C calc'!A0 remove the directive` {
		t.Errorf("why and fix of a finding row = %q", r)
	}
	if r := byMessage["not analyzed: timed out after 1s (--repo-timeout)"]; len(r) != len(auditCSVHeader) || r[0] != "repos/gamma" || r[1] != "not_analyzed" || r[2] != "" {
		t.Errorf("failed repository row = %q", r)
	}
	if r := byMessage[`invalid properties file: invalid \uXXXX escape`]; len(r) != len(auditCSVHeader) || r[1] != "load_error" || r[2] != "broken.properties" || r[3] != "2" {
		t.Errorf("load error row = %q", r)
	}
}

// matches is every first submatch of re in s, in order.
func matches(s, re string) []string {
	var out []string
	for _, m := range regexp.MustCompile(re).FindAllStringSubmatch(s, -1) {
		out = append(out, m[1])
	}
	return out
}

// The table and the findings below it are in risk order: most errors,
// then warnings, then info, then load errors (the repository not analyzed
// before the clean one), then path — not path order.
func TestAuditHTMLRiskOrder(t *testing.T) {
	out := string(renderAudit(t, formatHTML, loadAudit(t)))
	want := []string{`repos/beta&lt;b&gt;&amp;&#34;x&#34;`, "repos/delta", "repos/gamma", "repos/alpha"}
	if got := matches(out, `<td class="mono" data-v="([^"]*)"`); !slicesEqual(got, want) {
		t.Errorf("table order = %q, want %q", got, want)
	}
	if got := matches(out, `data-risk="(\d+)"`); !slicesEqual(got, []string{"0", "1", "2", "3"}) {
		t.Errorf("data-risk = %q", got)
	}
	// Paths sort to alpha 0, beta 1, delta 2, gamma 3; alpha has nothing
	// to show.
	if got := matches(out, `<details id="r-(\d+)"`); !slicesEqual(got, []string{"1", "2", "3"}) {
		t.Errorf("findings by repository in order %q, want beta, delta, gamma", got)
	}
	if strings.Contains(out, "<th aria-sort") {
		t.Error("a column is marked sorted, but the table is in risk order")
	}
}

// Inside a repository findings are most severe first, in lint's order
// (file, line, rule) among equals.
func TestAuditHTMLFindingsBySeverity(t *testing.T) {
	f := func(line int, sev string) Finding {
		return Finding{ID: "KFK9001", Slug: "duplicate-key", Severity: sev, Message: fmt.Sprint("line ", line), File: "a.properties", Line: line}
	}
	a := newAudit([]AuditRepo{{Path: "r", Files: 1, Findings: []Finding{f(1, Info), f(2, Warning), f(3, Error), f(4, Warning), f(5, Error)}}})
	out := string(renderAudit(t, formatHTML, a))
	if got := matches(out, `<td class="loc mono">a\.properties:(\d+)</td>`); !slicesEqual(got, []string{"3", "5", "2", "4", "1"}) {
		t.Errorf("finding order by line = %q, want errors, warnings, info, each by line", got)
	}
}

// The filters have what they match against: every repository row, detail
// and finding carries its rule:severity pairs, the rule filter offers every
// rule, each chart bar names its rule, and there is a clear button.
func TestAuditHTMLFilterData(t *testing.T) {
	out := string(renderAudit(t, formatHTML, loadAudit(t)))
	rows := matches(out, `<tr(?: class="failed")? data-risk="\d+" data-hits="([^"]*)">`)
	if want := []string{"KFK1001:error KFK9001:warning KFK9003:info", "KFK1001:warning KFK9001:warning", "", ""}; !slicesEqual(rows, want) {
		t.Errorf("rows' data-hits = %q, want %q", rows, want)
	}
	if got := matches(out, `<details id="r-\d+" data-hits="([^"]*)"`); len(got) != 3 || got[0] != rows[0] || got[1] != rows[1] || got[2] != "" {
		t.Errorf("details' data-hits = %q", got)
	}
	if got := matches(out, `<tr data-hits="([^"]*)"><td class="loc`); !slicesEqual(got, []string{"KFK1001:error", "KFK9001:warning", "KFK9003:info", "KFK1001:warning", "KFK9001:warning", "KFK9001:warning"}) {
		t.Errorf("findings' data-hits = %q", got)
	}
	if got := matches(out, `<option value="(KFK[^"]*)"`); !slicesEqual(got, []string{"KFK9001", "KFK1001", "KFK9003"}) {
		t.Errorf("rule filter options = %q", got)
	}
	if got := matches(out, `<option value="([a-z]*)"`); !slicesEqual(got, []string{"", "error", "warning", "info", ""}) {
		t.Errorf("severity filter options = %q", got)
	}
	if got := matches(out, `<g class="bar" data-rule="([^"]*)"`); !slicesEqual(got, []string{"KFK9001", "KFK1001", "KFK9003"}) {
		t.Errorf("chart bars = %q", got)
	}
	for _, want := range []string{`<select id="sev-filter">`, `<select id="rule-filter">`, `<button type="button" id="clear" hidden>Clear filters</button>`, `id="risk-order"`} {
		if !strings.Contains(out, want) {
			t.Errorf("the HTML lacks %q", want)
		}
	}
}

// Each rule lists the repositories it hits, most of its severe findings
// first, linked to their findings.
func TestAuditHTMLRuleRepos(t *testing.T) {
	out := string(renderAudit(t, formatHTML, loadAudit(t)))
	tests := []struct {
		id   string
		want []string
	}{
		// beta has KFK1001's error, delta its warning.
		{"KFK1001", []string{`#r-1">repos/beta&lt;b&gt;&amp;&#34;x&#34;</a> <span class="n">1 <span class="sev error">error`, `#r-2">repos/delta</a> <span class="n">1 <span class="sev warning">warning`}},
		// delta has two KFK9001 warnings, beta one.
		{"KFK9001", []string{`#r-2">repos/delta</a> <span class="n">2 <span class="sev warning">warning`, `#r-1">repos/beta&lt;b&gt;&amp;&#34;x&#34;</a> <span class="n">1 <span class="sev warning">warning`}},
		{"KFK9003", []string{`#r-1">repos/beta&lt;b&gt;&amp;&#34;x&#34;</a> <span class="n">1 <span class="sev info">info`}},
	}
	for _, tt := range tests {
		list := regexp.MustCompile(`<ol class="hits" id="hits-` + tt.id + `">(.*?)</ol>`).FindStringSubmatch(out)
		if list == nil {
			t.Errorf("%s: no list of repositories", tt.id)
			continue
		}
		if got := matches(list[1], `<li><a class="mono" href="(.*?)</span></span></li>`); !slicesEqual(got, tt.want) {
			t.Errorf("%s: repositories %q, want %q", tt.id, got, tt.want)
		}
	}
}

// The header says when and by which kafkalint the report was made; the
// time is the option's (shown in UTC), never the clock's.
func TestAuditHTMLDateAndVersion(t *testing.T) {
	out := string(renderAudit(t, formatHTML, loadAudit(t)))
	if want := `generated <time id="generated" datetime="2026-01-02T02:04:05Z">2026-01-02 02:04 UTC</time> by kafkalint <span id="version">v1.2.3</span>`; !strings.Contains(out, want) {
		t.Errorf("the header lacks %q", want)
	}
	var b bytes.Buffer
	if err := WriteAudit(&b, formatHTML, loadAudit(t), AuditOptions{ToolVersion: "v9"}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "<time") || !strings.Contains(b.String(), `generated by kafkalint <span id="version">v9</span>`) {
		t.Error("without Generated the header must name the version and no time")
	}
}
