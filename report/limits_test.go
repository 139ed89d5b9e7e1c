package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// omittedReport has one finding listing 1 of 6 related locations and one
// listing more than SARIF keeps.
func omittedReport() *Report {
	many := make([]Location, 150)
	for i := range many {
		many[i] = Location{File: fmt.Sprintf("n/%03d.properties", i), Line: 1}
	}
	r := &Report{Findings: []Finding{
		{ID: "KFK5001", Slug: "cluster-setting-inconsistent", Severity: Warning, File: "a.properties", Line: 2, Key: "k",
			Message: "m", Related: []Location{{File: "b.properties", Line: 3}}, RelatedOmitted: 5},
		{ID: "KFK5001", Slug: "cluster-setting-inconsistent", Severity: Warning, File: "c.properties", Line: 2, Key: "k",
			Message: "m", Related: many, RelatedOmitted: 10},
		{ID: "KFK5001", Slug: "cluster-setting-inconsistent", Severity: Warning, File: "d.properties", Line: 2, Key: "k",
			Message: "m", RelatedOmitted: 1},
	}}
	r.Finish()
	return r
}

// TestRelatedOmittedEveryFormat: every format that shows related
// locations says how many were left out, with the exact count.
func TestRelatedOmittedEveryFormat(t *testing.T) {
	r := omittedReport()
	out := map[string]string{}
	for _, format := range Formats() {
		var b bytes.Buffer
		if err := Write(&b, format, r, Options{}); err != nil {
			t.Fatal(err)
		}
		out[format] = b.String()
	}
	for format, want := range map[string][]string{
		FormatText:   {"a.properties:2:1: warning KFK5001 m (cluster-setting-inconsistent)\n    related: b.properties:3\n    … and 5 more related locations\n", "    … and 10 more related locations\n", "d.properties:2:1: warning KFK5001 m (cluster-setting-inconsistent)\n    … and 1 more related location\n"},
		FormatGitHub: {"::m%0Arelated: b.properties:3%0A… and 5 more related locations\n", "%0A… and 1 more related location\n"},
		formatJUnit:  {"related: b.properties:3&#xA;… and 5 more related locations&#xA;", "… and 1 more related location&#xA;"},
		formatJSON:   {`"related_omitted": 5,`, `"related_omitted": 10,`, `"related_omitted": 1,`},
	} {
		for _, w := range want {
			if !strings.Contains(out[format], w) {
				t.Errorf("%s output lacks %q:\n%s", format, w, out[format])
			}
		}
	}

	var s struct {
		Runs []struct {
			Results []struct {
				Message          sarifText       `json:"message"`
				RelatedLocations []sarifLocation `json:"relatedLocations"`
				Properties       struct {
					RelatedOmitted int `json:"relatedOmitted"`
				} `json:"properties"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(out[formatSARIF]), &s); err != nil {
		t.Fatal(err)
	}
	// The second finding's 150 related locations are cut to the 100
	// code scanning keeps; the other 50 join its 10 in the count.
	want := []struct {
		related, omitted int
		suffix           string
	}{
		{1, 5, "m (related: [b.properties:3](1) and 5 more related locations)"},
		{100, 60, "[n/099.properties:1](100) and 60 more related locations)"},
		{0, 1, "m (related: 1 location, not listed)"},
	}
	if len(s.Runs[0].Results) != len(want) {
		t.Fatalf("%d SARIF results, want %d", len(s.Runs[0].Results), len(want))
	}
	for i, w := range want {
		res := s.Runs[0].Results[i]
		if len(res.RelatedLocations) != w.related || res.Properties.RelatedOmitted != w.omitted || !strings.HasSuffix(res.Message.Text, w.suffix) {
			t.Errorf("SARIF result %d: %d related locations, relatedOmitted %d, message …%q; want %d, %d, …%q", i,
				len(res.RelatedLocations), res.Properties.RelatedOmitted, res.Message.Text[max(0, len(res.Message.Text)-len(w.suffix)):],
				w.related, w.omitted, w.suffix)
		}
	}
}

// cappedReport has findings of every severity in an order that is not
// the severity order, and suppressed ones.
func cappedReport() *Report {
	r := &Report{}
	sevs := []string{Info, Warning, Error}
	for i := range 9 {
		r.Findings = append(r.Findings, Finding{ID: fmt.Sprintf("KFK%d", 1000+i), Slug: "s", Severity: sevs[i%3],
			File: fmt.Sprintf("f%d.properties", i), Line: 1, Message: "m", Key: "k"})
	}
	r.Suppressed = []Finding{{ID: "KFK2000", Slug: "s", Severity: Error, File: "a.properties", Line: 1, Message: "m",
		Suppression: &Suppression{Kind: SuppressedInSource, Justification: "why"}}}
	r.Errors = []LoadError{{File: "broken.properties", Line: 2, Message: "bad"}}
	r.Finish()
	return r
}

type sarifCapped struct {
	Runs []struct {
		Invocations []struct {
			ToolExecutionNotifications []struct {
				Descriptor *struct {
					ID string `json:"id"`
				} `json:"descriptor"`
				Level      string         `json:"level"`
				Message    sarifText      `json:"message"`
				Properties map[string]int `json:"properties"`
			} `json:"toolExecutionNotifications"`
		} `json:"invocations"`
		Results []struct {
			RuleID       string `json:"ruleId"`
			Level        string `json:"level"`
			Suppressions []any  `json:"suppressions"`
		} `json:"results"`
	} `json:"runs"`
}

// TestSARIFOrderAndCap: results come error, warning, note (reported
// before suppressed, then file order), and --max-results keeps the first
// ones with a notification counting the rest.
func TestSARIFOrderAndCap(t *testing.T) {
	order := func(limit int) (ids []string, s sarifCapped) {
		var out bytes.Buffer
		if err := writeSARIF(&out, cappedReport(), Options{MaxResults: limit}); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(out.Bytes(), &s); err != nil {
			t.Fatal(err)
		}
		for _, res := range s.Runs[0].Results {
			ids = append(ids, res.Level+" "+res.RuleID)
		}
		return ids, s
	}
	all, s := order(0)
	want := []string{"error KFK1002", "error KFK1005", "error KFK1008", "warning KFK1001", "warning KFK1004", "warning KFK1007",
		"note KFK1000", "note KFK1003", "note KFK1006", "error KFK2000"}
	if strings.Join(all, ", ") != strings.Join(want, ", ") {
		t.Errorf("results in order\n %v\nwant\n %v", all, want)
	}
	if n := len(s.Runs[0].Invocations[0].ToolExecutionNotifications); n != 1 {
		t.Errorf("%d notifications without a cap, want only the load error's", n)
	}

	capped, s := order(4)
	if strings.Join(capped, ", ") != strings.Join(want[:4], ", ") {
		t.Errorf("capped results %v, want the 4 most severe %v", capped, want[:4])
	}
	notes := s.Runs[0].Invocations[0].ToolExecutionNotifications
	if len(notes) != 2 {
		t.Fatalf("notifications %+v, want the load error and the cap", notes)
	}
	n := notes[1]
	if n.Descriptor == nil || n.Descriptor.ID != "kafkalint/max-results" || n.Level != "warning" ||
		n.Properties["omittedResults"] != 6 || n.Properties["totalResults"] != 10 ||
		!strings.HasPrefix(n.Message.Text, "6 of 10 results are left out: at most 4 are written per run") {
		t.Errorf("cap notification = %+v", n)
	}
	if all, _ := order(10); len(all) != 10 {
		t.Errorf("a cap of exactly the count dropped results: %v", all)
	}
}
