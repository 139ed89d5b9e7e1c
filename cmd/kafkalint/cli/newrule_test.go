package cli

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/format"
	"github.com/open-policy-agent/opa/v1/storage/inmem"
	"github.com/open-policy-agent/opa/v1/tester"

	"github.com/kafkalint/kafkalint/policies"
)

// copyRules copies the checkout's Rego tree (policies/kafkalint) under
// root, so a scaffold can be written beside the real rules without
// touching them.
func copyRules(t *testing.T, root string) {
	t.Helper()
	src := filepath.Join(repoRoot(t), "policies", "kafkalint")
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		dst := filepath.Join(root, "policies", "kafkalint", rel)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		return os.WriteFile(dst, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// nextOperationsID is the id new-rule --builtin must choose for the
// operations category: one above the highest built-in KFK4xxx.
func nextOperationsID(t *testing.T) string {
	t.Helper()
	engine, err := policies.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	highest := 4000
	for _, r := range engine.Rules() {
		var n int
		if _, err := fmt.Sscanf(r.ID, "KFK%d", &n); err == nil && r.Category == "operations" && n > highest {
			highest = n
		}
	}
	return fmt.Sprintf("KFK%d", highest+1)
}

// runRegoTests compiles every module under root/policies/kafkalint as the
// built-in bundle is compiled (policies.TestRego: strict, the cluster
// schema, the built-in parameters) and returns the results of the tests
// whose package path starts with pkg.
func runRegoTests(t *testing.T, root, pkg string) []*tester.Result {
	t.Helper()
	var mods []policies.Module
	err := filepath.WalkDir(filepath.Join(root, "policies"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".rego") {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, p)
		mods = append(mods, policies.Module{Path: filepath.ToSlash(rel), Text: string(b)})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	parsed, err := policies.ParseModules(mods)
	if err != nil {
		t.Fatal(err)
	}
	c, err := policies.NewCompiler()
	if err != nil {
		t.Fatal(err)
	}
	params, err := policies.DefaultParams()
	if err != nil {
		t.Fatal(err)
	}
	store := inmem.NewFromObject(map[string]any{"kafkalint": map[string]any{"params": params}})
	ch, err := tester.NewRunner().SetCompiler(c).SetStore(store).SetModules(parsed).RunTests(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var results []*tester.Result
	for r := range ch {
		if strings.HasPrefix(r.Package, pkg) {
			results = append(results, r)
		}
	}
	return results
}

// TestNewBuiltinRule scaffolds a built-in rule into a copy of the rules and
// requires what docs/development.md promises: the category's next free id,
// the four files, Rego that opa fmt leaves alone, and tests that pass under
// OPA with the whole rule set compiled around them.
func TestNewBuiltinRule(t *testing.T) {
	root := t.TempDir()
	copyRules(t, root)
	id := nextOperationsID(t)
	code, out, stderr := run(t, "new-rule", "--builtin", "--category", "operations", "--slug", "log-retention-too-long", "--severity", "info", root)
	if code != ExitOK {
		t.Fatalf("new-rule --builtin: exit %d\n%s%s", code, out, stderr)
	}
	ruleDir := filepath.Join(root, "policies", "kafkalint", "rules", "operations", "log-retention-too-long")
	files := map[string]string{
		filepath.Join(ruleDir, "log_retention_too_long.rego"):                                                      "#   id: " + id + "\n#   severity: info\n#   scope: production\n",
		filepath.Join(ruleDir, "log_retention_too_long_test.rego"):                                                 "\ntest_fail_",
		filepath.Join(root, "docs", "rules", id+".md"):                                                             "# " + id + " log-retention-too-long\n\n**Summary:** ",
		filepath.Join(root, "examples", "properties", "production", "log-retention-too-long", "server.properties"): "# want: " + id + "\nlog.retention.hours=9000\n",
	}
	for p, want := range files {
		if !strings.Contains(out, "created "+filepath.ToSlash(p)+"\n") {
			t.Errorf("output lacks created %s:\n%s", p, out)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), want) {
			t.Errorf("%s lacks %q:\n%s", p, want, b)
		}
		if strings.HasSuffix(p, ".rego") {
			formatted, err := format.SourceWithOpts(p, b, format.Opts{RegoVersion: ast.RegoV1})
			if err != nil || !bytes.Equal(formatted, b) {
				t.Errorf("%s is not opa fmt clean (%v):\n%s", p, err, formatted)
			}
		}
	}
	doc, _ := os.ReadFile(filepath.Join(root, "docs", "rules", id+".md"))
	if row := "| info | production | operations | broker | unreleased |\n"; !strings.Contains(string(doc), row) {
		t.Errorf("docs page lacks the METADATA row %q:\n%s", row, doc)
	}

	results := runRegoTests(t, root, `data.kafkalint.rules.operations["log-retention-too-long_test"]`)
	kinds := map[string]bool{}
	for _, r := range results {
		if r.Fail || r.Error != nil || r.Skip {
			t.Errorf("%s: %s: fail=%v error=%v", r.Location, r.Name, r.Fail, r.Error)
		}
		kinds[r.Name] = true
	}
	for _, name := range []string{"test_fail_above_a_year", "test_success_a_week", "test_success_key_absent", "test_success_unknown_placeholder"} {
		if !kinds[name] {
			t.Errorf("the scaffold's tests lack %s (ran %v)", name, kinds)
		}
	}

	// Refusals write nothing and never overwrite.
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--category", "operations", "--slug", "log-retention-too-long"}, "exists"},
		{[]string{"--category", "durability", "--slug", "log-retention-too-long"}, "a rule named log-retention-too-long exists"},
		{[]string{"--category", "operations", "--slug", "x", "--id", "KFK4999"}, "drop --id"},
		{[]string{"--category", "custom", "--slug", "x"}, "is not one of"},
		{[]string{"--category", "operations", "--slug", "Not_Kebab"}, "kebab-case"},
	} {
		code, _, stderr := run(t, append(append([]string{"new-rule", "--builtin"}, tc.args...), root)...)
		if code != ExitError || !strings.Contains(stderr, tc.want) {
			t.Errorf("new-rule --builtin %v: exit %d, stderr %q, want %q", tc.args, code, stderr, tc.want)
		}
	}
	if code, _, stderr := run(t, "new-rule", "--builtin", "--category", "operations", "--slug", "x", t.TempDir()); code != ExitError ||
		!strings.Contains(stderr, "is not a kafkalint checkout") {
		t.Errorf("outside a checkout: exit %d, %s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(root, "policies", "kafkalint", "rules", "operations", "x")); err == nil {
		t.Error("a refused new-rule --builtin created files")
	}
}
