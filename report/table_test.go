package report

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var testColumns = []Column{{"ID", Keep}, {"SLUG", Cut}, {"SEVERITY", Keep}, {"TITLE", Wrap}}

var testRows = [][]string{
	{"KFK1001", "offsets-topic-replication-factor-one", "error", "offsets.topic.replication.factor is 1"},
	{"KFK9001", "duplicate-key", "warning", "Key set more than once in one file, so that only the last value counts"},
}

func table(t *testing.T, width int, cols []Column, rows [][]string) string {
	t.Helper()
	var b bytes.Buffer
	if err := WriteTable(&b, width, cols, rows); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestTableFits: at 200 columns the table is laid out as text/tabwriter
// did; at 80 the Cut column is cut with "…", the Wrap column wraps (a
// dotted key after a dot) and the Keep columns are whole.
func TestTableFits(t *testing.T) {
	wide := "" +
		"ID       SLUG                                  SEVERITY  TITLE\n" +
		"KFK1001  offsets-topic-replication-factor-one  error     offsets.topic.replication.factor is 1\n" +
		"KFK9001  duplicate-key                         warning   Key set more than once in one file, so that only the last value counts\n"
	if diff := cmp.Diff(wide, table(t, 200, testColumns, testRows)); diff != "" {
		t.Errorf("at 200 (-want +got):\n%s", diff)
	}
	narrow := "" +
		"ID       SLUG                           SEVERITY  TITLE\n" +
		"KFK1001  offsets-topic-replication-fa…  error     offsets.topic.replication.\n" +
		"                                                  factor is 1\n" +
		"KFK9001  duplicate-key                  warning   Key set more than once in one\n" +
		"                                                  file, so that only the last\n" +
		"                                                  value counts\n"
	got := table(t, 80, testColumns, testRows)
	if diff := cmp.Diff(narrow, got); diff != "" {
		t.Errorf("at 80 (-want +got):\n%s", diff)
	}
	if got != table(t, 0, testColumns, testRows) {
		t.Error("width 0 is not 80")
	}
}

// TestTableNarrow: however narrow, every line fits while the Keep columns
// and the flexible columns' minimum allow, headers wrap at their spaces,
// and nothing but the Cut column loses text.
func TestTableNarrow(t *testing.T) {
	cols := []Column{{"REPOSITORY", Wrap}, {"FILES", Keep}, {"LOAD ERRORS", Keep}, {"WORST RULE", Wrap}}
	rows := [][]string{{"repos/a/very/long/path/of/a/repository", "3", "0", "KFK1001 offsets-topic-replication-factor-one (1)"}}
	for _, width := range []int{40, 50, 60, 80, 120} {
		out := table(t, width, cols, rows)
		for l := range strings.Lines(out) {
			if n := runes(strings.TrimSuffix(l, "\n")); n > width {
				t.Errorf("width %d: %q is %d wide", width, l, n)
			}
		}
		// Nothing is lost: the same characters, only the spaces moved.
		if got, want := sortedChars(out), sortedChars("REPOSITORY FILES LOAD ERRORS WORST RULE "+strings.Join(rows[0], " ")); got != want {
			t.Errorf("width %d: the table lost or gained text:\n%s", width, out)
		}
	}
	if got, want := table(t, 40, cols, rows), ""+
		"REPOSITORY   FILES  LOAD    WORST RULE\n"+
		"                    ERRORS\n"+
		"repos/a/     3      0       KFK1001\n"+
		"very/long/                  offsets-\n"+
		"path/of/a/                  topic-\n"+
		"repository                  replication-\n"+
		"                            factor-one\n"+
		"                            (1)\n"; got != want {
		t.Errorf("at 40:\n%s\nwant\n%s", got, want)
	}
}

// sortedChars is the characters of s but its white space, sorted.
func sortedChars(s string) string {
	r := []rune(strings.Join(strings.Fields(s), ""))
	slices.Sort(r)
	return string(r)
}
