package policies

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/kafkalint/kafkalint/loader"
)

// customRule is a complete custom rule: brokers with
// auto.create.topics.enable=true (any environment).
const customRuleText = `# METADATA
# title: Auto topic creation on
# description: Brokers create topics on first use.
# related_resources:
#   - description: ACME rule book
#     ref: https://rules.acme.example/ACME100
# schemas:
#   - input: schema.cluster
# custom:
#   id: ACME100
#   severity: info
#   scope: all
#   category: operations
#   keys: [auto.create.topics.enable]
package custom.acme["auto-create"]

import data.kafkalint.lib.result

report contains result.fail(s, "auto.create.topics.enable is true") if {
	some node in input.nodes
	s := node.settings["auto.create.topics.enable"]
	s.value == true
}
`

// withFix adds custom.fix to a rule's METADATA (after its custom.keys
// line; the other tests' line numbers stay those of customRuleText).
func withFix(text, fix string) string {
	return strings.Replace(text, "#   keys: [auto.create.topics.enable]\n", "#   keys: [auto.create.topics.enable]\n#   fix: "+fix+"\n", 1)
}

// writePolicies writes files (name to text) under a new directory.
func writePolicies(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func cluster(t *testing.T, name, text string) *loader.Cluster {
	t.Helper()
	e, err := Builtin()
	if err != nil {
		t.Fatal(err)
	}
	res, err := loader.LoadSources([]loader.Source{{Name: name, Data: []byte(text)}}, loader.Options{DefaultKeys: e.DefaultKeys()})
	if err != nil || len(res.Clusters) != 1 {
		t.Fatalf("load %s: %v, %d clusters", name, err, len(res.Clusters))
	}
	return res.Clusters[0]
}

func TestCustomRuleLoadedAndEvaluated(t *testing.T) {
	dir := writePolicies(t, map[string]string{
		"acme/auto_create.rego":      withFix(customRuleText, "Set auto.create.topics.enable=false."),
		"acme/ACME100.md":            "# ACME100 auto-create\n\nTurn it off.\n",
		"acme/auto_create_test.rego": "package custom.acme.tests\n\ntest_x if { false }\n", // tests are not loaded by lint
		"lib/helpers.rego":           "package acme.lib\n\ntrue_value(s) if s.value == true\n",
	})
	e, err := Load(t.Context(), Options{Policies: []string{dir}})
	if err != nil {
		t.Fatal(err)
	}
	builtin, _ := Builtin()
	if got, want := len(e.Rules()), len(builtin.Rules())+1; got != want {
		t.Fatalf("%d rules, want %d (built-in + 1)", got, want)
	}
	r := e.Rule("acme100")
	if r == nil || e.Rule("auto-create") != r {
		t.Fatal("custom rule not found by id or slug")
	}
	if r.Severity != "info" || r.Scope != ScopeAll || r.Category != "operations" || r.DocsURL != "https://rules.acme.example/ACME100" ||
		!strings.HasSuffix(r.Source, "acme/auto_create.rego") || !strings.Contains(r.Help, "Turn it off.") || !slices.Equal(r.Keys, []string{"auto.create.topics.enable"}) {
		t.Errorf("rule metadata: %+v", r)
	}
	if !slices.IsSortedFunc(e.Rules(), func(a, b *Rule) int { return strings.Compare(a.ID, b.ID) }) {
		t.Error("rules are not sorted by id")
	}
	// custom.keys adds Kafka's default (true) for a broker that does not set it.
	for text, want := range map[string]int{
		"process.roles=broker\nnode.id=1\nauto.create.topics.enable=true\n":  1,
		"process.roles=broker\nnode.id=1\n":                                  1,
		"process.roles=broker\nnode.id=1\nauto.create.topics.enable=false\n": 0,
	} {
		fs, err := e.Evaluate(t.Context(), cluster(t, "dev/server.properties", text))
		if err != nil {
			t.Fatal(err)
		}
		var custom []string
		for _, f := range fs {
			if f.ID == "ACME100" {
				custom = append(custom, f.File+":"+f.Slug+":"+f.DocsURL)
				// The why is the description, the fix custom.fix.
				if f.Why != "Brokers create topics on first use." || f.Fix != "Set auto.create.topics.enable=false." {
					t.Errorf("ACME100 why %q, fix %q: want METADATA's description and custom.fix", f.Why, f.Fix)
				}
			}
		}
		if len(custom) != want {
			t.Errorf("%q: ACME100 findings %v, want %d", text, custom, want)
		}
	}
}

func TestCustomPoliciesRefused(t *testing.T) {
	rule := func(id, pkg string) string {
		return strings.NewReplacer("ACME100", id, `custom.acme["auto-create"]`, pkg).Replace(customRuleText)
	}
	tests := []struct {
		name  string
		files map[string]string
		want  []string // substrings of the error, the first with file:line
	}{
		{"kfk prefix", map[string]string{"r.rego": rule("KFK9999", `custom.acme["auto-create"]`)},
			[]string{"r.rego:1:", "the KFK prefix is reserved"}},
		{"bad id", map[string]string{"r.rego": rule("acme-1", `custom.acme["auto-create"]`)},
			[]string{"r.rego:1:", "want uppercase letters then digits"}},
		{"duplicate id", map[string]string{"a.rego": customRuleText, "b.rego": rule("ACME100", `custom.acme["other"]`)},
			[]string{":1:", "rule id ACME100 is already used by ACME100 ("}},
		{"built-in slug", map[string]string{"r.rego": rule("ACME101", `custom.acme["duplicate-key"]`)},
			[]string{"r.rego:1:", "already used by built-in rule KFK9001"}},
		{"shadows a built-in package", map[string]string{"r.rego": rule("ACME101", `kafkalint.rules.hygiene["duplicate-key"]`)},
			[]string{"r.rego:15:", "the kafkalint namespace belongs to the built-in rules"}},
		{"extends the result library", map[string]string{"r.rego": "package kafkalint.lib.result\n\nx := 1\n"},
			[]string{"r.rego:1:", "the kafkalint namespace"}},
		{"outside custom", map[string]string{"r.rego": rule("ACME101", `acme["auto-create"]`)},
			[]string{"r.rego:1:", "is not under custom."}},
		{"slug not kebab", map[string]string{"r.rego": rule("ACME101", `custom.acme.auto_create`)},
			[]string{"r.rego:1:", "must be kebab-case"}},
		{"no schema", map[string]string{"r.rego": strings.Replace(customRuleText, "# schemas:\n#   - input: schema.cluster\n", "", 1)},
			[]string{"r.rego:1:", "schemas"}},
		{"bad severity", map[string]string{"r.rego": strings.Replace(customRuleText, "severity: info", "severity: critical", 1)},
			[]string{"r.rego:1:", `custom.severity "critical"`}},
		{"no report", map[string]string{"r.rego": strings.Replace(customRuleText, "report contains", "findings contains", 1)},
			[]string{"r.rego:1:", "defines no `report contains"}},
		{"report without metadata", map[string]string{"r.rego": "package custom.acme.x\n\nreport contains 1\n"},
			[]string{"r.rego:3:", "defines report but is not a rule"}},
		{"compile error", map[string]string{"r.rego": strings.Replace(customRuleText, "s.value == true", "s.value == tru", 1)},
			[]string{"r.rego:22:", "tru"}},
		{"model field that does not exist", map[string]string{"r.rego": strings.Replace(customRuleText, "input.nodes", "input.node", 1)},
			[]string{"r.rego:20:", "undefined ref: input.node"}},
		{"parse error", map[string]string{"r.rego": "package custom.x\n\nreport contains if {\n"},
			[]string{"r.rego:3:", "rego_parse_error"}},
		{"no rule", map[string]string{"lib.rego": "package acme.lib\n\nx := 1\n"},
			[]string{"no custom rule in"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := writePolicies(t, tt.files)
			_, err := Load(t.Context(), Options{Policies: []string{dir}})
			if err == nil {
				t.Fatal("accepted")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
		})
	}
	if _, err := Load(t.Context(), Options{Policies: []string{t.TempDir()}}); err == nil || !strings.Contains(err.Error(), "holds no .rego file") {
		t.Errorf("empty policy directory: %v", err)
	}
	if _, err := Load(t.Context(), Options{Policies: []string{filepath.Join(t.TempDir(), "nope")}}); err == nil || !strings.Contains(err.Error(), "cannot read policies") {
		t.Errorf("missing policy directory: %v", err)
	}
}

func TestDeniedBuiltins(t *testing.T) {
	for call, why := range map[string]string{
		`http.send({"method": "get", "url": "https://example.com"})`: "network access",
		`net.lookup_ip_addr("example.com")`:                          "network access",
		`net.cidr_contains("10.0.0.0/8", "10.1.1.1")`:                "network access",
		`time.now_ns()`:      "when kafkalint runs",
		`opa.runtime()`:      "the environment of the process",
		`rand.intn("x", 10)`: "randomness",
		`uuid.rfc4122("x")`:  "randomness",
		`crypto.x509.parse_and_verify_certificates("x")`: "when kafkalint runs",
		`io.jwt.encode_sign({"alg": "PS256"}, {}, {})`:   "random salt",
		`strings.render_template("{{.}}", {})`:           "not bounded",
		`graph.reachable_paths({}, {})`:                  "exponentially",
	} {
		name, _, _ := strings.Cut(call, "(")
		text := strings.Replace(customRuleText, "\ts.value == true\n", "\ts.value == true\n\tx := "+call+"\n\tx != null\n", 1)
		dir := writePolicies(t, map[string]string{"r.rego": text})
		_, err := Load(t.Context(), Options{Policies: []string{dir}})
		if err == nil {
			t.Errorf("%s: accepted", name)
			continue
		}
		if want := "r.rego:23:7: " + name + " is not allowed in kafkalint policies ("; !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), why) {
			t.Errorf("%s: error %q, want %q and %q", name, err, want, why)
		}
	}
	// Time arithmetic on given values stays allowed.
	text := strings.Replace(customRuleText, "\ts.value == true\n", "\ts.value == true\n\ttime.add_date(0, 0, 0, 1) > 0\n", 1)
	if _, err := Load(t.Context(), Options{Policies: []string{writePolicies(t, map[string]string{"r.rego": text})}}); err != nil {
		t.Errorf("time.add_date refused: %v", err)
	}
}

func TestParams(t *testing.T) {
	def, err := DefaultParams()
	if err != nil {
		t.Fatal(err)
	}
	if def["quorum"].(map[string]any)["min_voters"] == nil || def[customParams] == nil {
		t.Fatalf("defaults: %v", def)
	}
	dir := writePolicies(t, map[string]string{
		"a.yaml": "quorum:\n  min_voters: 5\ncustom:\n  tiers:\n    tier-1: {min_voters: 5}\n  keep: 1\n",
		"b.json": `{"custom": {"tiers": {"tier-2": {"min_voters": 3}}, "keep": 2}, "mirrormaker": {"max_sync_interval_seconds": 120}}`,
	})
	p, err := loadParams([]string{filepath.Join(dir, "a.yaml"), filepath.Join(dir, "b.json")})
	if err != nil {
		t.Fatal(err)
	}
	custom := p[customParams].(map[string]any)
	tiers := custom["tiers"].(map[string]any)
	if len(tiers) != 2 || custom["keep"] != json.Number("2") {
		t.Errorf("custom not merged key by key: %v", custom)
	}
	mm := p["mirrormaker"].(map[string]any)
	if mm["max_sync_interval_seconds"] != json.Number("120") || mm["max_checkpoint_interval_seconds"] != json.Number("60") {
		t.Errorf("mirrormaker: %v", mm)
	}
	if p["quorum"].(map[string]any)["min_voters"] != json.Number("5") {
		t.Errorf("quorum: %v", p["quorum"])
	}
	if again, _ := DefaultParams(); again["quorum"].(map[string]any)["min_voters"] != json.Number("3") {
		t.Error("merging changed the defaults")
	}

	for text, want := range map[string]string{
		"quorum:\n  min_voter: 5\n":                    `d.yaml:2:3: unknown parameter "quorum.min_voter"; did you mean "min_voters"?`,
		"quorom:\n  min_voters: 5\n":                   `d.yaml:1:1: unknown parameter "quorom"`,
		"quorum:\n  min_voters: \"5\"\n":               `d.yaml:2:15: quorum.min_voters must be a number, not "5"`,
		"quorum:\n  min_voters: -1\n":                  `d.yaml:2:15: quorum.min_voters must be a whole number, 0 or more`,
		"quorum:\n  min_voters: 2.5\n":                 `quorum.min_voters must be a whole number`,
		"quorum: 5\n":                                  `d.yaml:1:9: quorum must be a mapping of parameters, not "5"`,
		"custom: [1]\n":                                `d.yaml:1:9: custom must be a mapping`,
		"- 1\n":                                        `d.yaml:1:1: the data file must be a mapping`,
		"quorum: {min_voters: 5, min_voters: 6}\n":     `quorum.min_voters is set twice`,
		"quorum:\n  min_voters: [5\n":                  `d.yaml:1: invalid YAML or JSON`,
		"custom:\n  <<: {a: 1}\n":                      `keys must be plain strings`,
		"mirrormaker:\n  max_sync_interval_seconds:\n": `must be a number, not empty`,
	} {
		err := mergeParams(must(DefaultParams()), "d.yaml", []byte(text))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: error %v, want %q", text, err, want)
		}
	}
	for _, empty := range []string{"", "# nothing\n"} {
		if err := mergeParams(must(DefaultParams()), "d.yaml", []byte(empty)); err != nil {
			t.Errorf("%q: %v", empty, err)
		}
	}
}

// TestParamsReachBuiltinRules: the built-in thresholds follow --data and
// keep their behavior without it.
func TestParamsReachBuiltinRules(t *testing.T) {
	voters := "process.roles=controller\nnode.id=1\nlisteners=CONTROLLER://c1.example.com:9093\ncontroller.listener.names=CONTROLLER\n" +
		"controller.quorum.voters=1@c1.example.com:9093,2@c2.example.com:9093,3@c3.example.com:9093\n"
	mm2 := "clusters=A,B\nA.bootstrap.servers=a:9092\nB.bootstrap.servers=b:9092\nA->B.enabled=true\nemit.checkpoints.interval.seconds=90\n"
	dir := writePolicies(t, map[string]string{"strict.yaml": "quorum:\n  min_voters: 5\n", "loose.yaml": "mirrormaker:\n  max_checkpoint_interval_seconds: 120\n"})
	count := func(e *Engine, id, name, text string) int {
		t.Helper()
		fs, err := e.Evaluate(t.Context(), cluster(t, name, text))
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, f := range fs {
			if f.ID == id {
				n++
			}
		}
		return n
	}
	builtin, _ := Builtin()
	strict, err := Load(t.Context(), Options{Data: []string{filepath.Join(dir, "strict.yaml")}})
	if err != nil {
		t.Fatal(err)
	}
	loose, err := Load(t.Context(), Options{Data: []string{filepath.Join(dir, "loose.yaml")}})
	if err != nil {
		t.Fatal(err)
	}
	if got := count(builtin, "KFK3001", "prod/controller.properties", voters); got != 0 {
		t.Errorf("KFK3001 on 3 voters by default: %d findings", got)
	}
	if got := count(strict, "KFK3001", "prod/controller.properties", voters); got != 1 {
		t.Errorf("KFK3001 on 3 voters with min_voters 5: %d findings, want 1", got)
	}
	if got := count(builtin, "KFK7006", "prod/mm2.properties", mm2); got != 1 {
		t.Errorf("KFK7006 on a 90s interval by default: %d findings, want 1", got)
	}
	if got := count(loose, "KFK7006", "prod/mm2.properties", mm2); got != 0 {
		t.Errorf("KFK7006 on a 90s interval with a 120s maximum: %d findings", got)
	}
}

func TestParseBuiltins(t *testing.T) {
	test := `package custom.t

test_parse if {
	c := kafkalint.parse("", "prod/kafka/server.properties", "process.roles=broker\nnode.id=7\n")
	c.nodes[0].id == 7
	c.nodes[0].environment == "production"
	c.name == "prod/kafka"
}

test_parse_files if {
	cs := kafkalint.parse_files({
		"prod/a/client.properties": "bootstrap.servers=x:9092\nacks=all\n",
		"dev/b/server.properties": "process.roles=broker\nnode.id=1\n",
	})
	count(cs) == 2
	{c.name | some c in cs} == {"prod/a/client.properties", "dev/b"}
}

test_load_error if {
	kafkalint.parse("properties", "prod/server.properties", "a=\\uZZZZ\n")
}

test_unknown_format if {
	kafkalint.parse("ini", "prod/server.properties", "a=b\n")
}

test_no_kafka if {
	kafkalint.parse("yaml", "prod/app.yaml", "name: app\n")
}
`
	dir := writePolicies(t, map[string]string{"t_test.rego": test})
	run, err := RunTests(t.Context(), TestOptions{Paths: []string{dir}})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, r := range run.Results {
		switch {
		case r.Error != nil:
			got[r.Name] = "error: " + r.Error.Error()
		case r.Fail:
			got[r.Name] = "fail"
		default:
			got[r.Name] = "pass"
		}
	}
	for name, want := range map[string]string{
		"test_parse":          "pass",
		"test_parse_files":    "pass",
		"test_load_error":     "prod/server.properties:1: invalid",
		"test_unknown_format": `unknown format "ini"`,
		"test_no_kafka":       "holds no Kafka configuration",
	} {
		if !strings.Contains(got[name], want) {
			t.Errorf("%s: %q, want %q", name, got[name], want)
		}
	}
	if run.Failed() != 3 {
		t.Errorf("Failed() = %d, want 3", run.Failed())
	}
}

func TestRunTestsCoverage(t *testing.T) {
	test := `package custom.acme.auto_create_test

import data.custom.acme["auto-create"] as rule

test_fires if {
	count(rule.report) == 1 with input as kafkalint.parse("", "prod/server.properties", "process.roles=broker\nnode.id=1\nauto.create.topics.enable=true\n")
}
`
	dir := writePolicies(t, map[string]string{"r.rego": customRuleText, "r_test.rego": test})
	run, err := RunTests(t.Context(), TestOptions{Paths: []string{dir}, Coverage: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(run.Results) != 1 || run.Failed() != 0 {
		t.Fatalf("results: %+v", run.Results)
	}
	if len(run.Coverage) != 1 {
		t.Fatalf("coverage of %d files, want the rule's only: %v", len(run.Coverage), run.Coverage)
	}
	for file, fr := range run.Coverage {
		if !strings.HasSuffix(file, "r.rego") || fr.CoveredLines == 0 || fr.NotCoveredLines != 0 {
			t.Errorf("%s: %+v", file, fr)
		}
	}
	// A refused policy is refused by the tests too.
	bad := writePolicies(t, map[string]string{"r.rego": strings.Replace(customRuleText, "id: ACME100", "id: KFK100", 1), "r_test.rego": test})
	if _, err := RunTests(t.Context(), TestOptions{Paths: []string{bad}}); err == nil || !strings.Contains(err.Error(), "reserved") {
		t.Errorf("RunTests accepted a KFK id: %v", err)
	}
}

// Custom policies' tests build fixtures with data.kafkalint.lib.testing,
// which the runtime bundle leaves out.
func TestCustomTestsUseFixtures(t *testing.T) {
	test := `package custom.t

import data.kafkalint.lib.testing

test_fixture if {
	s := testing.setting("prod/server.properties", "acks", "all", 3)
	s.location.line == 3
}
`
	run, err := RunTests(t.Context(), TestOptions{Paths: []string{writePolicies(t, map[string]string{"t_test.rego": test})}})
	if err != nil {
		t.Fatal(err)
	}
	if len(run.Results) != 1 || run.Failed() != 0 {
		t.Errorf("fixtures unavailable to custom tests: %+v", run.Results)
	}
}
