package cli

import (
	"context"
	"os"
	"path/filepath"
	"runtime/debug"
	"testing"
)

// TestPolicyEngineRestoresGC: building the engine pauses the garbage
// collector for the built-in rules only, and leaves its setting as it
// found it either way.
func TestPolicyEngineRestoresGC(t *testing.T) {
	prev := debug.SetGCPercent(73)
	t.Cleanup(func() { debug.SetGCPercent(prev) })
	empty := filepath.Join(t.TempDir(), ".kafkalint.yaml")
	if err := os.WriteFile(empty, []byte("{}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	policy := filepath.Join(t.TempDir(), "p.rego")
	if err := os.WriteFile(policy, []byte("package custom.team[\"x\"]\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for name, flags := range map[string]policyFlags{"built-in": {}, "custom": {paths: []string{policy}}} {
		_, err := policyEngine(context.Background(), empty, flags)
		if got := debug.SetGCPercent(73); got != 73 {
			t.Errorf("%s: GC percent %d after policyEngine, want 73 as before", name, got)
		}
		if name == "built-in" && err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
}
