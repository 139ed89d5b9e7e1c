package cli

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/kafkalint/kafkalint/report"
)

// cleanBroker is a production broker no rule reports.
const cleanBroker = "process.roles=broker\nnode.id=4\ncontroller.quorum.bootstrap.servers=c1.example.com:9093\ncontroller.listener.names=CONTROLLER\ncontrolled.shutdown.enable=true\n"

// found lists findings as "file:line:ID", by file, line and id.
func found(rep report.Report) []string {
	fs := slices.Clone(rep.Findings)
	slices.SortFunc(fs, func(a, b report.Finding) int {
		return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line), cmp.Compare(a.ID, b.ID))
	})
	var out []string
	for _, f := range fs {
		out = append(out, fmt.Sprintf("%s:%d:%s", f.File, f.Line, f.ID))
	}
	return out
}

func message(t *testing.T, rep report.Report, id string) string {
	t.Helper()
	for _, f := range rep.Findings {
		if f.ID == id {
			return f.Message
		}
	}
	t.Fatalf("no %s finding in %v", id, found(rep))
	return ""
}

// TestInlineSuppressionForms: every form of directive in a .properties
// file suppresses exactly its finding.
func TestInlineSuppressionForms(t *testing.T) {
	t.Chdir(t.TempDir())
	isolate(t)
	writeFile(t, "prod/server.properties", strings.Join([]string{
		"# kafkalint:ignore-file KFK4002 -- set by the deployment tool", // 1: missing-key finding (line 1)
		"process.roles=broker",
		"node.id=4",
		"controller.quorum.bootstrap.servers=c1.example.com:9093",
		"controller.listener.names=CONTROLLER",
		"# kafkalint:ignore KFK1001 -- replay cluster", // 6: line above, '#'
		"offsets.topic.replication.factor=1",
		"! kafkalint:ignore transaction-state-log-replication-factor-one -- slug and '!'", // 8
		"transaction.state.log.replication.factor=1",
		"#kafkalint:ignore KFK4003,KFK9001 -- two rules, no space after #", // 10
		"# a comment between the directive and its line is fine",
		"auto.leader.rebalance.enable=false", // 12
		"num.partitions=1",
		"num.partitions=2", // 14: KFK9001, not covered (the directive above targets line 12)
		"",
	}, "\n"))
	code, rep := lintJSON(t, "prod")
	want := []string{
		"prod/server.properties:10:KFK9003", // KFK9001 named by the directive at line 10 matched nothing on line 12
		"prod/server.properties:14:KFK9001",
	}
	if diff := gocmp.Diff(want, found(rep)); diff != "" {
		t.Errorf("findings mismatch (-want +got):\n%s", diff)
	}
	if code != ExitOK || rep.Summary.Suppressed != 4 {
		t.Errorf("exit %d, summary.suppressed = %d, want 0 and 4", code, rep.Summary.Suppressed)
	}
	if msg := message(t, rep, "KFK9003"); !strings.Contains(msg, "kafkalint:ignore KFK9001 suppressed nothing (no KFK9001 finding on line 12)") {
		t.Errorf("KFK9003 message: %s", msg)
	}
	// --no-inline-ignores: every finding is back and no directive is reported.
	_, rep = lintJSON(t, "--no-inline-ignores", "prod")
	want = []string{
		"prod/server.properties:1:KFK4002",
		"prod/server.properties:7:KFK1001",
		"prod/server.properties:9:KFK1002",
		"prod/server.properties:12:KFK4003",
		"prod/server.properties:14:KFK9001",
	}
	if diff := gocmp.Diff(want, found(rep)); diff != "" {
		t.Errorf("--no-inline-ignores findings mismatch (-want +got):\n%s", diff)
	}
	if rep.Summary.Suppressed != 0 {
		t.Errorf("--no-inline-ignores: summary.suppressed = %d", rep.Summary.Suppressed)
	}
}

// TestSuppressedFindingsOnlyInSARIF: suppressed findings are left out of
// text, json, github and junit, and are in SARIF with a suppression.
func TestSuppressedFindingsOnlyInSARIF(t *testing.T) {
	t.Chdir(t.TempDir())
	isolate(t)
	writeFile(t, "prod/server.properties", cleanBroker+"# kafkalint:ignore KFK1001 -- replay cluster\noffsets.topic.replication.factor=1\n")
	for _, format := range []string{"text", "json", "github", "junit"} {
		code, out, _ := run(t, "lint", "--format", format, "prod")
		if code != ExitOK || strings.Contains(out, "KFK1001") {
			t.Errorf("--format %s: exit %d, output mentions the suppressed finding:\n%s", format, code, out)
		}
	}
	code, out, _ := run(t, "lint", "--format", "sarif", "prod")
	var log struct {
		Runs []struct {
			Results []struct {
				RuleID       string `json:"ruleId"`
				Suppressions []struct {
					Kind          string `json:"kind"`
					Justification string `json:"justification"`
				} `json:"suppressions"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(out), &log); err != nil {
		t.Fatal(err)
	}
	if code != ExitOK || len(log.Runs) != 1 || len(log.Runs[0].Results) != 1 {
		t.Fatalf("sarif: exit %d, %+v", code, log)
	}
	r := log.Runs[0].Results[0]
	if r.RuleID != "KFK1001" || len(r.Suppressions) != 1 || r.Suppressions[0].Kind != "inSource" || r.Suppressions[0].Justification != "replay cluster" {
		t.Errorf("sarif result = %+v, want KFK1001 suppressed inSource with the reason", r)
	}
}

func TestKFK9002FailDirectiveWithoutReason(t *testing.T) {
	t.Chdir(t.TempDir())
	isolate(t)
	writeFile(t, "prod/server.properties", cleanBroker+
		"# kafkalint:ignore KFK1001\noffsets.topic.replication.factor=1\n"+
		"# kafkalint:ignore KFK1002 single broker\ntransaction.state.log.replication.factor=1\n"+
		"# kafkalint:ignore KFK4003 --\nauto.leader.rebalance.enable=false\n")
	code, rep := lintJSON(t, "prod")
	want := []string{
		"prod/server.properties:6:KFK9002", "prod/server.properties:7:KFK1001",
		"prod/server.properties:8:KFK9002", "prod/server.properties:9:KFK1002",
		"prod/server.properties:10:KFK9002", "prod/server.properties:11:KFK4003",
	}
	if diff := gocmp.Diff(want, found(rep)); diff != "" {
		t.Errorf("findings mismatch (-want +got):\n%s", diff)
	}
	if code != ExitFindings {
		t.Errorf("exit %d: the unsuppressed KFK1001 must still fail the run", code)
	}
	for _, f := range rep.Findings {
		switch {
		case f.ID != "KFK9002":
		case f.Line == 8 && !strings.Contains(f.Message, "the reason must follow `--`, as in `kafkalint:ignore KFK1002 -- single broker`"):
			t.Errorf("KFK9002 at line 8 does not show where the reason goes: %s", f.Message)
		case f.Severity != report.Warning || f.Key == "" || f.Column != 1:
			t.Errorf("KFK9002 finding = %+v, want a warning with a key at column 1", f)
		}
	}
}

func TestKFK9002SuccessDirectiveWithReason(t *testing.T) {
	t.Chdir(t.TempDir())
	isolate(t)
	writeFile(t, "prod/server.properties", cleanBroker+"# kafkalint:ignore KFK1001 -- replay cluster\noffsets.topic.replication.factor=1\n")
	code, rep := lintJSON(t, "prod")
	if code != ExitOK || len(rep.Findings) != 0 {
		t.Errorf("exit %d, findings %v, want none", code, found(rep))
	}
}

func TestKFK9003FailStaleMisplacedUnknownMalformed(t *testing.T) {
	t.Chdir(t.TempDir())
	isolate(t)
	writeFile(t, "prod/server.properties", strings.Join([]string{
		"# kafkalint:ignore-file KFK3005 -- was combined until 2026", // 1: nothing to suppress in the file
		"process.roles=broker",
		"node.id=4",
		"controller.quorum.bootstrap.servers=c1.example.com:9093",
		"controller.listener.names=CONTROLLER",
		"controlled.shutdown.enable=true",
		"# kafkalint:ignore KFK1001 -- blank line below: misplaced", // 7
		"",
		"offsets.topic.replication.factor=1", // 9: still reported
		"# kafkalint:ignore KFK0001 -- no such rule",            // 10
		"num.partitions=3",                                      // 11
		"# kafkalint:disable KFK1001 -- wrong keyword",          // 12
		"log.retention.hours=24",                                // 13
		"# kafkalint:ignore-file KFK4003 -- after the settings", // 14
		"",
	}, "\n"))
	code, rep := lintJSON(t, "prod")
	want := []string{
		"prod/server.properties:1:KFK9003", "prod/server.properties:7:KFK9003", "prod/server.properties:9:KFK1001",
		"prod/server.properties:10:KFK9003", "prod/server.properties:12:KFK9003", "prod/server.properties:14:KFK9003",
	}
	if diff := gocmp.Diff(want, found(rep)); diff != "" {
		t.Errorf("findings mismatch (-want +got):\n%s", diff)
	}
	if code != ExitFindings {
		t.Errorf("exit %d, want 1 (KFK1001 is not suppressed)", code)
	}
	msgs := map[int]string{}
	for _, f := range rep.Findings {
		if f.ID == "KFK9003" {
			msgs[f.Line] = f.Message
			if f.Severity != report.Info {
				t.Errorf("KFK9003 severity %s, want info", f.Severity)
			}
		}
	}
	for line, part := range map[int]string{
		1:  "kafkalint:ignore-file KFK3005 suppressed nothing (no KFK3005 finding in this file)",
		7:  "no KFK1001 finding on line 8",
		10: `names "KFK0001", which is not a rule`,
		12: `unknown directive "kafkalint:disable"`,
		14: "must come before the file's first setting (line 2)",
	} {
		if !strings.Contains(msgs[line], part) {
			t.Errorf("KFK9003 at line %d: %q, want it to contain %q", line, msgs[line], part)
		}
	}
}

func TestKFK9003SuccessEveryDirectiveUsed(t *testing.T) {
	t.Chdir(t.TempDir())
	isolate(t)
	writeFile(t, "prod/server.properties", "# kafkalint:ignore-file KFK4002 -- set by the operator\n"+
		"process.roles=broker\nnode.id=4\ncontroller.quorum.bootstrap.servers=c1.example.com:9093\ncontroller.listener.names=CONTROLLER\n"+
		"# kafkalint:ignore KFK1001 -- replay cluster\noffsets.topic.replication.factor=1\n")
	code, rep := lintJSON(t, "--fail-level", "info", "prod")
	if code != ExitOK || len(rep.Findings) != 0 || rep.Summary.Suppressed != 2 {
		t.Errorf("exit %d, findings %v, suppressed %d; want 0, none, 2", code, found(rep), rep.Summary.Suppressed)
	}
}

// TestKFK9003SuccessRuleTurnedOff: a directive for a rule the
// configuration turns off is not reported as unused.
func TestKFK9003SuccessRuleTurnedOff(t *testing.T) {
	t.Chdir(t.TempDir())
	writeFile(t, ".kafkalint.yaml", isolatedConfig(t, "", "  KFK1001: off\n"))
	writeFile(t, "prod/server.properties", cleanBroker+"# kafkalint:ignore KFK1001 -- replay cluster\noffsets.topic.replication.factor=1\n")
	code, rep := lintJSON(t, "--fail-level", "info", "prod")
	if code != ExitOK || len(rep.Findings) != 0 {
		t.Errorf("exit %d, findings %v, want none", code, found(rep))
	}
}

// TestInlineSuppressionYAML: in YAML (here a compose file) a directive may
// also end the flagged line itself; the line-above form works too.
func TestInlineSuppressionYAML(t *testing.T) {
	t.Chdir(t.TempDir())
	isolate(t)
	writeFile(t, "prod/docker-compose.yml", strings.Join([]string{
		"services:",
		"  broker:",
		"    image: apache/kafka:3.9.0",
		"    environment:",
		"      KAFKA_NODE_ID: 1",
		"      KAFKA_PROCESS_ROLES: broker,controller # kafkalint:ignore KFK3005 -- single-node demo stack", // 6
		"      KAFKA_LISTENERS: PLAINTEXT://:19092,CONTROLLER://:29093",
		"      KAFKA_CONTROLLER_LISTENER_NAMES: CONTROLLER",
		"      # kafkalint:ignore quorum-too-few-voters -- demo stack, data is disposable", // 9
		"      KAFKA_CONTROLLER_QUORUM_VOTERS: 1@broker:29093",
		"      KAFKA_CONTROLLED_SHUTDOWN_ENABLE: \"true\"",
		"      KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR: 1 # kafkalint:ignore KFK1001", // 12: no reason
		"",
	}, "\n"))
	_, rep := lintJSON(t, "--no-inline-ignores", "prod")
	before := found(rep)
	for _, want := range []string{"prod/docker-compose.yml:6:KFK3005", "prod/docker-compose.yml:10:KFK3001", "prod/docker-compose.yml:12:KFK1001"} {
		if !slices.Contains(before, want) {
			t.Fatalf("fixture does not produce %s without directives: %v", want, before)
		}
	}
	_, rep = lintJSON(t, "prod")
	got := found(rep)
	for _, gone := range []string{"prod/docker-compose.yml:6:KFK3005", "prod/docker-compose.yml:10:KFK3001"} {
		if slices.Contains(got, gone) {
			t.Errorf("%s is not suppressed: %v", gone, got)
		}
	}
	for _, want := range []string{"prod/docker-compose.yml:12:KFK1001", "prod/docker-compose.yml:12:KFK9002"} {
		if !slices.Contains(got, want) {
			t.Errorf("want %s (a directive without reason suppresses nothing): %v", want, got)
		}
	}
	if rep.Summary.Suppressed != 2 || len(got) != len(before)-1 {
		t.Errorf("suppressed %d, findings %v (before %v): want exactly the two suppressed and one KFK9002 added", rep.Summary.Suppressed, got, before)
	}
}

// TestInlineSuppressionHCL: in Terraform the same-line form (`#` and `//`
// comments are both HCL comments) and the line-above form both work.
func TestInlineSuppressionHCL(t *testing.T) {
	t.Chdir(t.TempDir())
	isolate(t)
	topic := func(name, minISR, comment string) string {
		return "resource \"kafka_topic\" \"" + name + "\" {\n  name               = \"" + name + "\"\n  replication_factor = 3\n  partitions         = 3\n  config = {\n" +
			comment + "    \"min.insync.replicas\" = " + minISR + "\n  }\n}\n"
	}
	writeFile(t, "prod/topics/main.tf", topic("a", "1", "")+
		topic("b", "1 # kafkalint:ignore KFK1004 -- b is a replayable cache topic", "")+
		topic("c", "1", "    // kafkalint:ignore min-insync-replicas-one -- c is rebuilt nightly\n"))
	_, rep := lintJSON(t, "--no-inline-ignores", "prod")
	if n := strings.Count(strings.Join(found(rep), " "), "KFK1004"); n != 3 {
		t.Fatalf("fixture: want 3 KFK1004 findings without directives, got %v", found(rep))
	}
	_, rep = lintJSON(t, "prod")
	if diff := gocmp.Diff([]string{"prod/topics/main.tf:6:KFK1004"}, found(rep)); diff != "" || rep.Summary.Suppressed != 2 {
		t.Errorf("suppressed %d; findings mismatch (-want +got):\n%s", rep.Summary.Suppressed, diff)
	}
}
