package report

import (
	"fmt"
	"strings"
	"testing"
)

// TestGitHubSummaryCapKeepsErrors: when the job summary caps its table, the
// rows kept are the errors, even when infos come first in file order.
func TestGitHubSummaryCapKeepsErrors(t *testing.T) {
	r := &Report{}
	for i := range summaryRows + 5 {
		r.Findings = append(r.Findings, Finding{ID: "KFK9999", Severity: Info, File: fmt.Sprintf("a/%03d.properties", i), Line: 1, Message: "info"})
	}
	r.Findings = append(r.Findings,
		Finding{ID: "KFK1001", Severity: Error, File: "z/server.properties", Line: 3, Message: "the error"},
		Finding{ID: "KFK4003", Severity: Warning, File: "y/server.properties", Line: 2, Message: "the warning"})
	r.Finish()
	var b strings.Builder
	if err := writeGitHubSummary(&b, r); err != nil {
		t.Fatal(err)
	}
	rows := strings.Split(b.String(), "\n")
	first := func(s string) int {
		for i, row := range rows {
			if strings.Contains(row, s) {
				return i
			}
		}
		return -1
	}
	e, w, i := first("the error"), first("the warning"), first("| info |")
	if e < 0 || w < 0 || e > w || w > i {
		t.Errorf("capped summary: error at row %d, warning at %d, first info at %d; want error, then warning, then infos:\n%s", e, w, i, b.String())
	}
	if !strings.Contains(b.String(), "… and 7 more findings") {
		t.Errorf("capped summary does not say how many rows were left out:\n%s", b.String())
	}
}

// TestGitHubSummaryUnknownEnvironment: the job summary says once, as the
// text summary does, how many files were judged as production because
// their environment is unknown.
func TestGitHubSummaryUnknownEnvironment(t *testing.T) {
	for _, tc := range []struct {
		files int
		want  string
	}{
		{3, "environment unknown for 3 files, treated as production; declare it in .kafkalint.yaml"},
		{1, "environment unknown for 1 file, treated as production"},
	} {
		r := &Report{Summary: Summary{Files: 4, UnknownEnvironment: tc.files}}
		r.Finish()
		var b strings.Builder
		if err := writeGitHubSummary(&b, r); err != nil {
			t.Fatal(err)
		}
		if got := strings.Count(b.String(), "environment unknown"); got != 1 || !strings.Contains(b.String(), tc.want) {
			t.Errorf("summary with %d unknown-environment files:\n%s\nwant %q once", tc.files, b.String(), tc.want)
		}
	}
	r := &Report{Summary: Summary{Files: 4}}
	r.Finish()
	var b strings.Builder
	if err := writeGitHubSummary(&b, r); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "environment unknown") {
		t.Errorf("summary mentions unknown environments when there are none:\n%s", b.String())
	}
}

// TestGitHubFix: an annotation is the short message with the fix on the
// next line (escaped as the message is: one workflow command); the job
// summary has a Fix column when a finding has a fix, none otherwise.
func TestGitHubFix(t *testing.T) {
	r := &Report{Findings: []Finding{
		{ID: "KFK1001", Slug: "rf-one", Severity: Error, File: "a.properties", Line: 2, Message: "rf=1", Fix: "Set it\nto 3 | 5, 100%."},
		{ID: "KFK9001", Slug: "dup", Severity: Warning, File: "a.properties", Line: 3, Message: "dup"},
	}}
	r.Finish()
	var out, summary strings.Builder
	if err := writeGitHub(&out, r, Options{StepSummary: &summary}); err != nil {
		t.Fatal(err)
	}
	first, _, _ := strings.Cut(out.String(), "\n")
	if want := "::error file=a.properties,line=2,col=1,title=KFK1001 rf-one::rf=1%0Afix: Set it to 3 | 5, 100%25."; first != want {
		t.Errorf("annotation\n got %q\nwant %q", first, want)
	}
	for _, want := range []string{"| Severity | Rule | Location | Message | Fix |\n|---|---|---|---|---|\n", "| `a.properties:2` | rf=1 | Set it to 3 \\| 5, 100%. |\n", "| `a.properties:3` | dup |  |\n"} {
		if !strings.Contains(summary.String(), want) {
			t.Errorf("summary has no %q:\n%s", want, summary.String())
		}
	}
	r.Findings[0].Fix = ""
	var plain strings.Builder
	if err := writeGitHubSummary(&plain, r); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(plain.String(), "Fix") || !strings.Contains(plain.String(), "| `a.properties:2` | rf=1 |\n") {
		t.Errorf("summary without fixes has a Fix column:\n%s", plain.String())
	}
}
