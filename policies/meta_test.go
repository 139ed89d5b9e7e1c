package policies

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/kafkalint/kafkalint/docs"
)

var (
	idRE       = regexp.MustCompile(`^KFK[1-79]\d{3}$`)
	slugRE     = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)
	settingRE  = regexp.MustCompile(`settings\["([^"]+)"\]`)
	categoryOf = map[byte]string{
		'1': "durability", '2': "security", '3': "kraft", '4': "operations", '5': "topics",
		'6': "consistency", '7': "mirrormaker", '9': "hygiene",
	}
)

// TestRuleMetadata checks every rule's METADATA, docs page and tests.
func TestRuleMetadata(t *testing.T) {
	engine, err := Builtin()
	if err != nil {
		t.Fatal(err)
	}
	if len(engine.Rules()) == 0 {
		t.Fatal("no rules loaded")
	}
	all, err := BundleModules(true)
	if err != nil {
		t.Fatal(err)
	}
	source := map[string]string{}
	for _, m := range all {
		source[m.Path] = m.Text
	}
	goTests := goTestNames(t)
	for _, r := range engine.Rules() {
		t.Run(r.ID, func(t *testing.T) {
			if !idRE.MatchString(r.ID) {
				t.Errorf("id %q is not KFK + 4 digits with a known category", r.ID)
			}
			if !slugRE.MatchString(r.Slug) {
				t.Errorf("slug %q is not kebab-case", r.Slug)
			}
			if want := categoryOf[r.ID[3]]; r.Category != want {
				t.Errorf("category directory %q, want %q for %s", r.Category, want, r.ID)
			}
			page, err := docs.Rule(r.ID)
			if err != nil {
				t.Fatalf("docs/rules/%s.md: %v", r.ID, err)
			}
			if first, _, _ := strings.Cut(page, "\n"); first != fmt.Sprintf("# %s %s", r.ID, r.Slug) {
				t.Errorf("docs page starts %q, want %q", first, "# "+r.ID+" "+r.Slug)
			}
			for _, section := range []string{"## Why", "## How to fix", "## Kafka reference"} {
				if !strings.Contains(page, section) {
					t.Errorf("docs page lacks %q", section)
				}
			}
			if !strings.Contains(page, "| "+r.Severity+" | "+r.Scope+" |") {
				t.Errorf("docs page does not state severity %s and scope %s", r.Severity, r.Scope)
			}
			dir := "policies/kafkalint/rules/" + r.Category + "/" + r.Slug + "/"
			file := dir + strings.ReplaceAll(r.Slug, "-", "_")
			if r.Engine == EngineGo {
				checkGoRule(t, r, source[file+".rego"], goTests)
				return
			}
			rule, test := source[file+".rego"], source[file+"_test.rego"]
			if rule == "" || test == "" {
				t.Fatalf("want %s.rego and %s_test.rego", file, file)
			}
			for _, kind := range []string{"test_fail_", "test_success_"} {
				if !strings.Contains(test, "\n"+kind) {
					t.Errorf("%s_test.rego has no %s* test", file, kind)
				}
			}
			// The loader adds Kafka's default only for keys a rule declares.
			for _, m := range settingRE.FindAllStringSubmatch(rule, -1) {
				if !slices.Contains(r.Keys, m[1]) {
					t.Errorf("rule reads settings[%q] but custom.keys does not list it", m[1])
				}
			}
		})
	}
}

// goTestFuncRE matches a Go test function's name.
var goTestFuncRE = regexp.MustCompile(`(?m)^func (Test\w+)\(t \*testing\.T\)`)

// goTestNames lists the test functions of every _test.go file in the
// repository.
func goTestNames(t *testing.T) []string {
	t.Helper()
	var names []string
	err := filepath.WalkDir("..", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for _, m := range goTestFuncRE.FindAllStringSubmatch(string(b), -1) {
			names = append(names, m[1])
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return names
}

// checkGoRule checks a rule computed in Go (custom.engine: go): its package
// holds METADATA only, and Go tests named Test<ID>Fail* and
// Test<ID>Success* stand in for the Rego fail/success tests.
func checkGoRule(t *testing.T, r *Rule, rego string, goTests []string) {
	t.Helper()
	if rego == "" {
		t.Fatalf("rule %s: want its METADATA package in policies/kafkalint/rules/%s/%s/", r.ID, r.Category, r.Slug)
	}
	if strings.Contains(rego, "\nreport ") {
		t.Errorf("rule %s is computed in Go (custom.engine: go) but its package defines report", r.ID)
	}
	for _, kind := range []string{"Fail", "Success"} {
		if !slices.ContainsFunc(goTests, func(name string) bool { return strings.HasPrefix(name, "Test"+r.ID+kind) }) {
			t.Errorf("rule %s is computed in Go: want a Go test func Test%s%s...", r.ID, r.ID, kind)
		}
	}
}
