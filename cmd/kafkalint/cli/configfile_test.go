package cli

import (
	"os"
	"strings"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"
)

// TestConfigFile: .kafkalint.yaml in a parent directory sets the fail
// level, rule severities, rules turned off, exclusions and environments;
// flags win over it.
func TestConfigFile(t *testing.T) {
	root := t.TempDir()
	t.Chdir(root)
	writeFile(t, ".kafkalint.yaml", isolatedConfig(t, strings.Join([]string{
		`fail_level: warning`,
		`environments:`,
		`  development: ["repo/sandbox-prod/**"]`,
		`exclude: ["**/testdata/**"]`,
		``,
	}, "\n"), "  KFK4003: off\n  duplicate-key: error\n"))
	writeFile(t, "repo/prod/server.properties", cleanBroker+"auto.leader.rebalance.enable=false\nnum.partitions=1\nnum.partitions=2\n")
	writeFile(t, "repo/prod/testdata/server.properties", "process.roles=broker\nnode.id=9\noffsets.topic.replication.factor=1\n")
	writeFile(t, "repo/sandbox-prod/server.properties", strings.Replace(cleanBroker, "node.id=4", "node.id=5", 1)+"offsets.topic.replication.factor=1\n")
	t.Chdir("repo")

	code, rep := lintJSON(t, ".")
	if diff := gocmp.Diff([]string{"prod/server.properties:8:KFK9001"}, found(rep)); diff != "" {
		t.Errorf("findings mismatch (-want +got):\n%s", diff)
	}
	if len(rep.Findings) == 1 && rep.Findings[0].Severity != "error" {
		t.Errorf("KFK9001 severity %s, want error from the configuration", rep.Findings[0].Severity)
	}
	if code != ExitFindings || rep.Summary.Files != 2 {
		t.Errorf("exit %d, summary.files %d; want 1 and 2 (testdata excluded)", code, rep.Summary.Files)
	}
	// sandbox-prod is development by configuration, so KFK1001 (production
	// only) is silent; --env wins over the configuration.
	_, rep = lintJSON(t, "--env", "production", "sandbox-prod")
	if diff := gocmp.Diff([]string{"sandbox-prod/server.properties:6:KFK1001"}, found(rep)); diff != "" {
		t.Errorf("--env production findings mismatch (-want +got):\n%s", diff)
	}
	// --fail-level wins over fail_level.
	if err := os.RemoveAll("prod/testdata"); err != nil {
		t.Fatal(err)
	}
	writeFile(t, "prod/server.properties", cleanBroker+"auto.leader.rebalance.enable=false\n")
	if code, _, _ := run(t, "lint", "prod"); code != ExitOK {
		t.Errorf("no finding left: exit %d", code)
	}
	writeFile(t, "../.kafkalint.yaml", isolatedConfig(t, "fail_level: info\n", "  KFK4003: info\n"))
	if code, _, _ := run(t, "lint", "prod"); code != ExitFindings {
		t.Errorf("fail_level info with an info finding: exit %d, want 1", code)
	}
	if code, _, _ := run(t, "lint", "--fail-level", "error", "prod"); code != ExitOK {
		t.Errorf("--fail-level error over fail_level info: exit %d, want 0", code)
	}
	// --config names another file.
	writeFile(t, "other.yaml", isolatedConfig(t, "", "  KFK4003: off\n"))
	if code, _, _ := run(t, "lint", "--config", "other.yaml", "--fail-level", "info", "prod"); code != ExitOK {
		t.Errorf("--config other.yaml: exit %d, want 0", code)
	}
}

func TestConfigKafkaVersion(t *testing.T) {
	t.Chdir(t.TempDir())
	writeFile(t, ".kafkalint.yaml", "kafka_version: \"3.7\"\n")
	writeFile(t, "prod/server.properties", cleanBroker)
	code, out, _ := run(t, "inspect", "prod")
	if code != ExitOK || !strings.Contains(out, `"kafka_version": "3.7"`) {
		t.Errorf("inspect with kafka_version 3.7: exit %d\n%s", code, out)
	}
	code, out, _ = run(t, "inspect", "--kafka-version", "3.9", "prod")
	if code != ExitOK || !strings.Contains(out, `"kafka_version": "3.9"`) {
		t.Errorf("--kafka-version 3.9 over kafka_version 3.7: exit %d\n%s", code, out)
	}
}

// TestConfigErrors: every mistake in the configuration is exit 2 with
// file:line:column, for lint, inspect and config verify alike.
func TestConfigErrors(t *testing.T) {
	tests := []struct {
		name, config, want string
	}{
		{"unknown key", "fail_level: error\nfaillevel: info\n", ".kafkalint.yaml:2:1: unknown key \"faillevel\""},
		{"unknown rule", "rules:\n  KFK0000: off\n", ".kafkalint.yaml:2:3: unknown rule \"KFK0000\""},
		{"unknown slug", "rules:\n  no-such-rule: error\n", ".kafkalint.yaml:2:3: unknown rule \"no-such-rule\""},
		{"bad severity", "rules:\n  KFK1001: critical\n", ".kafkalint.yaml:2:12: severity \"critical\" of KFK1001"},
		{"bad glob", "exclude:\n  - \"a/[b\"\n", ".kafkalint.yaml:2:5: bad glob \"a/[b\""},
		{"bad yaml", "rules: [\n", ".kafkalint.yaml:1: invalid YAML"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Chdir(t.TempDir())
			writeFile(t, ".kafkalint.yaml", tt.config)
			writeFile(t, "prod/server.properties", cleanBroker)
			for _, args := range [][]string{{"lint", "prod"}, {"inspect", "prod"}, {"config", "verify"}} {
				code, out, errOut := run(t, args...)
				if code != ExitError || !strings.Contains(errOut, "kafkalint: "+tt.want) || out != "" {
					t.Errorf("%v: exit %d, stdout %q, stderr:\n%s\nwant exit 2 and %q", args, code, out, errOut, tt.want)
				}
			}
		})
	}
}

func TestConfigVerify(t *testing.T) {
	t.Chdir(t.TempDir())
	// No file is a valid setup (every default), not a failure.
	if code, out, errOut := run(t, "config", "verify"); code != ExitOK || !strings.HasPrefix(out, "no .kafkalint.yaml or .kafkalint.yml in the working directory or its parents: lint uses the defaults") || errOut != "" {
		t.Errorf("verify without a file: exit %d, stdout %q, stderr %q; want 0 and a note", code, out, errOut)
	}
	writeFile(t, ".kafkalint.yaml", "rules:\n  KFK4002: off\n  quorum-even-voter-count: error\nexclude: [\"**/testdata/**\"]\n")
	code, out, _ := run(t, "config", "verify")
	if code != ExitOK || out != ".kafkalint.yaml: ok (2 rules configured, 1 exclude glob, 0 environment mappings)\n" {
		t.Errorf("verify: exit %d, %q", code, out)
	}
	if code, _, errOut := run(t, "config", "verify", "missing.yaml"); code != ExitError || !strings.Contains(errOut, "missing.yaml: cannot read configuration") {
		t.Errorf("verify missing.yaml: exit %d, %s", code, errOut)
	}
	if code, _, errOut := run(t, "lint", "--config", "missing.yaml", "."); code != ExitError || !strings.Contains(errOut, "missing.yaml: cannot read configuration") {
		t.Errorf("lint --config missing.yaml: exit %d, %s", code, errOut)
	}
	if code, out, _ := run(t, "config", "schema"); code != ExitOK || !strings.Contains(out, `"$schema": "https://json-schema.org/draft/2020-12/schema"`) {
		t.Errorf("config schema: exit %d\n%s", code, out)
	}
}
