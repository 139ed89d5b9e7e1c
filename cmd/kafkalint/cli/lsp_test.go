package cli

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/kafkalint/kafkalint/lint"
)

// TestLSPConfigureReadsConfigEachTime: the language server's options come
// from the workspace's .kafkalint.yaml, read again for every lint.
func TestLSPConfigureReadsConfigEachTime(t *testing.T) {
	root := t.TempDir()
	props := filepath.Join(root, "prod", "server.properties")
	if err := os.MkdirAll(filepath.Dir(props), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(props, []byte("process.roles=broker\nnode.id=1\noffsets.topic.replication.factor=1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	configure := lspConfigure(policyFlags{})
	ids := func() []string {
		t.Helper()
		opts, err := configure(context.Background(), root)
		if err != nil {
			t.Fatal(err)
		}
		opts.Load.Dir = root
		rep, err := lint.Run(context.Background(), []string{root}, opts)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, f := range rep.Findings {
			out = append(out, f.ID)
		}
		return out
	}
	if got := ids(); !slices.Contains(got, "KFK1001") {
		t.Fatalf("without configuration: %v, want KFK1001 among them", got)
	}
	cfg := filepath.Join(root, ".kafkalint.yaml")
	if err := os.WriteFile(cfg, []byte("rules:\n  KFK1001: off\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if got := ids(); slices.Contains(got, "KFK1001") {
		t.Errorf("with KFK1001 off in .kafkalint.yaml: %v", got)
	}
}
