package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/kafkalint/kafkalint/policies"
	"github.com/kafkalint/kafkalint/report"
)

// categoryDigit is the first digit of the ids of a built-in category
// (policies/meta_test.go checks every rule against the same table).
var categoryDigit = map[string]byte{
	"durability": '1', "security": '2', "kraft": '3', "operations": '4', "topics": '5',
	"consistency": '6', "mirrormaker": '7', "hygiene": '9',
}

var (
	builtinSlugRE = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)
	// metadataIDRE finds the id in a rule's METADATA block.
	metadataIDRE = regexp.MustCompile(`(?m)^#\s+id:\s+(KFK\d{4})\s*$`)
)

// runNewBuiltinRule scaffolds a built-in rule into the kafkalint checkout
// root: the rule and its tests, its docs page and an example, with the
// next free id of the category read from the checkout's own rules (not
// from this binary's, which may be older).
func runNewBuiltinRule(s Streams, f newRuleFlags, root string) error {
	switch {
	case f.id != "":
		return usageError("--builtin chooses the id (the category's next free one); drop --id")
	case categoryDigit[f.category] == 0:
		return usageError("--category %q is not one of %s", f.category, strings.Join(sortedCategories(), ", "))
	case !builtinSlugRE.MatchString(f.slug):
		return usageError("--slug %q is not kebab-case (e.g. log-retention-too-long)", f.slug)
	case !slices.Contains(report.Severities, f.severity):
		return usageError("--severity %q is not one of %s", f.severity, strings.Join(report.Severities, ", "))
	case f.scope != policies.ScopeAll && f.scope != policies.ScopeProduction:
		return usageError("--scope %q is not all or production", f.scope)
	}
	rules := filepath.Join(root, "policies", "kafkalint", "rules")
	if st, err := os.Stat(filepath.Join(rules, f.category)); err != nil || !st.IsDir() {
		return usageError("%s is not a kafkalint checkout (no %s)", displayName(root), displayName(filepath.Join(rules, f.category)))
	}
	id, err := nextBuiltinID(rules, f.category, f.slug)
	if err != nil {
		return err
	}
	v := struct{ ID, Slug, Severity, Scope, Title, Category string }{id, f.slug, f.severity, f.scope, f.title, f.category}
	if v.Title == "" {
		v.Title = "TODO one line saying what is wrong"
	}
	base := strings.ReplaceAll(f.slug, "-", "_")
	ruleDir := filepath.Join(rules, f.category, f.slug)
	err = writeScaffold(s, v, []scaffoldFile{
		{filepath.Join(ruleDir, base+".rego"), builtinRuleTemplate},
		{filepath.Join(ruleDir, base+"_test.rego"), builtinRuleTestTemplate},
		{filepath.Join(root, "docs", "rules", id+".md"), builtinRuleDocTemplate},
		{filepath.Join(root, "examples", "properties", "production", f.slug, "server.properties"), builtinRuleExampleTemplate},
	})
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(s.Out, "next: replace the TODOs and the example check (docs/development.md, \"Adding a rule\"), then run\n"+
		"  go test ./policies -run 'TestRego|TestRuleMetadata'\n"+
		"  go test ./docs -run TestRulePageHeaders -update\n"+
		"  go test ./cmd/kafkalint/cli -run TestReadmeRuleTable -update\n"+
		"  go test ./cmd/kafkalint/cli -run TestExamples\n")
	return err
}

func sortedCategories() []string { return slices.Sorted(maps.Keys(categoryDigit)) }

// nextBuiltinID returns the id after the highest one of the category among
// the rules under dir, and refuses a slug another category already uses
// (slugs name rules in directives and --rule flags, so they are unique).
func nextBuiltinID(dir, category, slug string) (string, error) {
	digit := categoryDigit[category]
	highest := int(digit-'0') * 1000
	root, err := os.OpenRoot(dir)
	if err != nil {
		return "", usageError("%v", err)
	}
	defer root.Close()
	rules := root.FS()
	err = fs.WalkDir(rules, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == slug && path.Dir(path.Dir(p)) == "." {
				return usageError("a rule named %s exists: %s", slug, displayName(filepath.Join(dir, p)))
			}
			return nil
		}
		if !strings.HasSuffix(p, ".rego") || strings.HasSuffix(p, "_test.rego") {
			return nil
		}
		b, err := fs.ReadFile(rules, p)
		if err != nil {
			return err
		}
		for _, m := range metadataIDRE.FindAllStringSubmatch(string(b), -1) {
			if n, _ := strconv.Atoi(m[1][3:]); m[1][3] == digit && n > highest {
				highest = n
			}
		}
		return nil
	})
	if ee := (*exitError)(nil); errors.As(err, &ee) {
		return "", err
	} else if err != nil {
		return "", usageError("%v", err)
	}
	if highest%1000 == 999 {
		return "", usageError("category %s has no free id left", category)
	}
	return fmt.Sprintf("KFK%04d", highest+1), nil
}

const builtinRuleTemplate = `# METADATA
# title: {{.Title}}
# description: |
#   TODO: what the rule finds, what it costs in production, and when it does
#   not apply. As scaffolded, it reports brokers that keep log segments
#   longer than a year: replace that check with yours.
# related_resources:
#   - description: TODO the Kafka docs of the keys the rule reads
#     ref: https://kafka.apache.org/documentation/#brokerconfigs_log.retention.hours
# schemas:
#   - input: schema.cluster
# custom:
#   id: {{.ID}}
#   severity: {{.Severity}}
#   scope: {{.Scope}}
#   applies_to: [broker]
#   keys: [log.retention.hours]
#   since: unreleased
package kafkalint.rules.{{.Category}}["{{.Slug}}"]

import data.kafkalint.lib.result

# custom.keys lists log.retention.hours, so a broker that does not set it
# has Kafka's default (168, source "default") in the model; a key a rule
# reads must be listed there. A value kafkalint cannot know (a
# ${provider:...} placeholder) has no value: the rule stays silent.
report contains result.fail(s, message) if {
	some node in input.nodes
	node.is_broker
	s := node.settings["log.retention.hours"]
	is_number(s.value)
	s.value > 8760
	message := sprintf(
		"log.retention.hours=%d keeps data longer than a year: TODO say what that costs and how to fix it",
		[s.value],
	)
}
`

const builtinRuleTestTemplate = `package kafkalint.rules.{{.Category}}["{{.Slug}}_test"]

import data.kafkalint.lib.testing as t
import data.kafkalint.rules.{{.Category}}["{{.Slug}}"] as rule

_message := "log.retention.hours=9000 keeps data longer than a year: TODO say what that costs and how to fix it"

test_fail_above_a_year if {
	node := t.node("server.properties", ["broker"], [["log.retention.hours", 9000, 3]])
	rule.report == {t.finding("server.properties", 3, "log.retention.hours", _message)} with input as t.cluster([node], [])
}

test_success_a_week if {
	node := t.node("server.properties", ["broker"], [["log.retention.hours", 168, 3]])
	count(rule.report) == 0 with input as t.cluster([node], [])
}

# Line 0: the key is absent and the loader added Kafka's default.
test_success_key_absent if {
	node := t.node("server.properties", ["broker"], [["log.retention.hours", 168, 0]])
	count(rule.report) == 0 with input as t.cluster([node], [])
}

test_success_unknown_placeholder if {
	node := object.union(
		t.node("server.properties", ["broker"], []),
		{"settings": {"log.retention.hours": t.unknown_setting("server.properties", "log.retention.hours", "${env:RETENTION_HOURS}", 3)}},
	)
	count(rule.report) == 0 with input as t.cluster([node], [])
}

test_success_controller_only if {
	node := t.node("server.properties", ["controller"], [["log.retention.hours", 9000, 3]])
	count(rule.report) == 0 with input as t.cluster([node], [])
}
`

const builtinRuleDocTemplate = `# {{.ID}} {{.Slug}}

**Summary:** TODO one sentence: what is wrong and what it costs.

| Severity | Scope | Category | Applies to | Since |
|---|---|---|---|---|
| {{.Severity}} | {{.Scope}} | {{.Category}} | broker | unreleased |

## Why
TODO: what goes wrong in production when this setting is wrong, and what Kafka does with it (it accepts it,
refuses to start, or behaves differently).

## Avoid
` + "```properties" + `
process.roles=broker
log.retention.hours=9000
` + "```" + `

## Prefer
` + "```properties" + `
process.roles=broker
log.retention.hours=168
` + "```" + `

## How to fix
1. TODO: the fix, in the file and on a running cluster.
2. An accepted exception is recorded with ` + "`# kafkalint:ignore {{.ID}} -- reason`" + ` on the line above the key.

## Scope and defaults
- TODO: which files and roles the rule checks{{if eq .Scope "production"}}; production only (silent in development and staging){{end}}.
- Kafka's default for ` + "`log.retention.hours`" + ` is 168: a broker that does not set it is checked against that
  value.
- A value written as a ` + "`${provider:...}`" + ` config-provider placeholder is unknown, so the rule stays silent.

## Kafka reference
- TODO Apache Kafka: the source file and method (e.g. ` + "`core/src/main/scala/kafka/server/KafkaConfig.scala`" + `
  (` + "`validateValues`" + `)), test or docs page each statement above relies on
`

const builtinRuleExampleTemplate = `# An example for {{.ID}} {{.Slug}}: a production broker that no other rule
# reports. TODO: keep one finding of the rule, marked with want.
process.roles=broker
node.id=1
controller.quorum.bootstrap.servers=controller-1.example.com:9093,controller-2.example.com:9093,controller-3.example.com:9093
listeners=SASL_SSL://broker-1.example.com:9092
inter.broker.listener.name=SASL_SSL
controller.listener.names=CONTROLLER
listener.security.protocol.map=SASL_SSL:SASL_SSL,CONTROLLER:SASL_SSL
sasl.enabled.mechanisms=SCRAM-SHA-512
sasl.mechanism.inter.broker.protocol=SCRAM-SHA-512
sasl.mechanism.controller.protocol=SCRAM-SHA-512
log.dirs=/var/lib/kafka/data
auto.create.topics.enable=false
controlled.shutdown.enable=true
# want: {{.ID}}
log.retention.hours=9000
`
