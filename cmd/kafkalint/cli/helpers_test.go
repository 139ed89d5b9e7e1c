package cli

import (
	"slices"
	"strings"
	"testing"

	"github.com/kafkalint/kafkalint/policies"
)

// testRules are the rules the CLI tests' fixtures exercise. isolatedConfig
// turns every other rule off, so that rules added later do not change what
// these tests see (each rule has its own tests and examples).
var testRules = []string{
	"KFK1001", "KFK1002", "KFK1003", "KFK1004", "KFK3001", "KFK3005",
	"KFK4002", "KFK4003", "KFK9001", "KFK9002", "KFK9003",
}

// isolatedConfig is a .kafkalint.yaml holding the top-level lines top,
// then `rules:` with the entries in rules plus `off` for every rule
// outside testRules.
func isolatedConfig(t *testing.T, top, rules string) string {
	t.Helper()
	engine, err := policies.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString(top)
	b.WriteString("rules:\n")
	b.WriteString(rules)
	for _, r := range engine.Rules() {
		if !slices.Contains(testRules, r.ID) && !strings.Contains(rules, r.ID+":") {
			b.WriteString("  " + r.ID + ": off\n")
		}
	}
	return b.String()
}

// isolate writes isolatedConfig(t, "", "") as .kafkalint.yaml in the
// working directory.
func isolate(t *testing.T) {
	t.Helper()
	writeFile(t, ".kafkalint.yaml", isolatedConfig(t, "", ""))
}
