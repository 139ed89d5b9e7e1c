package baseline

import (
	"path/filepath"
	"strings"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/kafkalint/kafkalint/report"
)

// TestRecordApplyRoundTrip: a recorded file, marshaled and parsed back,
// hides the findings it recorded wherever their lines move; a changed
// value shows again, and the entries of linted files that match nothing
// are stale while another file's are kept.
func TestRecordApplyRoundTrip(t *testing.T) {
	t.Parallel()
	dir := RealPath(t.TempDir())
	file := filepath.Join(dir, "prod", "server.properties")
	other := filepath.Join(dir, "dev", "server.properties")
	values := Values{file: {"a": {raw: "1"}, "b": {raw: "2"}}, other: {"c": {raw: "3"}}}
	findings := []report.Finding{
		{ID: "KFK1001", File: file, Line: 3, Key: "a"},
		{ID: "KFK1002", File: file, Line: 4, Key: "b"},
		{ID: "KFK1003", File: other, Line: 1, Key: "c"},
	}
	data, err := Record(findings, dir, values).Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), `"line"`) || !strings.Contains(string(data), `"file": "prod/server.properties"`) {
		t.Errorf("want paths relative to dir and no lines:\n%s", data)
	}
	b, err := Parse("b.json", data)
	if err != nil {
		t.Fatal(err)
	}
	values[file]["b"] = value{raw: "5"} // b's value changed
	rep := &report.Report{Findings: []report.Finding{{ID: "KFK1001", File: file, Line: 9, Key: "a"}, {ID: "KFK1002", File: file, Line: 10, Key: "b"}}}
	o := Apply(rep, b, dir, "why", values, []string{file})
	if len(rep.Findings) != 1 || rep.Findings[0].ID != "KFK1002" || len(rep.Suppressed) != 1 || rep.Suppressed[0].Suppression.Justification != "why" {
		t.Errorf("reported %+v, suppressed %+v: want only the changed KFK1002 reported", rep.Findings, rep.Suppressed)
	}
	var stale []string
	for _, e := range o.Stale {
		stale = append(stale, e.Rule)
	}
	if diff := gocmp.Diff([]string{"KFK1002"}, stale); diff != "" || len(o.Pruned.Findings) != 2 {
		t.Errorf("stale mismatch (-want +got):\n%s\npruned %+v", diff, o.Pruned)
	}
}

// TestSecretsAreNotHashed: a sensitive setting's entry has no value hash
// and matches whatever the value; an old entry with the secret's hash
// still matches the unchanged value and is rewritten without it.
func TestSecretsAreNotHashed(t *testing.T) {
	t.Parallel()
	dir := RealPath(t.TempDir())
	file := filepath.Join(dir, "server.properties")
	f := report.Finding{ID: "KFK2003", File: file, Key: "sasl.jaas.config"}
	values := Values{file: {f.Key: {raw: "hunter2", secret: true}}}
	b := Record([]report.Finding{f}, dir, values)
	if b.Findings[0].ValueHash != "" {
		t.Fatalf("entry %+v holds the secret's hash", b.Findings[0])
	}
	values[file][f.Key] = value{raw: "rotated", secret: true}
	rotated := &report.Report{Findings: []report.Finding{f}}
	Apply(rotated, b, dir, "", values, []string{file})
	if len(rotated.Findings) != 0 {
		t.Errorf("after rotating the secret the entry no longer matches: %v", rotated.Findings)
	}
	legacy := File{Version: version, Findings: []Entry{{Rule: f.ID, File: "server.properties", Key: f.Key, ValueHash: valueHash("rotated")}}}
	rep := &report.Report{Findings: []report.Finding{f}}
	o := Apply(rep, legacy, dir, "", values, []string{file})
	if len(rep.Findings) != 0 || o.Rewritten != 1 || o.Pruned.Findings[0].ValueHash != "" {
		t.Errorf("legacy entry: reported %v, outcome %+v; want it matched and rewritten without the hash", rep.Findings, o)
	}
}

func TestParseErrors(t *testing.T) {
	t.Parallel()
	for data, want := range map[string]string{
		`{"version": 1, "findings": [], "extra": true}`: "baseline b.json is not a kafkalint baseline",
		`{"version": 2, "findings": []}`:                "baseline b.json has version 2; this kafkalint reads version 1",
	} {
		if _, err := Parse("b.json", []byte(data)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Parse(%s) = %v, want %q", data, err, want)
		}
	}
}
