package report

// The implementations before streaming (kept only until the streaming
// writers are proven byte-identical on a big generated report).

import (
	"cmp"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/fatih/color"
)

type legacySarifLog struct {
	Schema  string           `json:"$schema"`
	Version string           `json:"version"`
	Runs    []legacySarifRun `json:"runs"`
}

type legacySarifRun struct {
	Tool        sarifTool           `json:"tool"`
	Invocations []sarifInvocation   `json:"invocations"`
	ColumnKind  string              `json:"columnKind"`
	Results     []legacySarifResult `json:"results"`
}

type legacySarifResult struct {
	RuleID              string             `json:"ruleId"`
	RuleIndex           int                `json:"ruleIndex"`
	Level               string             `json:"level"`
	Message             sarifText          `json:"message"`
	Locations           []sarifLocation    `json:"locations"`
	RelatedLocations    []sarifLocation    `json:"relatedLocations,omitempty"`
	PartialFingerprints map[string]string  `json:"partialFingerprints"`
	Suppressions        []sarifSuppression `json:"suppressions,omitempty"`
	Properties          map[string]string  `json:"properties,omitempty"`
}

func legacyWriteJSON(w io.Writer, r *Report) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(r)
}

func legacyWriteSARIF(w io.Writer, r *Report, toolVersion string) error {
	driver := sarifDriver{Name: "kafkalint", Version: toolVersion, InformationURI: InformationURI, Rules: []sarifRule{}}
	if m := semverRE.FindStringSubmatch(toolVersion); m != nil {
		driver.SemanticVersion = m[1]
	}
	index := map[string]int{}
	addRule := func(rule Rule) {
		if _, ok := index[rule.ID]; ok {
			return
		}
		index[rule.ID] = len(driver.Rules)
		driver.Rules = append(driver.Rules, sarifRuleOf(rule))
	}
	for _, rule := range r.Rules {
		addRule(rule)
	}
	all := append(slices.Clone(r.Findings), r.Suppressed...)
	slices.SortFunc(all, func(a, b Finding) int {
		return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line), cmp.Compare(a.ID, b.ID),
			cmp.Compare(a.Column, b.Column), cmp.Compare(a.Message, b.Message))
	})
	results := []legacySarifResult{}
	for _, f := range all {
		addRule(Rule{ID: f.ID, Slug: f.Slug, Severity: f.Severity, DocsURL: f.DocsURL})
		results = append(results, legacySarifResultOf(f, index[f.ID]))
	}
	inv := sarifInvocation{ExecutionSuccessful: len(r.Errors) == 0}
	for _, e := range r.Errors {
		n := sarifNotification{Level: "error", Message: sarifText{Text: e.Message}}
		n.Locations = []sarifLocation{{PhysicalLocation: physical(e.File, e.Line, 0)}}
		inv.ToolExecutionNotifications = append(inv.ToolExecutionNotifications, n)
	}
	log := legacySarifLog{Schema: sarifSchema, Version: sarifVersion, Runs: []legacySarifRun{{
		Tool: sarifTool{Driver: driver}, Invocations: []sarifInvocation{inv}, ColumnKind: "unicodeCodePoints", Results: results,
	}}}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(log)
}

func legacySarifResultOf(f Finding, ruleIndex int) legacySarifResult {
	res := legacySarifResult{
		RuleID: f.ID, RuleIndex: ruleIndex, Level: sarifLevel(f.Severity),
		Message:             sarifText{Text: f.Message},
		Locations:           []sarifLocation{{PhysicalLocation: physical(f.File, f.Line, f.Column)}},
		PartialFingerprints: map[string]string{FingerprintKey: f.Fingerprint},
		Properties:          map[string]string{},
	}
	if len(f.Related) > 0 {
		// GitHub shows related locations through embedded links in the
		// message; literal brackets must then be escaped (SARIF §3.11.6).
		esc := strings.NewReplacer(`[`, `\[`, `]`, `\]`)
		text := esc.Replace(f.Message)
		var links []string
		for i, rel := range f.Related {
			id := i + 1
			res.RelatedLocations = append(res.RelatedLocations, sarifLocation{ID: &id, PhysicalLocation: physical(rel.File, rel.Line, rel.Column)})
			links = append(links, "["+esc.Replace(rel.File)+":"+strconv.Itoa(rel.Line)+"]("+strconv.Itoa(id)+")")
		}
		res.Message.Text = text + " (related: " + strings.Join(links, ", ") + ")"
	}
	if s := f.Suppression; s != nil {
		res.Suppressions = []sarifSuppression{{Kind: s.Kind, Status: "accepted", Justification: s.Justification}}
	}
	for k, v := range map[string]string{"environment": f.Environment, "cluster": f.Cluster, "key": f.Key, "slug": f.Slug} {
		if v != "" {
			res.Properties[k] = v
		}
	}
	return res
}

func legacyWriteJUnit(w io.Writer, r *Report) error {
	byFile := map[string]*junitSuite{}
	suite := func(file string) *junitSuite {
		s := byFile[file]
		if s == nil {
			s = &junitSuite{Name: file}
			byFile[file] = s
		}
		return s
	}
	for _, f := range r.Findings {
		s := suite(f.File)
		name := f.ID + " " + f.Slug
		if f.Key != "" {
			name += ": " + f.Key
		}
		// A key repeated in one file gives several findings with one name;
		// the fingerprint's ordinal tells them apart.
		if _, n, ok := strings.Cut(f.Fingerprint, ":"); ok && n != "1" {
			name += " #" + n
		}
		var body strings.Builder
		fmt.Fprintf(&body, "%s:%d:%d: %s %s %s\n", f.File, f.Line, max(f.Column, 1), f.Severity, f.ID, f.Message)
		for _, rel := range f.Related {
			fmt.Fprintf(&body, "related: %s:%d\n", rel.File, rel.Line)
		}
		if f.DocsURL != "" {
			fmt.Fprintf(&body, "docs: %s\n", f.DocsURL)
		}
		s.Cases = append(s.Cases, junitCase{
			ClassName: f.File, Name: name, File: f.File, Line: f.Line,
			Failure: &junitProblem{Message: f.Message, Type: f.Severity, Body: body.String()},
		})
		s.Failures++
	}
	for _, e := range r.Errors {
		s := suite(e.File)
		s.Cases = append(s.Cases, junitCase{
			ClassName: e.File, Name: "load", File: e.File, Line: e.Line,
			Error: &junitProblem{Message: e.Message, Type: "load error", Body: e.Message},
		})
		s.Errors++
	}
	for _, file := range r.Linted {
		if _, ok := byFile[file]; !ok {
			suite(file).Cases = []junitCase{{ClassName: file, Name: "kafkalint", File: file}}
		}
	}
	out := junitSuites{Name: "kafkalint"}
	files := make([]string, 0, len(byFile))
	for f := range byFile {
		files = append(files, f)
	}
	slices.Sort(files)
	for _, f := range files {
		s := byFile[f]
		s.Tests = len(s.Cases)
		out.Tests += s.Tests
		out.Failures += s.Failures
		out.Errors += s.Errors
		out.Suites = append(out.Suites, *s)
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(out); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

func legacyWriteText(w io.Writer, r *Report, opts TextOptions) error {
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

func legacyWriteGitHub(w io.Writer, r *Report, summary io.Writer) error {
	var b strings.Builder
	count := map[string]int{}
	for _, f := range r.Findings {
		count[f.Severity]++
	}
	hidden := 0
	for _, n := range count {
		hidden += max(n-gitHubAnnotationLimit, 0)
	}
	if hidden > 0 {
		fmt.Fprintf(&b, "::notice title=%s::%s\n", escapeProperty("kafkalint"),
			escapeData(fmt.Sprintf("%d findings are not shown as annotations: GitHub shows at most %d per level in a step; the log below and the job summary list all of them", hidden, gitHubAnnotationLimit)))
	}
	for _, f := range r.Findings {
		var msg strings.Builder
		msg.WriteString(f.Message)
		for _, rel := range f.Related {
			fmt.Fprintf(&msg, "\nrelated: %s:%d", rel.File, rel.Line)
		}
		if f.DocsURL != "" {
			msg.WriteString("\ndocs: " + f.DocsURL)
		}
		fmt.Fprintf(&b, "::%s file=%s,line=%d,col=%d,title=%s::%s\n", gitHubLevel(f.Severity),
			escapeProperty(f.File), f.Line, max(f.Column, 1), escapeProperty(f.ID+" "+f.Slug), escapeData(msg.String()))
	}
	for _, e := range r.Errors {
		props := "file=" + escapeProperty(e.File)
		if e.Line > 0 {
			props += fmt.Sprintf(",line=%d", e.Line)
		}
		fmt.Fprintf(&b, "::error %s,title=%s::%s\n", props, escapeProperty("kafkalint load error"), escapeData(e.Message))
	}
	if _, err := io.WriteString(w, b.String()); err != nil {
		return err
	}
	if err := legacyWriteText(w, r, TextOptions{}); err != nil {
		return err
	}
	if summary != nil {
		return WriteGitHubSummary(summary, r)
	}
	return nil
}
