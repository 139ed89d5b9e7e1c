package policies

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kafkalint/kafkalint/internal/fifotest"
)

// Custom policy and data files are read as every other file (issue 14
// §1, §4): regular files only, without blocking, and inside the
// repository when its configuration named them.
func TestPolicyAndDataReads(t *testing.T) {
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "victim.yaml"), []byte("custom: {}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(outside, "x.rego"), []byte("package custom.x\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	repo := t.TempDir()
	fifotest.Make(t, filepath.Join(repo, "fifo.yaml"))
	if err := os.Symlink(filepath.Join(outside, "victim.yaml"), filepath.Join(repo, "data.yaml")); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(repo, "policies"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "x.rego"), filepath.Join(repo, "policies", "x.rego")); err != nil {
		t.Fatal(err)
	}
	for name, c := range map[string]struct {
		opts Options
		want string
	}{
		"fifo data":                 {Options{Data: []string{filepath.Join(repo, "fifo.yaml")}}, "cannot read data file: not a regular file (named pipe)"},
		"data symlinked out":        {Options{Data: []string{filepath.Join(repo, "data.yaml")}, DataRoot: repo}, "cannot read data file: resolves outside the linted root"},
		"policy symlinked out":      {Options{Policies: []string{filepath.Join(repo, "policies")}, PoliciesRoot: repo}, "cannot read policy: resolves outside the linted root"},
		"data outside, by the flag": {Options{Data: []string{filepath.Join(repo, "data.yaml")}}, ""},
	} {
		done := make(chan error, 1)
		go func() {
			_, err := Load(context.Background(), c.opts)
			done <- err
		}()
		select {
		case err := <-done:
			switch {
			case c.want == "" && err != nil:
				t.Errorf("%s: %v, want no error", name, err)
			case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
				t.Errorf("%s: %v, want %q", name, err, c.want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: loading blocked", name)
		}
	}
}
