package cli

import (
	"io"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/kafkalint/kafkalint/lint"
	"github.com/kafkalint/kafkalint/policies"
)

// explainPolicy is a custom rule whose finding brings a why and a fix long
// enough to wrap at 80 columns.
const explainPolicy = `# METADATA
# title: num.io.threads is 1
# description: One I/O thread.
# schemas:
#   - input: schema.cluster
# custom:
#   id: ACME900
#   severity: warning
#   scope: all
package custom.t["io-threads-one"]

import data.kafkalint.lib.result

report contains result.explain(
	result.fail(s, "num.io.threads=1"),
	"A broker with one I/O thread serves every produce and fetch request of its partitions one at a time, so one slow disk stalls them all.",
	"Set num.io.threads to at least the number of disks in log.dirs, 8 by default.",
) if {
	some node in input.nodes
	s := node.settings["num.io.threads"]
	s.value == 1
}
`

// TestLintVerbose: -v prints each finding's why and fix below it, wrapped
// to COLUMNS (80 when not set, as in CI logs); without it, output that is
// not a terminal has neither, and a terminal at least 100 wide gets the
// fix.
func TestLintVerbose(t *testing.T) {
	t.Chdir(t.TempDir())
	isolate(t)
	writeFile(t, "policy/io.rego", explainPolicy)
	writeFile(t, "prod/server.properties", cleanBroker+"num.io.threads=1\n")
	t.Setenv("COLUMNS", "")
	const head = "prod/server.properties:6:1: warning ACME900 num.io.threads=1 (io-threads-one)\n"
	lint := func(args ...string) string {
		t.Helper()
		code, out, stderr := run(t, append([]string{"lint", "--no-color", "--policy", "policy"}, args...)...)
		if code != ExitOK {
			t.Fatalf("exit %d, stderr:\n%s", code, stderr)
		}
		return out
	}
	want := head +
		"    why: A broker with one I/O thread serves every produce and fetch request of\n" +
		"         its partitions one at a time, so one slow disk stalls them all.\n" +
		"    fix: Set num.io.threads to at least the number of disks in log.dirs, 8 by\n" +
		"         default.\n"
	for _, flag := range []string{"-v", "--verbose"} {
		if out := lint(flag, "prod"); !strings.HasPrefix(out, want) {
			t.Errorf("lint %s:\n%s\nwant it to start with\n%s", flag, out, want)
		}
	}
	if out := lint("prod"); !strings.HasPrefix(out, head) || strings.Contains(out, "why:") || strings.Contains(out, "fix:") {
		t.Errorf("lint without -v, not a terminal, shows why or fix:\n%s", out)
	}
	t.Setenv("COLUMNS", "120")
	out := lint("-v", "prod")
	if !strings.Contains(out, "    why: A broker with one I/O thread serves every produce and fetch request of its partitions one at a time, so one\n") {
		t.Errorf("lint -v with COLUMNS=120 is not wrapped to 120:\n%s", out)
	}
	if out := lint("prod"); strings.Contains(out, "fix:") {
		t.Errorf("COLUMNS=120 without a terminal shows the fix:\n%s", out)
	}

	// A terminal: its width wins over COLUMNS, and from 100 columns the
	// fix is shown without -v.
	defer func(f func(io.Writer) int) { terminalSize = f }(terminalSize)
	for _, tc := range []struct {
		width int
		fix   bool
	}{{99, false}, {100, true}, {200, true}} {
		terminalSize = func(io.Writer) int { return tc.width }
		out := lint("prod")
		if got := strings.Contains(out, "    fix: Set num.io.threads"); got != tc.fix || strings.Contains(out, "why:") {
			t.Errorf("terminal %d wide: fix shown %v, want %v, and no why:\n%s", tc.width, got, tc.fix, out)
		}
	}
}

func TestOutputWidth(t *testing.T) {
	defer func(f func(io.Writer) int) { terminalSize = f }(terminalSize)
	for _, tc := range []struct {
		term    int
		columns string
		width   int
		isTerm  bool
	}{
		{0, "", 80, false},
		{0, "132", 132, false},
		{0, "junk", 80, false},
		{0, "-5", 80, false},
		{150, "90", 150, true},
	} {
		terminalSize = func(io.Writer) int { return tc.term }
		t.Setenv("COLUMNS", tc.columns)
		if w, term := outputWidth(io.Discard); w != tc.width || term != tc.isTerm {
			t.Errorf("terminal %d, COLUMNS=%q: width %d, terminal %v; want %d, %v", tc.term, tc.columns, w, term, tc.width, tc.isTerm)
		}
	}
}

// TestMain clears COLUMNS, which would change the width of the text
// outputs the tests compare (the tests that need it set it themselves).
// The test binary exits with m.Run's status when TestMain returns.
func TestMain(m *testing.M) {
	_ = os.Unsetenv("COLUMNS")
	m.Run()
}

// TestRulesFitWidth: `kafkalint rules` fits 80 columns when stdout is not
// a terminal (the slug cut with "…", the title wrapped, the id, severity
// and scope whole) and is laid out in full at 200.
func TestRulesFitWidth(t *testing.T) {
	engine, err := policies.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	for _, width := range []int{80, 200} {
		t.Setenv("COLUMNS", strconv.Itoa(width))
		code, out, stderr := run(t, "rules")
		if code != ExitOK {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		cut := false
		for l := range strings.Lines(out) {
			if n := utf8.RuneCountInString(strings.TrimSuffix(l, "\n")); n > width {
				t.Errorf("COLUMNS=%d: a line of %d: %q", width, n, l)
			}
			cut = cut || strings.Contains(l, "…")
		}
		if cut != (width == 80) {
			t.Errorf("COLUMNS=%d: slugs cut = %v", width, cut)
		}
		for _, r := range engine.Rules() {
			row := regexp.MustCompile(`(?m)^` + r.ID + `  \S+ +` + r.Severity + ` +` + r.Scope + `  `)
			if !row.MatchString(out) {
				t.Errorf("COLUMNS=%d: no whole row start for %s %s %s:\n%s", width, r.ID, r.Severity, r.Scope, out)
				break
			}
			if width == 200 && (!strings.Contains(out, "\n"+r.ID+"  "+r.Slug+" ") || !strings.Contains(out, "  "+r.Title+"\n")) {
				t.Errorf("COLUMNS=200: %s %s %q not in full", r.ID, r.Slug, r.Title)
			}
		}
	}
}

// TestRulesCarryFixes: the rules SARIF lists carry their fix from the
// engine (lint.Rules), so SARIF's rule help is the fix.
func TestRulesCarryFixes(t *testing.T) {
	engine, err := policies.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range lint.Rules(engine, nil) {
		if want := engine.Rule(r.ID).Fix; r.Fix != want || want == "" {
			t.Errorf("%s: fix %q, want the engine's %q (non-empty)", r.ID, r.Fix, want)
		}
	}
}
