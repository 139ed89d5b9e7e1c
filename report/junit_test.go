package report

import (
	"bytes"
	"encoding/xml"
	"strconv"
	"testing"
)

// TestJUnitFailLevel: only findings at or above the fail level are
// failures; the others are skipped test cases that keep their text (in
// <skipped> for GitLab, in <system-out> for Jenkins), so a run that exits
// 0 publishes no failed test.
func TestJUnitFailLevel(t *testing.T) {
	r := &Report{Findings: []Finding{
		{ID: "KFK1001", Slug: "a", Severity: Error, Message: "bad", File: "s.properties", Line: 3},
		{ID: "KFK4003", Slug: "b", Severity: Warning, Message: "risky", File: "s.properties", Line: 5},
		{ID: "KFK9003", Slug: "c", Severity: Info, Message: "note", File: "s.properties", Line: 7},
	}}
	r.Finish()
	tests := []struct {
		failLevel string
		failed    []string // rule ids of the failing cases, in order
	}{
		{"", []string{"KFK1001"}}, // the CLI's default, error
		{Error, []string{"KFK1001"}},
		{Warning, []string{"KFK1001", "KFK4003"}},
		{Info, []string{"KFK1001", "KFK4003", "KFK9003"}},
	}
	for _, tt := range tests {
		var out bytes.Buffer
		if err := Write(&out, formatJUnit, r, Options{FailLevel: tt.failLevel}); err != nil {
			t.Fatal(err)
		}
		var got struct {
			Failures int `xml:"failures,attr"`
			Skipped  int `xml:"skipped,attr"`
			Suites   []struct {
				Failures int `xml:"failures,attr"`
				Skipped  int `xml:"skipped,attr"`
				Cases    []struct {
					Name    string        `xml:"name,attr"`
					Failure *junitProblem `xml:"failure"`
					Skipped *junitProblem `xml:"skipped"`
					Stdout  string        `xml:"system-out"`
				} `xml:"testcase"`
			} `xml:"testsuite"`
		}
		if err := xml.Unmarshal(out.Bytes(), &got); err != nil || len(got.Suites) != 1 {
			t.Fatalf("fail level %q: %v\n%s", tt.failLevel, err, out.String())
		}
		s := got.Suites[0]
		wantSkipped := 3 - len(tt.failed)
		if got.Failures != len(tt.failed) || s.Failures != len(tt.failed) || got.Skipped != wantSkipped || s.Skipped != wantSkipped {
			t.Errorf("fail level %q: failures %d/%d, skipped %d/%d, want %d and %d\n%s",
				tt.failLevel, got.Failures, s.Failures, got.Skipped, s.Skipped, len(tt.failed), wantSkipped, out.String())
		}
		var failed []string
		for i, c := range s.Cases {
			f := r.Findings[i]
			switch {
			case c.Failure != nil && c.Skipped == nil && c.Stdout == "":
				failed = append(failed, f.ID)
			case c.Failure == nil && c.Skipped != nil:
				body := "s.properties:" + strconv.Itoa(f.Line) + ":1: " + f.Severity + " " + f.ID + " " + f.Message + "\n"
				if c.Skipped.Message != f.Message || c.Skipped.Body != body || c.Stdout != body {
					t.Errorf("fail level %q: skipped %s: message %q, body %q, system-out %q; want %q and %q",
						tt.failLevel, f.ID, c.Skipped.Message, c.Skipped.Body, c.Stdout, f.Message, body)
				}
			default:
				t.Errorf("fail level %q: case %s is neither failed nor skipped\n%s", tt.failLevel, c.Name, out.String())
			}
		}
		if !slicesEqual(failed, tt.failed) {
			t.Errorf("fail level %q: failed cases %v, want %v", tt.failLevel, failed, tt.failed)
		}
	}
}

// TestJUnitWhyAndFix: a failure's and a skipped case's message attribute
// is the short message; the body holds the location and message, then
// the why and the fix (one paragraph each), the related locations and the
// docs link.
func TestJUnitWhyAndFix(t *testing.T) {
	r := &Report{Findings: []Finding{
		{ID: "KFK1001", Slug: "a", Severity: Error, Message: "rf=1", File: "s.properties", Line: 3, Column: 1,
			Why: "One replica,\n  so one broker down\nstops it.", Fix: "Set it to 3.", Related: []Location{{File: "t.properties", Line: 4}}, DocsURL: "https://d"},
		{ID: "KFK9003", Slug: "c", Severity: Info, Message: "note", File: "s.properties", Line: 7, Why: "w", Fix: "f"},
	}}
	r.Finish()
	var out bytes.Buffer
	if err := WriteJUnit(&out, r, ""); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Suites []struct {
			Cases []struct {
				Failure *junitProblem `xml:"failure"`
				Skipped *junitProblem `xml:"skipped"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	cases := got.Suites[0].Cases
	f, s := cases[0].Failure, cases[1].Skipped
	if f == nil || s == nil {
		t.Fatalf("want a failure and a skipped case:\n%s", out.String())
	}
	want := "s.properties:3:1: error KFK1001 rf=1\nwhy: One replica, so one broker down stops it.\nfix: Set it to 3.\nrelated: t.properties:4\ndocs: https://d\n"
	if f.Message != "rf=1" || f.Body != want {
		t.Errorf("failure message %q, body\n%q\nwant %q, body\n%q", f.Message, f.Body, "rf=1", want)
	}
	if want := "s.properties:7:1: info KFK9003 note\nwhy: w\nfix: f\n"; s.Message != "note" || s.Body != want {
		t.Errorf("skipped message %q, body %q; want %q, %q", s.Message, s.Body, "note", want)
	}
}
