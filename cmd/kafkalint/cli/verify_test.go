package cli

import (
	"strings"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"
)

// TestConfigVerifyOnePass: config verify reports every problem of the file
// at once, suggests the rule or key meant, and rejects a Kafka version the
// catalog does not describe; a policy that does not compile is reported
// with the file's own problems.
func TestConfigVerifyOnePass(t *testing.T) {
	t.Chdir(t.TempDir())
	writeFile(t, ".kafkalint.yaml", "kafka_version: \"2.8\"\nfaillevel: info\nrules:\n  KFK10001: off\n  quorum-even-voters-count: error\n  KFK1001: critical\n")
	code, out, errOut := run(t, "config", "verify")
	want := []string{
		`kafkalint: .kafkalint.yaml:1:16: kafka_version "2.8" is not a Kafka version kafkalint knows: 3.7,`,
		`kafkalint: .kafkalint.yaml:2:1: unknown key "faillevel"; did you mean "fail_level"?`,
		`kafkalint: .kafkalint.yaml:4:3: unknown rule "KFK10001"; did you mean "KFK1001"?`,
		`kafkalint: .kafkalint.yaml:5:3: unknown rule "quorum-even-voters-count"; did you mean "quorum-even-voter-count"?`,
		`kafkalint: .kafkalint.yaml:6:12: severity "critical" of KFK1001 is not one of error, warning, info, off`,
	}
	if diff := gocmp.Diff(want, prefixes(errOut, want)); diff != "" || code != ExitError || out != "" {
		t.Errorf("exit %d, stdout %q; stderr mismatch (-want +got):\n%s", code, out, diff)
	}

	// The file's policies do not compile: their error comes with the
	// file's problems; a name near a built-in rule is still reported, a
	// name that may be a custom rule is not.
	writeFile(t, "pol/a.rego", "package x\nbroken {{\n")
	writeFile(t, ".kafkalint.yaml", "policies: [pol]\nfail_level: fatal\nrules:\n  ACME001: off\n  KFK10001: off\n")
	code, _, errOut = run(t, "config", "verify")
	want = []string{
		`kafkalint: .kafkalint.yaml:2:13: fail_level "fatal" is not one of error, warning, info`,
		`kafkalint: .kafkalint.yaml:5:3: unknown rule "KFK10001"; did you mean "KFK1001"?`,
		`kafkalint: pol/a.rego:3: `,
	}
	if diff := gocmp.Diff(want, prefixes(errOut, want)); diff != "" || code != ExitError {
		t.Errorf("exit %d; stderr mismatch (-want +got):\n%s", code, diff)
	}
}

// prefixes is the lines of out cut to the length of the wanted line at the
// same position, so a test compares the part of each message it fixes.
func prefixes(out string, want []string) []string {
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	for i := range lines {
		if i < len(want) && len(lines[i]) > len(want[i]) {
			lines[i] = lines[i][:len(want[i])]
		}
	}
	return lines
}
