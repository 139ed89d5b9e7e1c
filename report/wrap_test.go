package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestWrap(t *testing.T) {
	tests := []struct {
		name, first, text string
		width             int
		want              []string
	}{
		{"fits", "    fix: ", "Set it to 3.", 80, []string{"    fix: Set it to 3."}},
		{"between words, hanging indent", "    fix: ", "Set offsets.topic.replication.factor to 3, at most the number of brokers.", 41,
			[]string{"    fix: Set", "         offsets.topic.replication.factor", "         to 3, at most the number of", "         brokers."}},
		{"exactly the width", "ab ", "cde fgh", 10, []string{"ab cde fgh"}},
		{"a path longer than the line is cut after a slash", "    related: ", "very/long/directory/name/with/many/segments/server.properties:3", 40,
			[]string{"    related: very/long/directory/name/", "             with/many/segments/", "             server.properties:3"}},
		{"no slash: cut at the width", "> ", strings.Repeat("x", 50), 22, []string{"> " + strings.Repeat("x", 20), "  " + strings.Repeat("x", 20), "  " + strings.Repeat("x", 10)}},
		{"a word starting with a colon stays with the word before it", "    why: ", "aaaa bbbb cccc ::error::x dd", 28,
			[]string{"    why: aaaa bbbb", "         cccc ::error::x dd"}},
		{"a long word is not cut before a colon", "> ", strings.Repeat("y", 20) + "::error::z", 22,
			[]string{"> " + strings.Repeat("y", 19), "  y::error::z"}},
		{"too narrow: at least 20 characters a line", "    fix: ", "one two three four five six", 10,
			[]string{"    fix: one two three four", "         five six"}},
		{"empty", "    fix: ", "", 80, []string{"    fix: "}},
		{"width 0 is 80", "", strings.Repeat("w ", 50), 0, []string{strings.TrimSpace(strings.Repeat("w ", 40)), strings.TrimSpace(strings.Repeat("w ", 10))}},
		{"multibyte counts as one column", "", "ééééé ééééé ééééé ééééé ééééé", 23, []string{"ééééé ééééé ééééé ééééé", "ééééé"}},
	}
	for _, tt := range tests {
		got := wrap(tt.first, tt.text, tt.width)
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.name, diff)
		}
		if tt.width >= runes(tt.first)+minWrap {
			for _, l := range got {
				if runes(l) > tt.width {
					t.Errorf("%s: line %q is longer than %d", tt.name, l, tt.width)
				}
			}
		}
	}
}

func TestProse(t *testing.T) {
	in := "The topic is created\n  with one replica;\tso\r\nit fails \x1b[2J\u2028::x"
	if got, want := prose(in), `The topic is created with one replica; so it fails \x1b[2J\u2028::x`; got != want {
		t.Errorf("prose = %q, want %q", got, want)
	}
}

// textReport is one finding with a long why and fix and a long related
// path, to see what the text format prints below it.
func textReport() *Report {
	r := &Report{Findings: []Finding{{
		ID: "KFK1001", Slug: "offsets-topic-replication-factor-one", Severity: Error, File: "prod/server.properties", Line: 6, Column: 1,
		Message: "offsets.topic.replication.factor=1: __consumer_offsets gets a single replica",
		Why:     "The __consumer_offsets topic is created with one replica, so losing the\nbroker that holds a partition of it stops every consumer group mapped to\nthat partition from committing or fetching offsets.",
		Fix:     "Set offsets.topic.replication.factor to 3 (at most the number of brokers).",
		Related: []Location{{File: "prod/a/very/long/directory/of/configuration/that/goes/on/and/on/server.properties", Line: 2}},
	}}}
	r.Finish()
	return r
}

// TestTextWhyAndFix: verbose shows why and fix under each finding; without
// it, a terminal at least 100 wide shows the fix only; anything else (a CI
// log, a pipe, a narrow terminal) neither. The finding's own line is never
// wrapped, and every line below it fits the width.
func TestTextWhyAndFix(t *testing.T) {
	const head = "prod/server.properties:6:1: error KFK1001 offsets.topic.replication.factor=1: __consumer_offsets gets a single replica (offsets-topic-replication-factor-one)\n"
	for _, tt := range []struct {
		name     string
		opts     Options
		why, fix bool
	}{
		{"pipe", Options{}, false, false},
		{"pipe, COLUMNS=200", Options{Width: 200}, false, false},
		{"narrow terminal", Options{Terminal: true, Width: 99}, false, false},
		{"wide terminal", Options{Terminal: true, Width: 100}, false, true},
		{"verbose pipe", Options{Verbose: true}, true, true},
		{"verbose narrow terminal", Options{Verbose: true, Terminal: true, Width: 60}, true, true},
	} {
		var out bytes.Buffer
		if err := Write(&out, FormatText, textReport(), tt.opts); err != nil {
			t.Fatal(err)
		}
		text := out.String()
		if !strings.HasPrefix(text, head) {
			t.Errorf("%s: the finding line is not whole on the first line:\n%s", tt.name, text)
		}
		if got := strings.Contains(text, "    why: The __consumer_offsets"); got != tt.why {
			t.Errorf("%s: why shown = %v, want %v:\n%s", tt.name, got, tt.why, text)
		}
		if got := strings.Contains(text, "    fix: Set offsets.topic"); got != tt.fix {
			t.Errorf("%s: fix shown = %v, want %v:\n%s", tt.name, got, tt.fix, text)
		}
		width := lineWidth(tt.opts.Width)
		for _, l := range strings.Split(strings.TrimSuffix(strings.TrimPrefix(text, head), "\n"), "\n") {
			if strings.HasPrefix(l, "    ") && runes(l) > width {
				t.Errorf("%s: %q is wider than %d", tt.name, l, width)
			}
		}
	}
	var out bytes.Buffer
	if err := Write(&out, FormatText, textReport(), Options{Verbose: true}); err != nil {
		t.Fatal(err)
	}
	want := head +
		"    why: The __consumer_offsets topic is created with one replica, so losing the\n" +
		"         broker that holds a partition of it stops every consumer group mapped\n" +
		"         to that partition from committing or fetching offsets.\n" +
		"    fix: Set offsets.topic.replication.factor to 3 (at most the number of\n" +
		"         brokers).\n" +
		"    related: prod/a/very/long/directory/of/configuration/that/goes/on/and/on/\n" +
		"             server.properties:2\n" +
		"0 files, 0 clusters: 1 error, 0 warnings, 0 info\n"
	if diff := cmp.Diff(want, out.String()); diff != "" {
		t.Errorf("verbose text at 80 columns (-want +got):\n%s", diff)
	}
}

// TestTextWrappedInputCannotInjectCommands: wrapping why, fix and related
// lines at every width never starts a line with input text that GitHub
// would run.
func TestTextWrappedInputCannotInjectCommands(t *testing.T) {
	r := hostileReport()
	for _, width := range []int{1, 20, 30, 41, 57, 80, 200} {
		var out bytes.Buffer
		if err := writeText(&out, r, textOptions{Width: width, Why: true, Fix: true}); err != nil {
			t.Fatal(err)
		}
		checkInert(t, "verbose text", out.String(), 0)
		if !strings.Contains(out.String(), "    why: ") || !strings.Contains(out.String(), "    fix: ") {
			t.Fatalf("no why or fix printed:\n%s", out.String())
		}
	}
}
