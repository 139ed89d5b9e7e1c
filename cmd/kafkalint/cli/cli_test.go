package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/kafkalint/kafkalint/loader"
	"github.com/kafkalint/kafkalint/report"
)

// repoRoot is the module root, found from this file's location.
func repoRoot(t *testing.T) string {
	t.Helper()
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("cannot locate test file")
	}
	return filepath.Join(filepath.Dir(file), "..", "..", "..")
}

// run executes the CLI in-process.
func run(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = Run(t.Context(), args, Streams{Out: &out, Err: &errb})
	return code, out.String(), errb.String()
}

func lintJSON(t *testing.T, args ...string) (int, report.Report) {
	t.Helper()
	code, out, stderr := run(t, append([]string{"lint", "--format", "json"}, args...)...)
	var rep report.Report
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("lint output is not JSON: %v\nstdout:\n%s\nstderr:\n%s", err, out, stderr)
	}
	return code, rep
}

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestExitCodes(t *testing.T) {
	// Fixtures end with controller.listener.names so that KFK3016 (a
	// broker-only node must name the controller listener) stays silent.
	dir := t.TempDir()
	t.Chdir(dir)
	isolate(t)
	writeFile(t, "prod/clean/server.properties", "process.roles=broker\nnode.id=4\ncontroller.quorum.bootstrap.servers=c1.example.com:9093\ncontrolled.shutdown.enable=true\ncontroller.listener.names=CONTROLLER\n")
	writeFile(t, "prod/bad/server.properties", "process.roles=broker\nnode.id=4\ncontroller.quorum.bootstrap.servers=c1.example.com:9093\ncontrolled.shutdown.enable=true\noffsets.topic.replication.factor=1\nauto.leader.rebalance.enable=false\ncontroller.listener.names=CONTROLLER\n")
	writeFile(t, "prod/warn/server.properties", "process.roles=broker\nnode.id=4\ncontroller.quorum.bootstrap.servers=c1.example.com:9093\ncontrolled.shutdown.enable=true\nauto.leader.rebalance.enable=false\ncontroller.listener.names=CONTROLLER\n")
	writeFile(t, "broken/server.properties", "node.id=1\nlog.dirs=\\uZZZZ\n")
	tests := []struct {
		name string
		args []string
		want int
	}{
		{"clean", []string{"lint", "prod/clean"}, ExitOK},
		{"error finding", []string{"lint", "prod/bad"}, ExitFindings},
		{"warning below default fail level", []string{"lint", "prod/warn"}, ExitOK},
		{"warning at fail level warning", []string{"lint", "--fail-level", "warning", "prod/warn"}, ExitFindings},
		{"info fail level", []string{"lint", "--fail-level=info", "prod/warn"}, ExitFindings},
		{"load error wins", []string{"lint", "prod/bad", "broken"}, ExitError},
		{"missing path", []string{"lint", "does-not-exist"}, ExitError},
		{"no path", []string{"lint"}, ExitError},
		{"bad format", []string{"lint", "--format", "xml", "prod/clean"}, ExitError},
		{"bad fail level", []string{"lint", "--fail-level", "fatal", "prod/clean"}, ExitError},
		{"bad env", []string{"lint", "--env", "qa", "prod/clean"}, ExitError},
		{"bad kafka version", []string{"lint", "--kafka-version", "four", "prod/clean"}, ExitError},
		{"unknown flag", []string{"lint", "--nope", "prod/clean"}, ExitError},
		{"unknown command", []string{"frobnicate"}, ExitError},
		{"development env silences production rules", []string{"lint", "--env", "development", "prod/bad"}, ExitOK},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := run(t, tt.args...)
			if code != tt.want {
				t.Errorf("exit code = %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tt.want, out, errOut)
			}
		})
	}
}

func TestLoadErrorDoesNotHideOtherFiles(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	isolate(t)
	writeFile(t, "prod/bad/server.properties", "process.roles=broker\nnode.id=4\ncontroller.quorum.bootstrap.servers=c1.example.com:9093\ncontrolled.shutdown.enable=true\noffsets.topic.replication.factor=1\ncontroller.listener.names=CONTROLLER\n")
	writeFile(t, "prod/broken/server.properties", "node.id=1\n\nlog.dirs=/data\\u12\n")
	code, rep := lintJSON(t, ".")
	if code != ExitError {
		t.Errorf("exit code = %d, want %d", code, ExitError)
	}
	wantErr := []report.LoadError{{File: "prod/broken/server.properties", Line: 3, Message: "invalid properties file: invalid \\uXXXX escape"}}
	if len(rep.Errors) != 1 || rep.Errors[0].File != wantErr[0].File || rep.Errors[0].Line != wantErr[0].Line || !strings.Contains(rep.Errors[0].Message, "\\u") {
		t.Errorf("errors = %+v, want one at %s:%d about the \\u escape", rep.Errors, wantErr[0].File, wantErr[0].Line)
	}
	if len(rep.Findings) != 1 || rep.Findings[0].ID != "KFK1001" || rep.Findings[0].File != "prod/bad/server.properties" || rep.Findings[0].Line != 5 {
		t.Errorf("findings = %+v, want KFK1001 at prod/bad/server.properties:5", rep.Findings)
	}
	if rep.Summary.Files != 2 {
		t.Errorf("summary.files = %d, want 2", rep.Summary.Files)
	}
}

func TestUnknownEnvironmentIsProductionSaidOnce(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	isolate(t)
	writeFile(t, "kafka/server.properties", "process.roles=broker\nnode.id=4\ncontroller.quorum.bootstrap.servers=c1.example.com:9093\ncontrolled.shutdown.enable=true\noffsets.topic.replication.factor=1\ncontroller.listener.names=CONTROLLER\n")
	_, rep := lintJSON(t, "kafka")
	if len(rep.Findings) != 1 {
		t.Fatalf("findings = %+v, want one", rep.Findings)
	}
	// The hint is the summary's, not the message's (issue 16: it was 230
	// characters on most findings).
	f := rep.Findings[0]
	if f.Environment != "unknown" || strings.Contains(f.Message, ".kafkalint.yaml") || rep.Summary.UnknownEnvironment != 1 {
		t.Errorf("finding = %+v, summary %+v; want environment unknown, no hint in the message, unknown_environment 1", f, rep.Summary)
	}
	_, out, _ := run(t, "lint", "--no-color", "kafka")
	if !strings.HasSuffix(out, "; environment unknown for 1 file, treated as production; declare it in .kafkalint.yaml\n") || strings.Count(out, ".kafkalint.yaml") != 1 {
		t.Errorf("text output:\n%s\nwant the hint once, on the summary line", out)
	}
	_, rep = lintJSON(t, "--env", "production", "kafka")
	if len(rep.Findings) != 1 || rep.Findings[0].Environment != "production" || rep.Summary.UnknownEnvironment != 0 {
		t.Errorf("with --env production: findings = %+v, summary %+v; want one, no unknown environment", rep.Findings, rep.Summary)
	}
	_, rep = lintJSON(t, "--env", "staging", "kafka")
	if len(rep.Findings) != 0 {
		t.Errorf("with --env staging: findings = %+v, want none", rep.Findings)
	}
}

func TestTextOutput(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	isolate(t)
	writeFile(t, "prod/server.properties", "process.roles=broker\nnode.id=4\ncontroller.quorum.bootstrap.servers=c1.example.com:9093\ncontrolled.shutdown.enable=true\nnum.partitions=1\nnum.partitions=2\ncontroller.listener.names=CONTROLLER\n")
	code, out, _ := run(t, "lint", "--no-color", "prod")
	want := "prod/server.properties:6:1: warning KFK9001 " // message checked by the rule's own tests
	if code != ExitOK || !strings.HasPrefix(out, want) || !strings.Contains(out, "(duplicate-key)\n    related: prod/server.properties:5\n") {
		t.Errorf("exit %d, output:\n%s\nwant a line starting %q with the related location", code, out, want)
	}
	if !strings.HasSuffix(out, "1 file, 1 cluster: 0 errors, 1 warning, 0 info\n") {
		t.Errorf("summary line wrong:\n%s", out)
	}
	if strings.Contains(out, "\x1b[") {
		t.Errorf("--no-color output has escape codes:\n%q", out)
	}
}

func TestRulesExplainVersion(t *testing.T) {
	t.Parallel()
	code, out, _ := run(t, "rules")
	if code != ExitOK || !strings.Contains(out, "\nKFK1001  offsets-topic-") {
		t.Errorf("rules: exit %d\n%s", code, out)
	}
	for _, arg := range []string{"KFK3005", "combined-roles-in-production", "kfk3005"} {
		code, out, _ = run(t, "explain", arg)
		if code != ExitOK || !strings.HasPrefix(out, "# KFK3005 combined-roles-in-production\n") {
			t.Errorf("explain %s: exit %d\n%s", arg, code, out)
		}
	}
	if code, _, errOut := run(t, "explain", "KFK0000"); code != ExitError || !strings.Contains(errOut, "unknown rule") {
		t.Errorf("explain KFK0000: exit %d, stderr %q", code, errOut)
	}
	if code, out, _ := run(t, "version"); code != ExitOK || !strings.HasPrefix(out, "kafkalint ") {
		t.Errorf("version: exit %d, %q", code, out)
	}
}

func TestInspectIsThePolicyInput(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	writeFile(t, "dev/a/server.properties", "process.roles=broker,controller\nnode.id=1\ncontroller.quorum.voters=1@localhost:9093\nmin.insync.replicas=${env:MIN_ISR}\n")
	code, out, _ := run(t, "inspect", "dev")
	if code != ExitOK {
		t.Fatalf("inspect exit %d\n%s", code, out)
	}
	var got struct {
		Clusters []struct {
			Name  string `json:"name"`
			Nodes []struct {
				Roles    []string `json:"roles"`
				Settings map[string]struct {
					Value   any    `json:"value"`
					Unknown bool   `json:"unknown"`
					Source  string `json:"source"`
				} `json:"settings"`
			} `json:"nodes"`
		} `json:"clusters"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Clusters) != 1 || len(got.Clusters[0].Nodes) != 1 {
		t.Fatalf("clusters = %+v", got.Clusters)
	}
	n := got.Clusters[0].Nodes[0]
	if s := n.Settings["min.insync.replicas"]; !s.Unknown || s.Value != nil {
		t.Errorf("placeholder setting = %+v, want unknown with no value", s)
	}
	if s := n.Settings["node.id"]; s.Value != float64(1) || s.Source != "explicit" {
		t.Errorf("node.id = %+v, want typed 1, explicit", s)
	}
	if s := n.Settings["offsets.topic.replication.factor"]; s.Value != float64(3) || s.Source != "default" {
		t.Errorf("offsets.topic.replication.factor = %+v, want Kafka's default 3", s)
	}
}

// TestRuntimePolicyErrorDoesNotHideOtherClusters: a policy that fails at
// run time on one cluster turns that cluster into an error entry; the other
// clusters are still reported, and the run exits 2.
func TestRuntimePolicyErrorDoesNotHideOtherClusters(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, ".kafkalint.yaml"), isolatedConfig(t, "", ""))
	writeFile(t, filepath.Join(dir, "prod", "good", "server.properties"), "process.roles=broker\nnode.id=4\ncontroller.quorum.bootstrap.servers=c1.example.com:9093\ncontroller.listener.names=CONTROLLER\ncontrolled.shutdown.enable=true\noffsets.topic.replication.factor=1\n")
	writeFile(t, filepath.Join(dir, "prod", "boom", "server.properties"), "process.roles=broker\nnode.id=5\ncontroller.quorum.bootstrap.servers=c9.example.com:9093\ncontroller.listener.names=CONTROLLER\ncontrolled.shutdown.enable=true\n")
	writeFile(t, filepath.Join(dir, "policy", "boom.rego"), `# METADATA
# title: Fails at run time
# description: Two values for one complete rule on clusters with a file named boom.
# schemas:
#   - input: schema.cluster
# custom:
#   id: ACME999
#   severity: error
#   scope: all
package custom.test["boom"]

import data.kafkalint.lib.result

report contains result.missing(node, "x", _message) if {
	some node in input.nodes
	contains(node.file, "boom")
}

_message := "one" if input.name != ""

_message := "two" if input.name != ""
`)
	code, rep := lintJSON(t, "--config", filepath.Join(dir, ".kafkalint.yaml"), "--policy", filepath.Join(dir, "policy"), filepath.Join(dir, "prod"))
	if code != ExitError {
		t.Errorf("exit code = %d, want %d", code, ExitError)
	}
	if len(rep.Errors) != 1 || rep.Errors[0].File != filepath.Join(dir, "prod", "boom", "server.properties") || !strings.Contains(rep.Errors[0].Message, "the custom policies failed") {
		t.Errorf("errors = %+v, want one naming the boom cluster", rep.Errors)
	}
	if len(rep.Findings) != 1 || rep.Findings[0].ID != "KFK1001" || rep.Findings[0].File != filepath.Join(dir, "prod", "good", "server.properties") {
		t.Errorf("findings = %+v, want the good cluster's KFK1001", rep.Findings)
	}
}

// TestInspectStreamsTheSameJSON: inspect writes one cluster at a time; the
// result must equal encoding the whole model at once.
func TestInspectStreamsTheSameJSON(t *testing.T) {
	t.Parallel()
	res, err := loader.Load([]string{filepath.Join(repoRoot(t), "examples")}, loader.Options{Dir: repoRoot(t)})
	if err != nil {
		t.Fatal(err)
	}
	links := []loader.SkippedLink{{Path: "a/.env", Reason: "symlink leaves the root"}}
	for _, r := range []*loader.Result{res, {Files: 1, Errors: []*loader.Error{{File: "x", Message: "y"}}}, {SkippedLinks: links}} {
		var want, got bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		clusters, errs := r.Clusters, r.Errors
		if clusters == nil {
			clusters = []*loader.Cluster{}
		}
		if errs == nil {
			errs = []*loader.Error{}
		}
		if err := enc.Encode(struct {
			Version  int                  `json:"version"`
			Clusters []*loader.Cluster    `json:"clusters"`
			Errors   []*loader.Error      `json:"errors"`
			Files    int                  `json:"files"`
			Skipped  int                  `json:"skipped"`
			Links    []loader.SkippedLink `json:"skipped_links,omitempty"`
		}{1, clusters, errs, r.Files, r.Skipped, r.SkippedLinks}); err != nil {
			t.Fatal(err)
		}
		if err := writeModel(&got, r); err != nil {
			t.Fatal(err)
		}
		if want.String() != got.String() {
			t.Errorf("streamed inspect output differs from encoding the whole model (%d vs %d bytes)", got.Len(), want.Len())
		}
	}
}
