package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"text/template"

	"github.com/spf13/cobra"

	"github.com/kafkalint/kafkalint/policies"
	"github.com/kafkalint/kafkalint/report"
)

type newRuleFlags struct {
	id, slug, severity, scope, title string
	// builtin scaffolds a built-in rule into a kafkalint checkout
	// (newrule_builtin.go) instead of a custom rule.
	builtin  bool
	category string
}

func newNewRule(s Streams) *cobra.Command {
	var f newRuleFlags
	cmd := &cobra.Command{
		Use:   "new-rule (--id ID | --builtin --category CATEGORY) --slug SLUG [flags] DIR",
		Short: "Scaffold a rule: its policy, its tests and its documentation page",
		Long: "Create DIR/SLUG/ with a custom rule (SLUG.rego, with SLUG in snake_case), its tests (_test.rego) and its\n" +
			"documentation page (ID.md) (docs/custom-policies.md). The scaffold compiles and its tests pass as written:\n" +
			"it reports brokers that keep data longer than a parameter; replace the check with yours, then run\n" +
			"`kafkalint test DIR` and `kafkalint lint --policy DIR PATH...`. Existing files are never overwritten.\n\n" +
			"With --builtin, DIR is a kafkalint checkout and the rule is a built-in one (docs/development.md): its\n" +
			"directory under policies/kafkalint/rules/CATEGORY/SLUG/, METADATA with the category's next free KFK id,\n" +
			"its tests, docs/rules/ID.md and an example under examples/ with its `# want:` marker.",
		Args: cobra.ExactArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			if f.builtin {
				return runNewBuiltinRule(s, f, args[0])
			}
			return runNewRule(s, f, args[0])
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.id, "id", "", "rule `ID`: uppercase letters then digits, any prefix but KFK (e.g. ACME001)")
	fl.StringVar(&f.slug, "slug", "", "rule `SLUG`, kebab-case (e.g. topic-retention-max)")
	fl.StringVar(&f.severity, "severity", report.Warning, "default severity: error, warning or info")
	fl.StringVar(&f.scope, "scope", policies.ScopeProduction, "scope: all, or production (silent in development and staging)")
	fl.StringVar(&f.title, "title", "", "one-line title (default: a TODO to replace)")
	fl.BoolVar(&f.builtin, "builtin", false, "scaffold a built-in rule into the kafkalint checkout DIR (its id is chosen)")
	fl.StringVar(&f.category, "category", "", "with --builtin: the rule's `CATEGORY` ("+strings.Join(sortedCategories(), ", ")+")")
	_ = cmd.MarkFlagRequired("slug")
	return cmd
}

// keywords cannot name a package path element.
var keywords = []string{"as", "contains", "default", "else", "every", "false", "if", "import", "in", "not", "null", "package", "some", "true", "with"}

var idNumberRE = regexp.MustCompile(`-?\d+$`)

func runNewRule(s Streams, f newRuleFlags, dir string) error {
	if f.id == "" {
		return usageError("new-rule needs --id (or --builtin --category for a built-in rule)")
	}
	if f.category != "" {
		return usageError("--category is for --builtin; a custom rule's category is custom")
	}
	if err := policies.CheckCustomRuleName(f.id, f.slug); err != nil {
		return usageError("%v", err)
	}
	if !slices.Contains(report.Severities, f.severity) {
		return usageError("--severity %q is not one of %s", f.severity, strings.Join(report.Severities, ", "))
	}
	if f.scope != policies.ScopeAll && f.scope != policies.ScopeProduction {
		return usageError("--scope %q is not all or production", f.scope)
	}
	prefix := strings.ToLower(idNumberRE.ReplaceAllString(f.id, ""))
	pkg := policies.CustomRoot + "." + prefix
	if slices.Contains(keywords, prefix) {
		pkg = fmt.Sprintf("%s[%q]", policies.CustomRoot, prefix)
	}
	v := struct {
		ID, Slug, Severity, Scope, Title, Package string
	}{f.id, f.slug, f.severity, f.scope, f.title, pkg}
	if v.Title == "" {
		v.Title = "TODO one line saying what is wrong"
	}
	base := strings.ReplaceAll(f.slug, "-", "_")
	ruleDir := filepath.Join(dir, f.slug)
	err := writeScaffold(s, v, []scaffoldFile{
		{filepath.Join(ruleDir, base+".rego"), newRuleTemplate},
		{filepath.Join(ruleDir, base+"_test.rego"), newRuleTestTemplate},
		{filepath.Join(ruleDir, f.id+".md"), newRuleDocTemplate},
	})
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(s.Out, "next: replace the TODOs and the example check, then run `kafkalint test %s` and `kafkalint lint --policy %s PATH...`\n",
		displayName(dir), displayName(dir))
	return err
}

// scaffoldFile is a file new-rule writes: its path and its template.
type scaffoldFile struct{ path, tmpl string }

// writeScaffold renders every file with v, after checking that none
// exists: new-rule never overwrites a file, and a refused scaffold writes
// nothing.
func writeScaffold(s Streams, v any, files []scaffoldFile) error {
	texts := make([]string, len(files))
	for i, file := range files {
		if _, err := os.Stat(file.path); err == nil {
			return usageError("%s exists; new-rule never overwrites a file", displayName(file.path))
		} else if !errors.Is(err, fs.ErrNotExist) {
			return usageError("%v", err)
		}
		var b strings.Builder
		if err := template.Must(template.New(file.path).Parse(file.tmpl)).Execute(&b, v); err != nil {
			return &exitError{code: ExitError, err: err}
		}
		texts[i] = b.String()
	}
	for i, file := range files {
		if err := os.MkdirAll(filepath.Dir(file.path), 0o755); err != nil {
			return usageError("%v", err)
		}
		if err := os.WriteFile(file.path, []byte(texts[i]), 0o644); err != nil {
			return usageError("%v", err)
		}
		fmt.Fprintf(s.Out, "created %s\n", displayName(file.path))
	}
	return nil
}

const newRuleTemplate = `# METADATA
# title: {{.Title}}
# description: |
#   TODO: what the rule finds, why it is dangerous, and when it does not
#   apply. As scaffolded, it reports brokers that keep log segments longer
#   than the parameter custom["{{.Slug}}"].max_retention_hours (168 unless a
#   --data file sets it): replace that check with yours.
# related_resources:
#   - description: TODO the rule's documentation (its docs_url in reports)
#     ref: https://example.com/kafka-rules/{{.ID}}
# schemas:
#   - input: schema.cluster
# custom:
#   id: {{.ID}}
#   severity: {{.Severity}}
#   scope: {{.Scope}}
#   applies_to: [broker]
#   keys: [log.retention.hours]
package {{.Package}}["{{.Slug}}"]

import data.kafkalint.lib.result

# _max_hours comes from a --data file (custom: {{"{"}}{{.Slug}}: {max_retention_hours: N}}), else 168.
_max_hours := object.get(data.kafkalint.params.custom, ["{{.Slug}}", "max_retention_hours"], 168)

# custom.keys lists log.retention.hours, so a broker that does not set it
# has Kafka's default (source "default"). A value kafkalint cannot know (a
# ${provider:...} placeholder) has no value: the rule stays silent.
report contains result.fail(s, message) if {
	some node in input.nodes
	node.is_broker
	s := node.settings["log.retention.hours"]
	is_number(s.value)
	s.value > _max_hours
	message := sprintf(
		"log.retention.hours=%d keeps data longer than %d hours: TODO say why that is dangerous and how to fix it",
		[s.value, _max_hours],
	)
}
`

const newRuleTestTemplate = `package {{.Package}}["{{.Slug}}_test"]

import data.{{.Package}}["{{.Slug}}"] as rule

# _broker builds the cluster model of a broker config with the loader itself.
_broker(lines) := kafkalint.parse("properties", "prod/server.properties", concat("\n", array.concat(
	["process.roles=broker", "node.id=1"],
	lines,
)))

test_fail_above_maximum if {
	findings := rule.report with input as _broker(["log.retention.hours=720"])
	{[f.key, f.location.line] | some f in findings} == {["log.retention.hours", 3]}
}

test_success_at_maximum if {
	count(rule.report) == 0 with input as _broker(["log.retention.hours=168"])
}

test_success_key_absent if {
	count(rule.report) == 0 with input as _broker([])
}

test_success_unknown_placeholder if {
	count(rule.report) == 0 with input as _broker(["log.retention.hours=${env:RETENTION_HOURS}"])
}

test_success_maximum_from_data if {
	count(rule.report) == 0 with input as _broker(["log.retention.hours=720"])
		with data.kafkalint.params.custom as {"{{.Slug}}": {"max_retention_hours": 720}}
}
`

const newRuleDocTemplate = `# {{.ID}} {{.Slug}}

| Severity | Scope | Category | Applies to |
|---|---|---|---|
| {{.Severity}} | {{.Scope}} | custom | broker |

## Why

TODO: what goes wrong in production when this setting is wrong.

## Avoid

` + "```properties" + `
log.retention.hours=720
` + "```" + `

## Prefer

` + "```properties" + `
log.retention.hours=168
` + "```" + `

## How to fix

TODO: the fix, and how to record an accepted exception
(` + "`# kafkalint:ignore {{.ID}} -- reason`" + `).

## Scope and defaults

TODO: which files and environments the rule checks, its parameters
(` + "`data.kafkalint.params.custom`" + `) and their defaults.
`
