package cli

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/format"

	"github.com/kafkalint/kafkalint/report"
)

// TestCustomPolicyExamples lints examples/custom-policies with its policies
// and parameters and requires exactly the custom findings its want markers
// announce, the built-in findings of a run without them, and that every
// example rule fires; its Rego tests must pass.
func TestCustomPolicyExamples(t *testing.T) {
	if testing.Short() {
		t.Skip("lints and tests every custom-policy example end to end (seconds): not in the -short tier")
	}
	t.Parallel()
	dir := filepath.Join(repoRoot(t), "examples", "custom-policies")
	wants := readWants(t, dir+"/configs", func(id string) bool { return !builtinID(id) })
	if len(wants) < 3 {
		t.Fatalf("want markers for the custom rules: %v", wants)
	}
	_, plain := lintJSON(t, dir)
	_, rep := lintJSON(t, "--policy", dir+"/policies", "--data", dir+"/thresholds.yaml", dir)
	if len(rep.Errors) > 0 {
		t.Errorf("load errors: %+v", rep.Errors)
	}
	var got, builtin, plainBuiltin []string
	fired := map[string]bool{}
	for _, f := range rep.Findings {
		key := fmt.Sprintf("%s:%d:%s", f.File, f.Line, f.ID)
		if strings.HasPrefix(f.ID, "KFK") {
			builtin = append(builtin, key)
			continue
		}
		got = append(got, key)
		fired[f.ID] = true
	}
	for _, f := range plain.Findings {
		plainBuiltin = append(plainBuiltin, fmt.Sprintf("%s:%d:%s", f.File, f.Line, f.ID))
	}
	slices.Sort(got)
	if diff := cmp.Diff(wants, got); diff != "" {
		t.Errorf("custom findings mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(plainBuiltin, builtin); diff != "" {
		t.Errorf("the custom policies changed the built-in findings (-without +with):\n%s", diff)
	}
	for _, id := range []string{"ACME001", "ACME002", "ACME003"} {
		if !fired[id] {
			t.Errorf("%s fires in no example", id)
		}
	}
	if code, out, stderr := run(t, "test", dir); code != ExitOK || !strings.Contains(out, "PASS: ") {
		t.Errorf("kafkalint test %s: exit %d\n%s%s", dir, code, out, stderr)
	}
	regoFormatted(t, dir)
}

// regoFormatted requires the .rego files under dir to be as `opa fmt`
// writes them.
func regoFormatted(t *testing.T, dir string) {
	t.Helper()
	n := 0
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".rego") {
			return err
		}
		n++
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		formatted, err := format.SourceWithOpts(p, src, format.Opts{RegoVersion: ast.RegoV1})
		if err != nil {
			return err
		}
		if !bytes.Equal(formatted, src) {
			t.Errorf("%s is not formatted (opa fmt -w %s)", p, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		t.Errorf("no .rego file under %s", dir)
	}
}

// acmeRule is a custom rule reporting brokers that set
// auto.create.topics.enable=true explicitly.
const acmeRule = `# METADATA
# title: Auto topic creation on
# description: Brokers create topics on first use.
# related_resources:
#   - description: ACME rule book
#     ref: https://rules.acme.example/ACME100
# schemas:
#   - input: schema.cluster
# custom:
#   id: ACME100
#   severity: warning
#   scope: production
#   category: operations
package custom.acme["auto-create"]

import data.kafkalint.lib.result

report contains result.fail(s, "auto.create.topics.enable=true: ACME creates topics through Terraform only") if {
	some node in input.nodes
	s := node.settings["auto.create.topics.enable"]
	s.value == true
}
`

const acmeBroker = "process.roles=broker\nnode.id=4\ncontroller.quorum.bootstrap.servers=c1.example.com:9093\ncontrolled.shutdown.enable=true\ncontroller.listener.names=CONTROLLER\nauto.create.topics.enable=true\n"

// customSetup writes the rule (and its page) under policies/acme and a
// production broker that breaks it, in an isolated working directory.
func customSetup(t *testing.T, rule string) {
	t.Helper()
	t.Chdir(customDir(t, rule))
}

// customDir writes what customSetup does in a new directory, with the
// isolating configuration at .kafkalint.yaml (a test that does not change
// to it passes --config), and returns it.
func customDir(t *testing.T, rule string) string {
	t.Helper()
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, ".kafkalint.yaml"), isolatedConfig(t, "", ""))
	writeFile(t, filepath.Join(dir, "policies", "acme", "auto_create.rego"), rule)
	writeFile(t, filepath.Join(dir, "policies", "acme", "ACME100.md"), "# ACME100 auto-create\n\n## Why\n\nTopics are created by Terraform.\n")
	writeFile(t, filepath.Join(dir, "prod", "server.properties"), acmeBroker)
	return dir
}

func TestCustomFindingInEveryFormat(t *testing.T) {
	customSetup(t, acmeRule)
	code, _, stderr := run(t, "lint", "--policy", "policies", "--fail-level", "warning",
		"--format", "text=out/report.txt", "--format", "json=out/report.json", "--format", "sarif=out/report.sarif",
		"--format", "github=out/github.txt", "--format", "junit=out/junit.xml", "prod")
	if code != ExitFindings {
		t.Fatalf("exit %d, want %d (a warning at --fail-level warning)\n%s", code, ExitFindings, stderr)
	}
	const docs = "https://rules.acme.example/ACME100"
	var rep report.Report
	readJSON(t, "out/report.json", &rep)
	var acme []report.Finding
	for _, f := range rep.Findings {
		if f.ID == "ACME100" {
			acme = append(acme, f)
		}
	}
	if len(acme) != 1 {
		t.Fatalf("JSON findings %+v, want one ACME100", rep.Findings)
	}
	f := acme[0]
	if f.File != "prod/server.properties" || f.Line != 6 || f.Slug != "auto-create" || f.Severity != "warning" ||
		f.DocsURL != docs || f.Environment != "production" || f.Key != "auto.create.topics.enable" || f.Fingerprint == "" {
		t.Errorf("JSON finding %+v", f)
	}
	for file, want := range map[string][]string{
		"out/report.txt": {"prod/server.properties:6:1: warning ACME100 auto.create.topics.enable=true: ACME creates topics through Terraform only (auto-create)"},
		"out/github.txt": {"::warning file=prod/server.properties,line=6,col=1,title=ACME100 auto-create::", docs},
		"out/junit.xml":  {`name="ACME100 auto-create: auto.create.topics.enable"`, docs},
	} {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range want {
			if !strings.Contains(string(b), w) {
				t.Errorf("%s lacks %q:\n%s", file, w, b)
			}
		}
	}
	type sarifRule struct {
		ID               string
		Name             string
		HelpURI          string
		ShortDescription struct{ Text string }
		Help             struct{ Markdown string }
		Properties       struct{ Tags []string }
	}
	type sarifResult struct {
		RuleID    string
		RuleIndex int
	}
	var sarif struct {
		Runs []struct {
			Tool    struct{ Driver struct{ Rules []sarifRule } }
			Results []sarifResult
		}
	}
	readJSON(t, "out/report.sarif", &sarif)
	run := sarif.Runs[0]
	index := slices.IndexFunc(run.Tool.Driver.Rules, func(r sarifRule) bool { return r.ID == "ACME100" })
	if index < 0 {
		t.Fatal("SARIF rules[] lacks ACME100")
	}
	r := run.Tool.Driver.Rules[index]
	if r.Name != "auto-create" || r.HelpURI != docs || r.ShortDescription.Text != "Auto topic creation on" ||
		!strings.Contains(r.Help.Markdown, "Topics are created by Terraform.") || !slices.Contains(r.Properties.Tags, "operations") {
		t.Errorf("SARIF rule %+v", r)
	}
	if !slices.ContainsFunc(run.Results, func(res sarifResult) bool { return res.RuleID == "ACME100" && res.RuleIndex == index }) {
		t.Errorf("SARIF results lack ACME100 at rule index %d: %+v", index, run.Results)
	}
}

// TestCustomRuleConfigured: policies and data from .kafkalint.yaml, a
// severity from rules:, an inline suppression by slug, rules, explain and
// config verify.
func TestCustomRuleConfigured(t *testing.T) {
	customSetup(t, acmeRule)
	writeFile(t, ".kafkalint.yaml", isolatedConfig(t, "policies: [policies]\ndata: params.yaml\n", "  ACME100: error\n"))
	writeFile(t, "params.yaml", "custom:\n  anything: 1\n")
	code, rep := lintJSON(t, "prod")
	if code != ExitFindings || len(rep.Findings) != 1 || rep.Findings[0].ID != "ACME100" || rep.Findings[0].Severity != "error" {
		t.Fatalf("exit %d, findings %+v: want ACME100 as an error", code, rep.Findings)
	}
	writeFile(t, "prod/server.properties", strings.Replace(acmeBroker, "auto.create.topics.enable=true",
		"# kafkalint:ignore auto-create -- the tooling cluster creates topics on demand\nauto.create.topics.enable=true", 1))
	if code, rep := lintJSON(t, "prod"); code != ExitOK || len(rep.Findings) != 0 || rep.Summary.Suppressed != 1 {
		t.Errorf("suppressed by slug: exit %d, %+v", code, rep)
	}
	if code, out, stderr := run(t, "rules"); code != ExitOK || !regexp.MustCompile(`(?m)^ACME100\s+auto-create\s+warning\s+production\s+Auto topic creation on$`).MatchString(out) ||
		!strings.Contains(out, "KFK1001") {
		t.Errorf("rules: exit %d\n%s%s", code, out, stderr)
	}
	if code, out, _ := run(t, "explain", "ACME100"); code != ExitOK || !strings.Contains(out, "Topics are created by Terraform.") ||
		!strings.Contains(out, "Docs: https://rules.acme.example/ACME100") {
		t.Errorf("explain: exit %d\n%s", code, out)
	}
	if code, out, stderr := run(t, "config", "verify"); code != ExitOK || !strings.Contains(out, ": ok") {
		t.Errorf("config verify: exit %d\n%s%s", code, out, stderr)
	}
	// Without the policies, the configuration names a rule that does not exist.
	writeFile(t, ".kafkalint.yaml", isolatedConfig(t, "", "  ACME100: error\n"))
	if code, _, stderr := run(t, "config", "verify"); code != ExitError || !strings.Contains(stderr, `unknown rule "ACME100"`) {
		t.Errorf("config verify without the policies: exit %d\n%s", code, stderr)
	}
	// --policy on the command line brings it back.
	writeFile(t, "prod/server.properties", acmeBroker)
	if code, _, stderr := run(t, "lint", "--policy", "policies", "prod"); code != ExitFindings {
		t.Errorf("lint --policy: exit %d\n%s", code, stderr)
	}
}

func TestCustomPolicyRefused(t *testing.T) {
	tests := []struct {
		name string
		rule string
		want []string
	}{
		{"compile error", strings.Replace(acmeRule, "s.value == true", "s.value == tru", 1),
			[]string{"kafkalint: policies/acme/auto_create.rego:21:", "tru"}},
		{"forbidden builtin", strings.Replace(acmeRule, "\ts.value == true\n", "\ts.value == true\n\thttp.send({\"method\": \"get\", \"url\": \"https://x\"}).status_code == 200\n", 1),
			[]string{"kafkalint: policies/acme/auto_create.rego:22:2: http.send is not allowed in kafkalint policies (network access)"}},
		{"KFK prefix", strings.Replace(acmeRule, "id: ACME100", "id: KFK1234", 1),
			[]string{"kafkalint: policies/acme/auto_create.rego:1:1: custom.id KFK1234: the KFK prefix is reserved for built-in rules"}},
		{"duplicate id", acmeRule,
			[]string{"rule id ACME100 is already used by ACME100 (policies/acme/"}},
	}
	t.Parallel()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := customDir(t, tt.rule)
			if tt.name == "duplicate id" {
				writeFile(t, filepath.Join(dir, "policies", "acme", "copy.rego"), strings.Replace(acmeRule, `["auto-create"]`, `["auto-create-again"]`, 1))
			}
			config, policies := filepath.Join(dir, ".kafkalint.yaml"), filepath.Join(dir, "policies")
			for _, args := range [][]string{{"lint", "--config", config, "--policy", policies, filepath.Join(dir, "prod")}, {"rules", "--config", config, "--policy", policies}} {
				code, out, stderr := run(t, args...)
				if code != ExitError {
					t.Errorf("%v: exit %d, want %d\n%s", args, code, ExitError, out)
				}
				for _, w := range tt.want {
					if !strings.Contains(stderr, strings.ReplaceAll(w, "policies/acme/", policies+"/acme/")) {
						t.Errorf("%v: stderr lacks %q:\n%s", args, w, stderr)
					}
				}
			}
		})
	}
}

// everyFormat asks for every lint output format, each in its own file.
var everyFormat = []string{"--format", "text=out/report.txt", "--format", "json=out/report.json", "--format", "sarif=out/report.sarif",
	"--format", "github=out/github.txt", "--format", "junit=out/junit.xml"}

// checkEveryOutput: the run exited 2 and wrote every format of
// everyFormat, each with the error and the findings that were computed.
func checkEveryOutput(t *testing.T, code int, stderr string, want ...string) {
	t.Helper()
	if code != ExitError {
		t.Errorf("exit %d, want %d\nstderr:\n%s", code, ExitError, stderr)
	}
	for _, name := range []string{"out/report.txt", "out/report.json", "out/report.sarif", "out/github.txt", "out/junit.xml"} {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Errorf("%s was not written: %v", name, err)
			continue
		}
		for _, w := range want {
			if !strings.Contains(string(b), w) {
				t.Errorf("%s lacks %q:\n%s", name, w, b)
			}
		}
	}
}

// TestPolicyTimeoutWritesEveryOutput: --policy-timeout bounds the custom
// policies' CPU time on one cluster; the run still writes every output,
// with the cluster's built-in findings and an error entry, and exits 2.
func TestPolicyTimeoutWritesEveryOutput(t *testing.T) {
	// Seconds of evaluation, far past 200ms, and finite.
	slow := strings.Replace(acmeRule, "\ts.value == true\n",
		"\ts.value == true\n\tcount([x | some a in numbers.range(1, 4000); some b in numbers.range(1, 4000); x := a * b]) > 0\n", 1)
	customSetup(t, slow)
	writeFile(t, "prod/server.properties", acmeBroker+"offsets.topic.replication.factor=1\n")
	code, _, stderr := run(t, append(append([]string{"lint", "--policy", "policies", "--policy-timeout", "200ms"}, everyFormat...), "prod")...)
	checkEveryOutput(t, code, stderr, "the custom policies did not finish within --policy-timeout 200ms of CPU time", "KFK1001")
	var rep report.Report
	readJSON(t, "out/report.json", &rep)
	if len(rep.Errors) != 1 || rep.Errors[0].File != "prod/server.properties" {
		t.Errorf("errors = %+v, want one for the cluster", rep.Errors)
	}
}

// TestDataOverridesBuiltinThreshold: --data (or data: in .kafkalint.yaml)
// sets KFK3001's minimum; a mistake in the file is exit 2 at file:line:col.
func TestDataOverridesBuiltinThreshold(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	config, prod, strict := filepath.Join(dir, ".kafkalint.yaml"), filepath.Join(dir, "prod"), filepath.Join(dir, "strict.yaml")
	writeFile(t, config, isolatedConfig(t, "", ""))
	writeFile(t, filepath.Join(prod, "controller.properties"), "process.roles=controller\nnode.id=1\nlisteners=CONTROLLER://c1.example.com:9093\n"+
		"controller.listener.names=CONTROLLER\ncontroller.quorum.voters=1@c1.example.com:9093,2@c2.example.com:9093,3@c3.example.com:9093\n")
	writeFile(t, strict, "quorum:\n  min_voters: 5\n")
	count := func(rep report.Report) int {
		n := 0
		for _, f := range rep.Findings {
			if f.ID == "KFK3001" {
				n++
			}
		}
		return n
	}
	if _, rep := lintJSON(t, "--config", config, prod); count(rep) != 0 {
		t.Errorf("KFK3001 on 3 voters by default: %+v", rep.Findings)
	}
	code, rep := lintJSON(t, "--config", config, "--data", strict, prod)
	if code != ExitFindings || count(rep) != 1 || !strings.Contains(rep.Findings[0].Message, "fewer than the 5 required") {
		t.Errorf("--data strict.yaml: exit %d, %+v", code, rep.Findings)
	}
	writeFile(t, config, isolatedConfig(t, "data: strict.yaml\n", ""))
	if _, rep := lintJSON(t, "--config", config, prod); count(rep) != 1 {
		t.Errorf("data: in .kafkalint.yaml: %+v", rep.Findings)
	}
	typo := filepath.Join(dir, "typo.yaml")
	writeFile(t, typo, "quorum:\n  min_voter: 5\n")
	if code, _, stderr := run(t, "lint", "--config", config, "--data", typo, prod); code != ExitError ||
		!strings.Contains(stderr, "kafkalint: "+typo+`:2:3: unknown parameter "quorum.min_voter"; did you mean "min_voters"?`) {
		t.Errorf("typo: exit %d\n%s", code, stderr)
	}
}

const acmeTest = `package custom.acme.auto_create_test

import data.custom.acme["auto-create"] as rule

test_fires if {
	count(rule.report) == 1 with input as kafkalint.parse("properties", "prod/server.properties", "process.roles=broker\nnode.id=1\nauto.create.topics.enable=true\n")
}

test_silent_when_off if {
	count(rule.report) == 0 with input as kafkalint.parse("properties", "prod/server.properties", "process.roles=broker\nnode.id=1\nauto.create.topics.enable=false\n")
}
`

func TestTestCommand(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles the built-in rules with custom policies five times (seconds): not in the -short tier")
	}
	t.Parallel()
	dir := customDir(t, acmeRule)
	policies, test := filepath.Join(dir, "policies"), filepath.Join(dir, "policies", "acme", "auto_create_test.rego")
	writeFile(t, test, acmeTest)
	code, out, stderr := run(t, "test", "--coverage", policies)
	if code != ExitOK || !strings.Contains(out, "PASS: 2/2") || !strings.Contains(out, "policies/acme/auto_create.rego: 100.0%") {
		t.Errorf("passing tests: exit %d\n%s%s", code, out, stderr)
	}
	// With no PATH: the configuration's policies.
	writeFile(t, filepath.Join(dir, ".kafkalint.yaml"), isolatedConfig(t, "policies: [policies]\n", ""))
	if code, out, _ := run(t, "test", "--config", filepath.Join(dir, ".kafkalint.yaml")); code != ExitOK || !strings.Contains(out, "PASS: 2/2") {
		t.Errorf("test with .kafkalint.yaml policies: exit %d\n%s", code, out)
	}
	writeFile(t, test, strings.Replace(acmeTest, "count(rule.report) == 0", "count(rule.report) == 1", 1))
	code, out, _ = run(t, "test", policies)
	if code != ExitFindings || !strings.Contains(out, "test_silent_when_off: FAIL") || !strings.Contains(out, "FAIL: 1/2") {
		t.Errorf("failing test: exit %d, want %d\n%s", code, ExitFindings, out)
	}
	writeFile(t, test, strings.Replace(acmeTest, "count(rule.report) == 0", "counts(rule.report) == 0", 1))
	if code, _, stderr := run(t, "test", policies); code != ExitError || !strings.Contains(stderr, test+":10:") {
		t.Errorf("test that does not compile: exit %d\n%s", code, stderr)
	}
	if err := os.Remove(test); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := run(t, "test", policies); code != ExitError || !strings.Contains(stderr, "no test in "+policies) {
		t.Errorf("no tests: exit %d\n%s", code, stderr)
	}
}

func TestNewRule(t *testing.T) {
	t.Chdir(t.TempDir())
	isolate(t)
	code, out, stderr := run(t, "new-rule", "--id", "ACME007", "--slug", "long-retention", "--severity", "error", "policies/kafka")
	if code != ExitOK {
		t.Fatalf("new-rule: exit %d\n%s%s", code, out, stderr)
	}
	for _, f := range []string{"long_retention.rego", "long_retention_test.rego", "ACME007.md"} {
		if !strings.Contains(out, "created policies/kafka/long-retention/"+f) {
			t.Errorf("output lacks %s:\n%s", f, out)
		}
	}
	if code, out, stderr := run(t, "test", "policies/kafka"); code != ExitOK || !strings.Contains(out, "PASS: 5/5") {
		t.Errorf("the scaffold's tests: exit %d\n%s%s", code, out, stderr)
	}
	regoFormatted(t, "policies/kafka")
	writeFile(t, "prod/server.properties", strings.Replace(acmeBroker, "auto.create.topics.enable=true", "log.retention.hours=720", 1))
	code, rep := lintJSON(t, "--policy", "policies/kafka", "prod")
	if code != ExitFindings || len(rep.Findings) != 1 || rep.Findings[0].ID != "ACME007" || rep.Findings[0].Line != 6 ||
		rep.Findings[0].Severity != "error" || rep.Findings[0].DocsURL != "https://example.com/kafka-rules/ACME007" {
		t.Errorf("lint with the scaffold: exit %d, %+v", code, rep.Findings)
	}
	if code, out, _ := run(t, "explain", "--policy", "policies/kafka", "ACME007"); code != ExitOK || !strings.HasPrefix(out, "# ACME007 long-retention\n") {
		t.Errorf("explain the scaffold: exit %d\n%s", code, out)
	}
	if code, _, stderr := run(t, "new-rule", "--id", "ACME007", "--slug", "long-retention", "policies/kafka"); code != ExitError ||
		!strings.Contains(stderr, "policies/kafka/long-retention/long_retention.rego exists") {
		t.Errorf("overwrite: exit %d\n%s", code, stderr)
	}
	for _, args := range [][]string{
		{"--id", "KFK1234", "--slug", "x"},
		{"--id", "acme1", "--slug", "x"},
		{"--id", "ACME8", "--slug", "Not_Kebab"},
		{"--id", "ACME8", "--slug", "x", "--scope", "staging"},
		{"--slug", "x"},
	} {
		if code, _, _ := run(t, append(append([]string{"new-rule"}, args...), "other")...); code != ExitError {
			t.Errorf("new-rule %v: exit %d, want %d", args, code, ExitError)
		}
	}
	if _, err := os.Stat("other"); err == nil {
		t.Error("a refused new-rule created files")
	}
}

// TestPolicyTimeoutStopsCustomRules: after the custom policies time out on
// one cluster, the others run the built-in rules only, so a runaway policy
// costs one budget per worker, not one per cluster; one entry counts the
// clusters it skipped.
func TestPolicyTimeoutStopsCustomRules(t *testing.T) {
	slow := strings.Replace(acmeRule, "\ts.value == true\n",
		"\ts.value == true\n\tcount([x | some a in numbers.range(1, 4000); some b in numbers.range(1, 4000); x := a * b]) > 0\n", 1)
	t.Parallel()
	dir := customDir(t, slow)
	const clusters = 6
	for i := range clusters {
		writeFile(t, filepath.Join(dir, fmt.Sprintf("prod/c%d/server.properties", i)),
			strings.Replace(acmeBroker, "c1.example.com", fmt.Sprintf("k%d.example.com", i), 1))
	}
	code, rep := lintJSON(t, "--config", filepath.Join(dir, ".kafkalint.yaml"), "--policy", filepath.Join(dir, "policies"), "--policy-timeout", "200ms", filepath.Join(dir, "prod"))
	timedOut, skipped := 0, 0
	for _, e := range rep.Errors {
		var n int
		switch {
		case strings.Contains(e.Message, "did not finish within --policy-timeout 200ms"):
			timedOut++
		case strings.HasPrefix(e.Message, "the custom policies were not run on "):
			if _, err := fmt.Sscanf(e.Message, "the custom policies were not run on %d more", &n); err != nil {
				t.Errorf("%q: %v", e.Message, err)
			}
			skipped += n
		}
	}
	if code != ExitError || timedOut == 0 || timedOut > runtime.GOMAXPROCS(0) || timedOut+skipped != clusters+1 {
		t.Errorf("exit %d, %d timed out, %d skipped; want at most one per worker timed out and the other clusters of %d skipped:\n%+v",
			code, timedOut, skipped, clusters+1, rep.Errors)
	}
}
