package lsp

import (
	"testing"

	"github.com/kafkalint/kafkalint/report"
)

var explained = report.Finding{
	ID: "KFK1001", Slug: "rf-one", Severity: report.Error, File: "a.properties", Line: 1, Column: 1,
	Message: "offsets.topic.replication.factor=1",
	Why:     "One replica,\n  so one broker down\nstops the groups.",
	Fix:     "Set it\nto 3.",
}

// TestDiagnosticFix: a diagnostic's message is the short message and the
// slug, then the fix as a second paragraph (no fix: no paragraph).
func TestDiagnosticFix(t *testing.T) {
	text := func(string) string { return "offsets.topic.replication.factor=1\n" }
	if got, want := diagnostic("/w", explained, text).Message, "offsets.topic.replication.factor=1 (rf-one)\n\nfix: Set it to 3."; got != want {
		t.Errorf("message = %q, want %q", got, want)
	}
	bare := explained
	bare.Fix = ""
	if got, want := diagnostic("/w", bare, text).Message, "offsets.topic.replication.factor=1 (rf-one)"; got != want {
		t.Errorf("message without a fix = %q, want %q", got, want)
	}
}

// TestHoverWhyAndFix: the hover on a finding shows its message, why and
// fix, then the rule's page, or its description when that is not the why.
func TestHoverWhyAndFix(t *testing.T) {
	head := "**KFK1001** rf-one (error)\n\noffsets.topic.replication.factor=1\n\n**Why:** One replica, so one broker down stops the groups.\n\n**Fix:** Set it to 3.\n"
	for _, tc := range []struct {
		rule report.Rule
		want string
	}{
		{report.Rule{Help: "# KFK1001 page\n"}, head + "\n# KFK1001 page\n"},
		{report.Rule{Description: "One replica,\nso one broker down stops the groups."}, head},
		{report.Rule{Description: "Another text."}, head + "\nAnother text."},
	} {
		if got := ruleDoc(explained, tc.rule); got != tc.want {
			t.Errorf("ruleDoc with %+v:\n got %q\nwant %q", tc.rule, got, tc.want)
		}
	}
}
