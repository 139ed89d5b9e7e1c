package report

import (
	"bytes"
	"cmp"
	"fmt"
	"io"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// SARIF 2.1.0 (https://docs.oasis-open.org/sarif/sarif/v2.1.0/), the shape
// GitHub code scanning reads. Only the properties kafkalint fills are
// declared; a test validates the output against the official schema.

const (
	sarifSchema  = "https://json.schemastore.org/sarif-2.1.0.json"
	sarifVersion = "2.1.0"
	// informationURI is kafkalint's home page.
	informationURI = "https://github.com/kafkalint/kafkalint"
	// fingerprintKey names kafkalint's entry in SARIF partialFingerprints.
	fingerprintKey = "kafkalint/v1"
	srcRoot        = "%SRCROOT%"
)

// GitHub code scanning's limits on an uploaded SARIF file (docs/ci.md
// cites them): a run with more than GitHubMaxResults results is rejected,
// and of a result's locations only the first 100 are kept (1,000 is the
// hard limit).
const (
	// GitHubMaxResults is the most results per run code scanning accepts,
	// the default of --max-results.
	GitHubMaxResults = 25000
	// sarifMaxRelated caps relatedLocations per result; the rest are
	// counted in properties.relatedOmitted and the message.
	sarifMaxRelated = 100
)

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name            string      `json:"name"`
	Version         string      `json:"version,omitempty"`
	SemanticVersion string      `json:"semanticVersion,omitempty"`
	InformationURI  string      `json:"informationUri"`
	Rules           []sarifRule `json:"rules"`
}

type sarifText struct {
	Text     string `json:"text"`
	Markdown string `json:"markdown,omitempty"`
}

type sarifRule struct {
	ID                   string         `json:"id"`
	Name                 string         `json:"name"`
	ShortDescription     sarifText      `json:"shortDescription"`
	FullDescription      sarifText      `json:"fullDescription"`
	Help                 sarifText      `json:"help"`
	HelpURI              string         `json:"helpUri,omitempty"`
	DefaultConfiguration sarifRuleConf  `json:"defaultConfiguration"`
	Properties           map[string]any `json:"properties"`
}

type sarifRuleConf struct {
	Level   string `json:"level"`
	Enabled *bool  `json:"enabled,omitempty"`
}

type sarifInvocation struct {
	ExecutionSuccessful        bool                `json:"executionSuccessful"`
	ToolExecutionNotifications []sarifNotification `json:"toolExecutionNotifications,omitempty"`
}

type sarifNotification struct {
	Descriptor *sarifDescriptorRef `json:"descriptor,omitempty"`
	Level      string              `json:"level"`
	Message    sarifText           `json:"message"`
	Locations  []sarifLocation     `json:"locations,omitempty"`
	Properties map[string]int      `json:"properties,omitempty"`
}

// sarifDescriptorRef names a notification's kind.
type sarifDescriptorRef struct {
	ID string `json:"id"`
}

type sarifResult struct {
	RuleID              string             `json:"ruleId"`
	RuleIndex           int                `json:"ruleIndex"`
	Level               string             `json:"level"`
	Message             sarifText          `json:"message"`
	Locations           []sarifLocation    `json:"locations"`
	RelatedLocations    []sarifLocation    `json:"relatedLocations,omitempty"`
	PartialFingerprints sarifFingerprints  `json:"partialFingerprints"`
	Suppressions        []sarifSuppression `json:"suppressions,omitempty"`
	Properties          *sarifProperties   `json:"properties,omitempty"`
}

// sarifFingerprints is partialFingerprints with kafkalint's one entry.
type sarifFingerprints struct {
	Kafkalint string `json:"kafkalint/v1"`
}

// sarifProperties is a result's property bag; the fields are in the order
// of their names, as a map's keys would be.
type sarifProperties struct {
	Cluster     string `json:"cluster,omitempty"`
	Environment string `json:"environment,omitempty"`
	// Fix and Why are the finding's own, when they differ from its rule's
	// help and fullDescription.
	Fix string `json:"fix,omitempty"`
	Key string `json:"key,omitempty"`
	// RelatedOmitted counts the related locations not listed, so
	// relatedLocations plus it is the exact number.
	RelatedOmitted int    `json:"relatedOmitted,omitempty"`
	Slug           string `json:"slug,omitempty"`
	Why            string `json:"why,omitempty"`
}

type sarifLocation struct {
	ID               int                   `json:"id,omitempty"` // related locations count from 1
	PhysicalLocation sarifPhysicalLocation `json:"physicalLocation"`
}

type sarifPhysicalLocation struct {
	ArtifactLocation sarifArtifact `json:"artifactLocation"`
	Region           *sarifRegion  `json:"region,omitempty"`
}

type sarifArtifact struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId,omitempty"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn,omitempty"`
	// EndLine and EndColumn (just past the region) are known for some
	// load errors only.
	EndLine   int `json:"endLine,omitempty"`
	EndColumn int `json:"endColumn,omitempty"`
}

type sarifSuppression struct {
	Kind          string `json:"kind"`
	Status        string `json:"status"`
	Justification string `json:"justification,omitempty"`
}

// sarifLevel maps a severity to a SARIF level.
func sarifLevel(severity string) string {
	switch severity {
	case Error:
		return "error"
	case Warning:
		return "warning"
	}
	return "note"
}

var semverRE = regexp.MustCompile(`^v?(\d+\.\d+\.\d+(?:[-+].*)?)$`)

// writeSARIF writes one SARIF run: every rule in r.Rules (plus any rule a
// written result names that is not listed), every finding, and the
// suppressed findings with a `suppressions` entry so code scanning shows
// them as dismissed rather than fixed. Load errors become tool execution
// notifications. Results are ordered most important first (sarifOrder);
// with opts.MaxResults > 0 only that many are written and a notification
// says how many were left out. The results are streamed one at a time
// after the rules and invocations (which are small), so memory does not
// grow with the document.
func writeSARIF(w io.Writer, r *Report, opts Options) error {
	driver := sarifDriver{Name: "kafkalint", Version: opts.ToolVersion, InformationURI: informationURI, Rules: []sarifRule{}}
	if m := semverRE.FindStringSubmatch(opts.ToolVersion); m != nil {
		driver.SemanticVersion = m[1]
	}
	index := map[string]int{}
	// explained is each rule's why and fix, which a result repeats only
	// when its own differ.
	explained := map[string][2]string{}
	addRule := func(rule Rule) {
		if _, ok := index[rule.ID]; ok {
			return
		}
		index[rule.ID] = len(driver.Rules)
		explained[rule.ID] = [2]string{rule.Description, rule.Fix}
		driver.Rules = append(driver.Rules, sarifRuleOf(rule))
	}
	for _, rule := range r.Rules {
		addRule(rule)
	}
	all := sarifOrder(r)
	omitted := 0
	if opts.MaxResults > 0 && len(all) > opts.MaxResults {
		omitted = len(all) - opts.MaxResults
		all = all[:opts.MaxResults]
	}
	for _, f := range all {
		// A rule known only from its findings (not in r.Rules) is
		// described by its first finding's why and fix.
		addRule(Rule{ID: f.ID, Slug: f.Slug, Severity: f.Severity, DocsURL: f.DocsURL, Description: f.Why, Fix: f.Fix})
	}
	inv := sarifInvocation{ExecutionSuccessful: len(r.Errors) == 0}
	for _, e := range r.Errors {
		n := sarifNotification{Level: "error", Message: sarifText{Text: e.Message}}
		loc := physical(e.File, e.Line, e.Column)
		if loc.Region != nil && e.EndLine > 0 {
			loc.Region.EndLine, loc.Region.EndColumn = e.EndLine, e.EndColumn
		}
		n.Locations = []sarifLocation{{PhysicalLocation: loc}}
		inv.ToolExecutionNotifications = append(inv.ToolExecutionNotifications, n)
	}
	if omitted > 0 {
		inv.ToolExecutionNotifications = append(inv.ToolExecutionNotifications, sarifNotification{
			Descriptor: &sarifDescriptorRef{ID: "kafkalint/max-results"},
			Level:      "warning",
			Message: sarifText{Text: fmt.Sprintf("%d of %d results are left out: at most %d are written per run (--max-results; GitHub code scanning rejects a run of more than %d), the most severe first. Every finding is in the other outputs; to upload them all, split the run into parts (--context), or turn rules off or hide known findings with a baseline (docs/ci.md).",
				omitted, omitted+len(all), opts.MaxResults, GitHubMaxResults)},
			Properties: map[string]int{"omittedResults": omitted, "totalResults": omitted + len(all)},
		})
	}

	// The document is {"$schema", "version", "runs": [{"tool",
	// "invocations", "columnKind", "results"}]}, indented as
	// json.Encoder.SetIndent("", "  ") would.
	j := newJSONStream(w)
	j.raw("{\n  \"$schema\": \"" + sarifSchema + "\",\n  \"version\": \"" + sarifVersion + "\",\n  \"runs\": [\n    {\n      \"tool\": ")
	j.value("      ", &sarifTool{Driver: driver})
	j.raw(",\n      \"invocations\": ")
	writeJSONArray(j, "      ", []sarifInvocation{inv})
	j.raw(",\n      \"columnKind\": \"unicodeCodePoints\",\n      \"results\": ")
	if len(all) == 0 {
		j.raw("[]")
	} else {
		j.raw("[")
		var rw sarifResultWriter
		for i, f := range all {
			if i > 0 {
				j.raw(",")
			}
			j.raw("\n        ")
			j.value("        ", rw.of(f, index[f.ID], explained[f.ID]))
		}
		j.raw("\n      ]")
	}
	j.raw("\n    }\n  ]\n}\n")
	return j.flush()
}

// sarifOrder is every result, reported and suppressed, in the order they
// are written, so that what matters most survives a cap (code scanning
// also shows only the first 5,000 by severity): reported findings before
// suppressed ones (leaving a suppressed result out only loses its
// dismissal; leaving a reported one out closes its alert), then by
// severity, error first, then by file, line, rule id, column and message.
func sarifOrder(r *Report) []*Finding {
	all := make([]*Finding, 0, len(r.Findings)+len(r.Suppressed))
	for i := range r.Findings {
		all = append(all, &r.Findings[i])
	}
	for i := range r.Suppressed {
		all = append(all, &r.Suppressed[i])
	}
	slices.SortStableFunc(all, func(a, b *Finding) int {
		return cmp.Or(cmp.Compare(b2i(a.Suppression != nil), b2i(b.Suppression != nil)), cmp.Compare(Rank(b.Severity), Rank(a.Severity)),
			cmp.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line), cmp.Compare(a.ID, b.ID),
			cmp.Compare(a.Column, b.Column), cmp.Compare(a.Message, b.Message))
	})
	return all
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// sarifRuleOf is a rule's SARIF descriptor: fullDescription is its why,
// help its fix and the link to its docs page (code scanning shows help in
// the alert, below the result's message). A rule without a fix (a custom
// rule) keeps its docs page, else its description, as help.
func sarifRuleOf(rule Rule) sarifRule {
	title := cmp.Or(rule.Title, rule.Slug, rule.ID)
	desc := cmp.Or(rule.Description, title)
	help := sarifText{Text: cmp.Or(rule.Fix, rule.Help, desc), Markdown: cmp.Or(rule.Fix, rule.Help)}
	if rule.Fix != "" || rule.Help == "" {
		if rule.DocsURL != "" {
			help.Text += "\n\nDocs: " + rule.DocsURL
			if help.Markdown != "" {
				help.Markdown += "\n\n[" + sarifLinkEscaper.Replace(cmp.Or(rule.ID+" "+rule.Slug, rule.ID)) + " documentation](" + rule.DocsURL + ")"
			}
		}
	}
	tags := []string{"kafka"}
	if rule.Category != "" {
		tags = append(tags, rule.Category)
	}
	props := map[string]any{"tags": tags}
	if rule.Scope != "" {
		props["scope"] = rule.Scope
	}
	if rule.Category == "security" {
		// GitHub reads security-severity only on rules tagged security
		// (the category tag above).
		props["security-severity"] = map[string]string{Error: "8.0", Warning: "5.0", Info: "2.0"}[rule.Severity]
	}
	conf := sarifRuleConf{Level: sarifLevel(rule.Severity)}
	if rule.Disabled {
		off := false
		conf.Enabled = &off
	}
	return sarifRule{
		ID: rule.ID, Name: cmp.Or(rule.Slug, rule.ID),
		ShortDescription: sarifText{Text: title}, FullDescription: sarifText{Text: desc},
		Help: help, HelpURI: rule.DocsURL,
		DefaultConfiguration: conf, Properties: props,
	}
}

// sarifResultWriter builds one result at a time in storage reused from
// one result to the next, so that writing a result allocates little more
// than its message (only the JSON of one result is alive at once).
type sarifResultWriter struct {
	res   sarifResult
	props sarifProperties
	// regions holds the result's regions; its capacity is never exceeded,
	// so the pointers into it stay valid while the result is encoded.
	regions []sarifRegion
	text    bytes.Buffer
	// The artifact of the last file: results come grouped by file.
	lastFile     string
	lastArtifact sarifArtifact
}

func (w *sarifResultWriter) physical(file string, line, column int) sarifPhysicalLocation {
	if file != w.lastFile || w.lastArtifact.URI == "" {
		w.lastFile, w.lastArtifact = file, artifact(file)
	}
	loc := sarifPhysicalLocation{ArtifactLocation: w.lastArtifact}
	if line > 0 {
		w.regions = append(w.regions, sarifRegion{StartLine: line, StartColumn: column})
		loc.Region = &w.regions[len(w.regions)-1]
	}
	return loc
}

// of is the result for f, whose rule's why and fix are rule: its message
// is f's short message (with links to its related locations), and its
// why and fix are in its properties when they are not its rule's
// (fullDescription and help).
func (w *sarifResultWriter) of(f *Finding, ruleIndex int, rule [2]string) *sarifResult {
	if w.regions == nil {
		w.regions = make([]sarifRegion, 0, 1+sarifMaxRelated)
	}
	w.regions = w.regions[:0]
	res := &w.res
	*res = sarifResult{
		RuleID: f.ID, RuleIndex: ruleIndex, Level: sarifLevel(f.Severity),
		Message:             sarifText{Text: f.Message},
		Locations:           append(res.Locations[:0], sarifLocation{PhysicalLocation: w.physical(f.File, f.Line, f.Column)}),
		RelatedLocations:    res.RelatedLocations[:0],
		PartialFingerprints: sarifFingerprints{Kafkalint: f.Fingerprint},
	}
	related, omitted := f.Related, f.RelatedOmitted
	if len(related) > sarifMaxRelated {
		related, omitted = related[:sarifMaxRelated], omitted+len(related)-sarifMaxRelated
	}
	if len(related) > 0 || omitted > 0 {
		// GitHub shows related locations through embedded links in the
		// message; literal brackets must then be escaped (SARIF §3.11.6).
		text := &w.text
		text.Reset()
		_, _ = sarifLinkEscaper.WriteString(text, f.Message)
		text.WriteString(" (related: ")
		for i, rel := range related {
			id := i + 1
			res.RelatedLocations = append(res.RelatedLocations, sarifLocation{ID: id, PhysicalLocation: w.physical(rel.File, rel.Line, rel.Column)})
			if i > 0 {
				text.WriteString(", ")
			}
			text.WriteByte('[')
			_, _ = sarifLinkEscaper.WriteString(text, rel.File)
			text.WriteByte(':')
			text.Write(strconv.AppendInt(text.AvailableBuffer(), int64(rel.Line), 10))
			text.WriteString("](")
			text.Write(strconv.AppendInt(text.AvailableBuffer(), int64(id), 10))
			text.WriteByte(')')
		}
		switch {
		case omitted > 0 && len(related) > 0:
			text.WriteString(" " + strings.TrimPrefix(moreRelated(omitted), "… "))
		case omitted > 0:
			text.WriteString(strconv.Itoa(omitted) + " " + plural(omitted, "location") + ", not listed")
		}
		text.WriteByte(')')
		res.Message.Text = text.String()
	}
	if s := f.Suppression; s != nil {
		res.Suppressions = []sarifSuppression{{Kind: s.Kind, Status: "accepted", Justification: s.Justification}}
	}
	w.props = sarifProperties{Cluster: f.Cluster, Environment: f.Environment, Key: f.Key, RelatedOmitted: omitted, Slug: f.Slug}
	if f.Why != rule[0] {
		w.props.Why = f.Why
	}
	if f.Fix != rule[1] {
		w.props.Fix = f.Fix
	}
	if w.props != (sarifProperties{}) {
		res.Properties = &w.props
	}
	return res
}

var sarifLinkEscaper = strings.NewReplacer(`[`, `\[`, `]`, `\]`)

// physical is a file position; the region is left out when the line is
// unknown (0).
func physical(file string, line, column int) sarifPhysicalLocation {
	loc := sarifPhysicalLocation{ArtifactLocation: artifact(file)}
	if line > 0 {
		loc.Region = &sarifRegion{StartLine: line, StartColumn: column}
	}
	return loc
}

// artifact turns a display path into a SARIF URI: relative paths (the
// usual case: run from the repository root) are relative to %SRCROOT%,
// absolute ones become file URIs.
func artifact(file string) sarifArtifact {
	switch {
	case strings.HasPrefix(file, "/"):
		return sarifArtifact{URI: "file://" + (&url.URL{Path: file}).EscapedPath()}
	case len(file) > 2 && file[1] == ':' && file[2] == '/': // C:/...
		return sarifArtifact{URI: "file:///" + (&url.URL{Path: file}).EscapedPath()}
	}
	// String, unlike EscapedPath, writes "./a:b" for a first segment with
	// a colon, which would otherwise read as a URI scheme.
	return sarifArtifact{URI: (&url.URL{Path: file}).String(), URIBaseID: srcRoot}
}
