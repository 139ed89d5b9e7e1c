package cli

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kafkalint/kafkalint/policies"
)

var update = flag.Bool("update", false, "rewrite generated files (README rule table)")

const (
	tableStart = "<!-- rules:start (generated from the rules' METADATA by `go test ./cmd/kafkalint/cli -run TestReadmeRuleTable -update`) -->\n"
	tableEnd   = "<!-- rules:end -->"
)

// TestReadmeRuleTable keeps README's rule table equal to the rules' METADATA.
func TestReadmeRuleTable(t *testing.T) {
	engine, err := policies.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString("| id | slug | severity | scope | title |\n|---|---|---|---|---|\n")
	for _, r := range engine.Rules() {
		fmt.Fprintf(&b, "| [%s](docs/rules/%s.md) | %s | %s | %s | %s |\n", r.ID, r.ID, r.Slug, r.Severity, r.Scope, r.Title)
	}
	path := filepath.Join(repoRoot(t), "README.md")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	i, j := strings.Index(text, tableStart), strings.Index(text, tableEnd)
	if i < 0 || j < i {
		t.Fatalf("README.md lacks the %q ... %q markers", tableStart, tableEnd)
	}
	got := text[i+len(tableStart) : j]
	if got == b.String() {
		return
	}
	if *update {
		if err := os.WriteFile(path, []byte(text[:i+len(tableStart)]+b.String()+text[j:]), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("README rule table is stale; run go test ./cmd/kafkalint/cli -run TestReadmeRuleTable -update\nwant:\n%s\ngot:\n%s", b.String(), got)
}
