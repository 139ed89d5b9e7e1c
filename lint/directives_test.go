package lint

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/kafkalint/kafkalint/loader"
	"github.com/kafkalint/kafkalint/policies"
	"github.com/kafkalint/kafkalint/report"
)

// testRules are the rules these tests' fixtures exercise. lintFile turns
// every other rule off, so that rules added later do not change what these
// tests see (each rule has its own tests and examples).
var testRules = []string{
	"KFK1001", "KFK1002", "KFK1003", "KFK1004", "KFK3001", "KFK3005",
	"KFK4002", "KFK4003", "KFK9001", "KFK9002", "KFK9003",
}

// cleanBroker is a production broker no rule reports.
const cleanBroker = "process.roles=broker\nnode.id=4\ncontroller.quorum.bootstrap.servers=c1.example.com:9093\ncontroller.listener.names=CONTROLLER\ncontrolled.shutdown.enable=true\n"

// lintFile lints one in-memory file with the rules outside testRules off
// and the severities of severity (id, severity pairs).
func lintFile(t *testing.T, noInlineIgnores bool, name, text string, severity ...string) report.Report {
	t.Helper()
	engine, err := policies.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	opts := Options{Engine: engine, Sources: []loader.Source{{Name: name, Data: []byte(text)}}, NoInlineIgnores: noInlineIgnores, Severity: map[string]string{}}
	for _, r := range engine.Rules() {
		if !slices.Contains(testRules, r.ID) {
			opts.Severity[r.ID] = Off
		}
	}
	for i := 0; i+1 < len(severity); i += 2 {
		opts.Severity[severity[i]] = severity[i+1]
	}
	rep, err := Run(t.Context(), nil, opts)
	if err != nil {
		t.Fatal(err)
	}
	return *rep
}

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
	t.Parallel()
	name, text := "prod/server.properties", strings.Join([]string{
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
	}, "\n")
	rep := lintFile(t, false, name, text)
	want := []string{
		"prod/server.properties:10:KFK9003", // KFK9001 named by the directive at line 10 matched nothing on line 12
		"prod/server.properties:14:KFK9001",
	}
	if diff := gocmp.Diff(want, found(rep)); diff != "" {
		t.Errorf("findings mismatch (-want +got):\n%s", diff)
	}
	if rep.Summary.Suppressed != 4 {
		t.Errorf("summary.suppressed = %d, want 4", rep.Summary.Suppressed)
	}
	if msg := message(t, rep, "KFK9003"); !strings.Contains(msg, "kafkalint:ignore KFK9001 suppressed nothing: no KFK9001 finding on line 12") {
		t.Errorf("KFK9003 message: %s", msg)
	}
	// --no-inline-ignores: every finding is back and no directive is reported.
	rep = lintFile(t, true, name, text)
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

func TestKFK9002FailDirectiveWithoutReason(t *testing.T) {
	t.Parallel()
	name, text := "prod/server.properties", cleanBroker+
		"# kafkalint:ignore KFK1001\noffsets.topic.replication.factor=1\n"+
		"# kafkalint:ignore KFK1002 single broker\ntransaction.state.log.replication.factor=1\n"+
		"# kafkalint:ignore KFK4003 --\nauto.leader.rebalance.enable=false\n"
	rep := lintFile(t, false, name, text)
	want := []string{
		"prod/server.properties:6:KFK9002", "prod/server.properties:7:KFK1001",
		"prod/server.properties:8:KFK9002", "prod/server.properties:9:KFK1002",
		"prod/server.properties:10:KFK9002", "prod/server.properties:11:KFK4003",
	}
	if diff := gocmp.Diff(want, found(rep)); diff != "" {
		t.Errorf("findings mismatch (-want +got):\n%s", diff)
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
	t.Parallel()
	name, text := "prod/server.properties", cleanBroker+"# kafkalint:ignore KFK1001 -- replay cluster\noffsets.topic.replication.factor=1\n"
	rep := lintFile(t, false, name, text)
	if len(rep.Findings) != 0 {
		t.Errorf("findings %v, want none", found(rep))
	}
}

func TestKFK9003FailStaleMisplacedUnknownMalformed(t *testing.T) {
	t.Parallel()
	name, text := "prod/server.properties", strings.Join([]string{
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
	}, "\n")
	rep := lintFile(t, false, name, text)
	want := []string{
		"prod/server.properties:1:KFK9003", "prod/server.properties:7:KFK9003", "prod/server.properties:9:KFK1001",
		"prod/server.properties:10:KFK9003", "prod/server.properties:12:KFK9003", "prod/server.properties:14:KFK9003",
	}
	if diff := gocmp.Diff(want, found(rep)); diff != "" {
		t.Errorf("findings mismatch (-want +got):\n%s", diff)
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
		1:  "kafkalint:ignore-file KFK3005 suppressed nothing: no KFK3005 finding in this file",
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
	t.Parallel()
	name, text := "prod/server.properties", "# kafkalint:ignore-file KFK4002 -- set by the operator\n"+
		"process.roles=broker\nnode.id=4\ncontroller.quorum.bootstrap.servers=c1.example.com:9093\ncontroller.listener.names=CONTROLLER\n"+
		"# kafkalint:ignore KFK1001 -- replay cluster\noffsets.topic.replication.factor=1\n"
	rep := lintFile(t, false, name, text)
	if len(rep.Findings) != 0 || rep.Summary.Suppressed != 2 {
		t.Errorf("findings %v, suppressed %d; want none and 2", found(rep), rep.Summary.Suppressed)
	}
}

// TestKFK9003SuccessRuleTurnedOff: a directive for a rule the
// configuration turns off is not reported as unused.
func TestKFK9003SuccessRuleTurnedOff(t *testing.T) {
	t.Parallel()
	name, text := "prod/server.properties", cleanBroker+"# kafkalint:ignore KFK1001 -- replay cluster\noffsets.topic.replication.factor=1\n"
	rep := lintFile(t, false, name, text, "KFK1001", Off)
	if len(rep.Findings) != 0 {
		t.Errorf("findings %v, want none", found(rep))
	}
}

// TestInlineSuppressionYAML: in YAML (here a compose file) a directive may
// also end the flagged line itself; the line-above form works too.
func TestInlineSuppressionYAML(t *testing.T) {
	t.Parallel()
	name, text := "prod/docker-compose.yml", strings.Join([]string{
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
	}, "\n")
	rep := lintFile(t, true, name, text)
	before := found(rep)
	for _, want := range []string{"prod/docker-compose.yml:6:KFK3005", "prod/docker-compose.yml:10:KFK3001", "prod/docker-compose.yml:12:KFK1001"} {
		if !slices.Contains(before, want) {
			t.Fatalf("fixture does not produce %s without directives: %v", want, before)
		}
	}
	rep = lintFile(t, false, name, text)
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
	t.Parallel()
	topic := func(name, minISR, comment string) string {
		return "resource \"kafka_topic\" \"" + name + "\" {\n  name               = \"" + name + "\"\n  replication_factor = 3\n  partitions         = 3\n  config = {\n" +
			comment + "    \"min.insync.replicas\" = " + minISR + "\n  }\n}\n"
	}
	name, text := "prod/topics/main.tf", topic("a", "1", "")+
		topic("b", "1 # kafkalint:ignore KFK1004 -- b is a replayable cache topic", "")+
		topic("c", "1", "    // kafkalint:ignore min-insync-replicas-one -- c is rebuilt nightly\n")
	rep := lintFile(t, true, name, text)
	if n := strings.Count(strings.Join(found(rep), " "), "KFK1004"); n != 3 {
		t.Fatalf("fixture: want 3 KFK1004 findings without directives, got %v", found(rep))
	}
	rep = lintFile(t, false, name, text)
	if diff := gocmp.Diff([]string{"prod/topics/main.tf:6:KFK1004"}, found(rep)); diff != "" || rep.Summary.Suppressed != 2 {
		t.Errorf("suppressed %d; findings mismatch (-want +got):\n%s", rep.Summary.Suppressed, diff)
	}
}
