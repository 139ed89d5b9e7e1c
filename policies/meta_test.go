package policies

import (
	"fmt"
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
