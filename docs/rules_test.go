package docs_test

import (
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kafkalint/kafkalint/policies"
)

var update = flag.Bool("update", false, "rewrite the generated header of every rule page")

// headerLines is how many lines of a rule page are generated: the heading,
// a blank line, the hand-written summary, a blank line and the three-line
// table. Only lines 1 and 5-7 come from METADATA; the summary is prose.
const headerLines = 7

// ruleHeader renders the generated lines of a rule's page from its METADATA
// (the summary, line 3, is kept from the page).
func ruleHeader(r *policies.Rule, summary string) string {
	return fmt.Sprintf("# %s %s\n\n%s\n\n| Severity | Scope | Category | Applies to | Since |\n|---|---|---|---|---|\n| %s | %s | %s | %s | %s |\n",
		r.ID, r.Slug, summary, r.Severity, r.Scope, r.Category, strings.Join(r.AppliesTo, ", "), r.Since)
}

// TestRulePageHeaders keeps each docs/rules page's heading and table equal
// to its rule's METADATA, the single source of id, slug and severity, so a
// METADATA change cannot leave `kafkalint explain` saying something else.
func TestRulePageHeaders(t *testing.T) {
	engine, err := policies.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range engine.Rules() {
		path := filepath.Join("rules", r.ID+".md")
		data, err := os.ReadFile(path)
		if err != nil {
			t.Errorf("%s: %v", r.ID, err)
			continue
		}
		lines := strings.SplitAfterN(string(data), "\n", headerLines+1)
		if len(lines) <= headerLines || !strings.HasPrefix(lines[2], "**Summary:** ") {
			t.Errorf("%s: want the heading, a blank line, a **Summary:** line, a blank line and the table", path)
			continue
		}
		got := strings.Join(lines[:headerLines], "")
		want := ruleHeader(r, strings.TrimSuffix(lines[2], "\n"))
		if got == want {
			continue
		}
		if *update {
			if err := os.WriteFile(path, []byte(want+lines[headerLines]), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		t.Errorf("%s header differs from METADATA; run go test ./docs -run TestRulePageHeaders -update\nwant:\n%s\ngot:\n%s", path, want, got)
	}
}

// TestDocsCiteKafkaNotWorkingNotes fails when a Markdown file of the
// repository cites the project's working notes on Kafka (a file users
// cannot read): rule pages, which SARIF embeds as help, cite Kafka's own
// source files, tests and docs instead.
func TestDocsCiteKafkaNotWorkingNotes(t *testing.T) {
	const notes = "kafka-config-facts"
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".md") {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(data), "\n") {
			if strings.Contains(line, notes) {
				t.Errorf("%s:%d cites %s; cite the Kafka source file, test or doc it stands for", path, i+1, notes)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
