package report

import (
	"bytes"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

func TestOneLine(t *testing.T) {
	for in, want := range map[string]string{
		"plain value=1, ünïcødé 💥 \\n": "plain value=1, ünïcødé 💥 \\n",
		"a\nb\r\nc\td":                 `a\nb\r\nc\td`,
		"\x1b]0;pwned\x07\x1b[2J":      `\x1b]0;pwned\x07\x1b[2J`,
		"\u009b31m \x7f":               `\u009b31m \x7f`,
		"abc\u202edef\u2028":           `abc\u202edef\u2028`,
		"bad \xff\xfe utf8":            `bad \xff\xfe utf8`,
	} {
		if got := OneLine(in); got != want {
			t.Errorf("OneLine(%q) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string]string{
		"::error x.properties": "./::error x.properties",
		" ::x":                 "./ ::x",
		"\u00a0::x":            "./\u00a0::x",
		"\n::x":                `\n::x`,
		"a/::b":                "a/::b",
		"":                     "",
	} {
		if got := LinePath(in); got != want {
			t.Errorf("LinePath(%q) = %q, want %q", in, got, want)
		}
	}
}

// hostileReport carries workflow commands and terminal escapes in every
// piece of input text a report prints: values in messages, file names,
// related files, load errors and their files.
func hostileReport() *Report {
	payload := "x\n::set-output name=ok::1\n::add-mask::hunter2\r::error file=evil.txt::pwned\n  ::warning::w\u2028::notice::n \x1b]0;title\x07\x1b[2J\u202e"
	r := &Report{
		Findings: []Finding{
			{ID: "KFK1001", Slug: "s", Severity: Error, File: "::error file=evil.txt::f.properties", Line: 1, Message: "value=" + payload,
				Why: "why " + payload, Fix: "fix " + strings.Repeat("::error::x ", 8) + payload,
				Related: []Location{{File: "rel\n::error::r", Line: 2}}, RelatedOmitted: 3, DocsURL: "https://d"},
			{ID: "KFK1002", Slug: "s", Severity: Warning, File: "\u00a0::warning::g.properties", Line: 2, Message: payload,
				Why: payload, Fix: "::error::" + strings.Repeat(":", 90)},
			{ID: "KFK1003", Slug: "s", Severity: Info, File: "dir\n::error::h.properties", Line: 3, Message: payload},
		},
		Errors: []LoadError{
			{File: "  ::error::broken.properties", Line: 4, Message: "invalid: " + payload},
			{File: "b\r::error::x", Message: payload},
		},
	}
	r.Finish()
	return r
}

// checkInert fails when out has a raw control character other than the
// line feeds ending its lines, or a line that GitHub Actions would run as
// a workflow command other than the commands (annotations) kafkalint
// itself wrote, counted by commands.
func checkInert(t *testing.T, name, out string, commands int) {
	t.Helper()
	for i, r := range out {
		if r == utf8.RuneError || r != '\n' && needsEscape(r) {
			t.Errorf("%s: raw %q at byte %d:\n%s", name, r, i, out)
			break
		}
	}
	n := 0
	for line := range strings.Lines(out) {
		// The runner trims leading white space, then looks for "::".
		if strings.HasPrefix(strings.TrimLeftFunc(line, unicode.IsSpace), "::") {
			n++
			if !strings.HasPrefix(line, "::error file=") && !strings.HasPrefix(line, "::warning file=") &&
				!strings.HasPrefix(line, "::notice file=") {
				t.Errorf("%s: input makes a workflow command: %q", name, line)
			}
		}
	}
	if n != commands {
		t.Errorf("%s: %d lines read as workflow commands, want the %d annotations:\n%s", name, n, commands, out)
	}
}

// TestInputCannotInjectCommands: values and file names holding newlines,
// workflow commands and terminal escapes print as one inert line in
// text, github (annotations, the text after them, the job summary) and
// audit text.
func TestInputCannotInjectCommands(t *testing.T) {
	r := hostileReport()
	var text, gh, summary, audit bytes.Buffer
	if err := writeText(&text, r, textOptions{}); err != nil {
		t.Fatal(err)
	}
	checkInert(t, "text", text.String(), 0)
	if err := writeGitHub(&gh, r, Options{StepSummary: &summary}); err != nil {
		t.Fatal(err)
	}
	checkInert(t, "github", gh.String(), len(r.Findings)+len(r.Errors))
	checkInert(t, "github summary", summary.String(), 0)
	if !strings.Contains(text.String(), `value=x\n::set-output name=ok::1\n::add-mask::hunter2\r::error file=evil.txt::pwned`) {
		t.Errorf("the value is not shown escaped:\n%s", text.String())
	}
	if !strings.HasPrefix(text.String(), "./::error file=evil.txt::f.properties:1:1: error KFK1001") {
		t.Errorf("the file name is not made safe at the start of its line:\n%s", text.String())
	}

	repo := NewAuditRepo("::error::repo\nx", r)
	a := newAudit([]AuditRepo{*repo, *FailedRepo(" ::warning::failed", "timed out\n::error::x")})
	if err := writeAuditText(&audit, a, 0); err != nil {
		t.Fatal(err)
	}
	checkInert(t, "audit text", audit.String(), 0)
}
