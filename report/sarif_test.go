package report

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// sarifExplained is the part of a SARIF document that carries messages,
// whys and fixes.
type sarifExplained struct {
	Runs []struct {
		Tool struct {
			Driver struct {
				Rules []struct {
					ID              string    `json:"id"`
					FullDescription sarifText `json:"fullDescription"`
					Help            sarifText `json:"help"`
				} `json:"rules"`
			} `json:"driver"`
		} `json:"tool"`
		Results []struct {
			RuleID     string         `json:"ruleId"`
			Message    sarifText      `json:"message"`
			Properties map[string]any `json:"properties"`
		} `json:"results"`
	} `json:"runs"`
}

// TestSARIFWhyAndFix: a result's message is the finding's short message;
// its rule's fullDescription is the why and help the fix with the docs
// link; a result repeats why or fix in its properties only when they are
// not its rule's. A rule known only from a finding takes that finding's.
func TestSARIFWhyAndFix(t *testing.T) {
	const docs = "https://example.com/KFK1001.md"
	rule := Rule{ID: "KFK1001", Slug: "rf-one", Title: "RF is 1", Description: "One replica.", Fix: "Set it to 3.", Severity: Error, DocsURL: docs,
		Help: "# KFK1001\n\nThe whole page."}
	finding := func(line int, why, fix string) Finding {
		return Finding{ID: "KFK1001", Slug: "rf-one", Severity: Error, File: "a.properties", Line: line, Key: "k",
			Message: "offsets.topic.replication.factor=1", Why: why, Fix: fix}
	}
	r := &Report{Rules: []Rule{rule}, Findings: []Finding{
		finding(1, "One replica.", "Set it to 3."),
		finding(2, "Its own why.", "Set it to 3."),
		finding(3, "One replica.", "Its own fix."),
		{ID: "ACME1", Slug: "x", Severity: Warning, File: "a.properties", Line: 4, Message: "short", Why: "Custom why.", Fix: "Custom fix."},
	}}
	r.Finish()
	var out bytes.Buffer
	if err := writeSARIF(&out, r, Options{}); err != nil {
		t.Fatal(err)
	}
	var got sarifExplained
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	run := got.Runs[0]
	rules := map[string][2]sarifText{}
	for _, r := range run.Tool.Driver.Rules {
		rules[r.ID] = [2]sarifText{r.FullDescription, r.Help}
	}
	wantRules := map[string][2]sarifText{
		"KFK1001": {{Text: "One replica."}, {Text: "Set it to 3.\n\nDocs: " + docs, Markdown: "Set it to 3.\n\n[KFK1001 rf-one documentation](" + docs + ")"}},
		"ACME1":   {{Text: "Custom why."}, {Text: "Custom fix.", Markdown: "Custom fix."}},
	}
	if diff := cmp.Diff(wantRules, rules); diff != "" {
		t.Errorf("rules' fullDescription and help (-want +got):\n%s", diff)
	}
	type explained struct{ Message, Why, Fix any }
	var results []explained
	for _, res := range run.Results {
		results = append(results, explained{res.Message.Text, res.Properties["why"], res.Properties["fix"]})
	}
	msg := "offsets.topic.replication.factor=1"
	want := []explained{{msg, nil, nil}, {msg, "Its own why.", nil}, {msg, nil, "Its own fix."}, {"short", nil, nil}}
	if diff := cmp.Diff(want, results); diff != "" {
		t.Errorf("results' message, why and fix properties (-want +got):\n%s", diff)
	}

	// A rule without a fix (a custom rule) keeps its page as help.
	if h := sarifRuleOf(Rule{ID: "ACME2", Description: "d", Help: "# ACME2 page", DocsURL: docs}).Help; h != (sarifText{Text: "# ACME2 page", Markdown: "# ACME2 page"}) {
		t.Errorf("help of a rule without a fix = %+v, want its page", h)
	}
}
