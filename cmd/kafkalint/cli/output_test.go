package cli

import (
	"encoding/json"
	"encoding/xml"
	"os"
	"strings"
	"testing"

	"github.com/kafkalint/kafkalint/docs"
	"github.com/kafkalint/kafkalint/policies"
)

// TestMultipleFormats: one run writes several formats, each to stdout or a
// file, with the same exit code.
func TestMultipleFormats(t *testing.T) {
	t.Chdir(t.TempDir())
	isolate(t)
	writeFile(t, "prod/server.properties", cleanBroker+"offsets.topic.replication.factor=1\n")
	code, out, errOut := run(t, "lint", "--no-color",
		"--format", "text", "--format", "json=out/report.json", "--format=sarif=out/report.sarif", "--format", "junit=junit.xml", "prod")
	if code != ExitFindings {
		t.Fatalf("exit %d, stderr %s", code, errOut)
	}
	if !strings.HasPrefix(out, "prod/server.properties:6:1: error KFK1001 ") {
		t.Errorf("stdout is not the text report:\n%s", out)
	}
	var rep struct {
		Findings []struct {
			ID          string `json:"id"`
			Fingerprint string `json:"fingerprint"`
		} `json:"findings"`
	}
	readJSON(t, "out/report.json", &rep)
	if len(rep.Findings) != 1 || rep.Findings[0].ID != "KFK1001" || rep.Findings[0].Fingerprint == "" {
		t.Errorf("report.json findings = %+v", rep.Findings)
	}
	var sarif struct {
		Version string `json:"version"`
		Runs    []struct {
			Tool struct {
				Driver struct {
					Rules []struct {
						ID   string `json:"id"`
						Help struct {
							Markdown string `json:"markdown"`
						} `json:"help"`
					} `json:"rules"`
				} `json:"driver"`
			} `json:"tool"`
			Results []struct {
				RuleID              string            `json:"ruleId"`
				PartialFingerprints map[string]string `json:"partialFingerprints"`
			} `json:"results"`
		} `json:"runs"`
	}
	readJSON(t, "out/report.sarif", &sarif)
	if sarif.Version != "2.1.0" || len(sarif.Runs) != 1 || len(sarif.Runs[0].Results) != 1 ||
		sarif.Runs[0].Results[0].PartialFingerprints["kafkalint/v1"] != rep.Findings[0].Fingerprint {
		t.Errorf("report.sarif = %+v", sarif)
	}
	// Every rule is listed, with its fix and a link to its docs page as
	// help (a rule without a fix: the page itself).
	engine, err := policies.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	if got, want := len(sarif.Runs[0].Tool.Driver.Rules), len(engine.Rules()); got != want {
		t.Errorf("SARIF lists %d rules, want all %d", got, want)
	}
	for _, r := range sarif.Runs[0].Tool.Driver.Rules {
		rule := engine.Rule(r.ID)
		want, err := docs.Rule(r.ID)
		if err != nil || rule == nil {
			continue // a rule without a page fails the policies meta test
		}
		if rule.Fix != "" {
			want = rule.Fix + "\n\n[" + rule.ID + " " + rule.Slug + " documentation](" + rule.DocsURL + ")"
		}
		if r.Help.Markdown != want {
			t.Errorf("rule %s: help.markdown = %.60q, want %.60q", r.ID, r.Help.Markdown, want)
		}
	}
	data, err := os.ReadFile("junit.xml")
	if err != nil {
		t.Fatal(err)
	}
	var suites struct {
		Failures int `xml:"failures,attr"`
	}
	if err := xml.Unmarshal(data, &suites); err != nil || suites.Failures != 1 {
		t.Errorf("junit.xml: %v, failures %d\n%s", err, suites.Failures, data)
	}
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: %v\n%s", path, err, data)
	}
}

func TestFormatErrors(t *testing.T) {
	t.Chdir(t.TempDir())
	writeFile(t, "prod/server.properties", cleanBroker)
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--format", "xml"}, `unknown --format "xml"`},
		{[]string{"--format", "text", "--format", "json"}, "--format text and --format json both write to stdout"},
		{[]string{"--format", "json=-", "--format", "sarif"}, "--format json and --format sarif both write to stdout"},
		{[]string{"--format", "json=a.json", "--format", "sarif=./a.json"}, "two --format outputs write to ./a.json"},
	} {
		code, _, errOut := run(t, append(append([]string{"lint"}, tt.args...), "prod")...)
		if code != ExitError || !strings.Contains(errOut, tt.want) {
			t.Errorf("%v: exit %d, stderr %q, want 2 and %q", tt.args, code, errOut, tt.want)
		}
	}
}

// TestGitHubFormat: annotations, then the text report; the job summary
// goes to $GITHUB_STEP_SUMMARY, appended.
func TestGitHubFormat(t *testing.T) {
	t.Chdir(t.TempDir())
	isolate(t)
	writeFile(t, "prod/server.properties", cleanBroker+"offsets.topic.replication.factor=1\n")
	writeFile(t, "summary.md", "earlier step\n")
	t.Setenv("GITHUB_STEP_SUMMARY", "summary.md")
	code, out, _ := run(t, "lint", "--format", "github", "prod")
	if code != ExitFindings {
		t.Errorf("exit %d, want 1", code)
	}
	want := "::error file=prod/server.properties,line=6,col=1,title=KFK1001 offsets-topic-replication-factor-one::offsets.topic.replication.factor=1"
	if !strings.HasPrefix(out, want) || !strings.Contains(out, "\nprod/server.properties:6:1: error KFK1001 ") {
		t.Errorf("github output:\n%s\nwant it to start with %q and include the text report", out, want)
	}
	summary, err := os.ReadFile("summary.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(summary), "earlier step\n## kafkalint\n") || !strings.Contains(string(summary), "| error | [KFK1001](") {
		t.Errorf("summary.md:\n%s", summary)
	}
}

// TestGitHubFormatNeutralizesInput: a value holding a newline, a workflow
// command and a terminal escape (written with .properties escapes) makes
// no line of `--format github` output that GitHub would run, and reaches
// it with no raw control character (issue 17 §3).
func TestGitHubFormatNeutralizesInput(t *testing.T) {
	t.Chdir(t.TempDir())
	writeFile(t, ".kafkalint.yaml", isolatedConfig(t, "", "  KFK9005: error\n")) // invalid-value quotes the value
	writeFile(t, "prod/server.properties", cleanBroker+
		`log.retention.hours=12\n::error file=evil.txt::pwned\r::add-mask::hunter2`+"\n"+
		`auto.create.topics.enable=tr\u001b[2Jue`+"\n")
	_, out, errOut := run(t, "lint", "--format", "github", "prod")
	// A multi-line value is quoted up to its first line (policies/redact.go);
	// a control character within a line is escaped.
	if !strings.Contains(out, `log.retention.hours=12…`) || strings.Contains(out, "evil.txt") || !strings.Contains(out, `tr\x1b[2Jue`) {
		t.Fatalf("the values are not reported cut and escaped:\n%s\nstderr: %s", out, errOut)
	}
	annotations := 0
	for line := range strings.Lines(out) {
		if strings.ContainsFunc(strings.TrimSuffix(line, "\n"), func(r rune) bool { return r < 0x20 || r == 0x7f }) {
			t.Errorf("raw control character in %q", line)
		}
		if strings.HasPrefix(strings.TrimSpace(line), "::") {
			if !strings.HasPrefix(line, "::error file=prod/server.properties,") && !strings.HasPrefix(line, "::warning file=prod/server.properties,") &&
				!strings.HasPrefix(line, "::notice ") {
				t.Errorf("input made a workflow command: %q", line)
			}
			annotations++
		}
	}
	if annotations == 0 {
		t.Errorf("no annotations:\n%s", out)
	}
}

// TestMaxResults: --max-results caps the SARIF results, keeping the most
// severe, and says so in a notification; the other formats keep
// everything.
func TestMaxResults(t *testing.T) {
	t.Chdir(t.TempDir())
	writeFile(t, ".kafkalint.yaml", isolatedConfig(t, "", "  KFK9005: error\n  KFK9001: warning\n"))
	writeFile(t, "prod/server.properties", cleanBroker+"log.retention.hours=1\nlog.retention.hours=2\nlog.retention.hours=x\n") // the error is last in file order
	code, _, errOut := run(t, "lint", "--max-results", "1", "--format", "sarif=out.sarif", "--format", "json=out.json", "prod")
	if code != ExitFindings {
		t.Fatalf("exit %d, stderr %s", code, errOut)
	}
	var rep struct {
		Findings []struct {
			ID string `json:"id"`
		} `json:"findings"`
	}
	readJSON(t, "out.json", &rep)
	var sarif struct {
		Runs []struct {
			Invocations []struct {
				ToolExecutionNotifications []struct {
					Properties map[string]int `json:"properties"`
				} `json:"toolExecutionNotifications"`
			} `json:"invocations"`
			Results []struct {
				RuleID string `json:"ruleId"`
				Level  string `json:"level"`
			} `json:"results"`
		} `json:"runs"`
	}
	readJSON(t, "out.sarif", &sarif)
	run0 := sarif.Runs[0]
	if len(rep.Findings) != 3 || len(run0.Results) != 1 || run0.Results[0].Level != "error" || run0.Results[0].RuleID != "KFK9005" {
		t.Errorf("json findings %+v; sarif results %+v, want 3 findings and only the error in SARIF", rep.Findings, run0.Results)
	}
	notes := run0.Invocations[0].ToolExecutionNotifications
	if len(notes) != 1 || notes[0].Properties["omittedResults"] != 2 {
		t.Errorf("notifications %+v, want one counting 2 omitted results", notes)
	}
	if code, _, errOut := run(t, "lint", "--max-results", "-1", "prod"); code != ExitError || !strings.Contains(errOut, "--max-results -1") {
		t.Errorf("--max-results -1: exit %d, stderr %q", code, errOut)
	}
}

// TestJUnitFollowsFailLevel: the JUnit file fails exactly what fails the
// run, so a warning under the default fail level is a skipped test case.
func TestJUnitFollowsFailLevel(t *testing.T) {
	t.Chdir(t.TempDir())
	isolate(t)
	writeFile(t, "prod/server.properties", cleanBroker+"auto.leader.rebalance.enable=false\n")
	for _, tt := range []struct {
		args              []string
		code              int
		failures, skipped int
	}{
		{nil, ExitOK, 0, 1},
		{[]string{"--fail-level", "warning"}, ExitFindings, 1, 0},
	} {
		code, _, errOut := run(t, append([]string{"lint", "--format", "junit=junit.xml", "prod"}, tt.args...)...)
		data, err := os.ReadFile("junit.xml")
		var suites struct {
			Failures int `xml:"failures,attr"`
			Skipped  int `xml:"skipped,attr"`
		}
		if err == nil {
			err = xml.Unmarshal(data, &suites)
		}
		if code != tt.code || err != nil || suites.Failures != tt.failures || suites.Skipped != tt.skipped {
			t.Errorf("%v: exit %d (want %d), %v, failures %d skipped %d (want %d, %d)\n%s%s",
				tt.args, code, tt.code, err, suites.Failures, suites.Skipped, tt.failures, tt.skipped, errOut, data)
		}
	}
}
