package lint

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kafkalint/kafkalint/loader"
	"github.com/kafkalint/kafkalint/policies"
	"github.com/kafkalint/kafkalint/report"
)

// TestCacheSameReport: linting examples/ again with a warm cache evaluates
// no cluster, and both reports are the uncached run's.
func TestCacheSameReport(t *testing.T) {
	if testing.Short() {
		t.Skip("lints examples/ three times (seconds)")
	}
	root, err := filepath.Abs("../examples")
	if err != nil {
		t.Fatal(err)
	}
	engine, err := policies.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	opts := Options{Engine: engine, Load: loader.Options{Dir: root}}
	want := run(t, root, opts)
	opts.Cache = &Cache{}
	cold := run(t, root, opts)
	n := opts.Cache.Evaluated()
	if n < int64(want.Summary.Clusters) {
		t.Fatalf("cold run evaluated %d clusters, want every one (%d with nodes)", n, want.Summary.Clusters)
	}
	t.Logf("cold: %d clusters evaluated", n)
	warm := run(t, root, opts)
	if got := opts.Cache.Evaluated() - n; got != 0 {
		t.Errorf("warm run evaluated %d clusters, want 0", got)
	}
	if diff := cmp.Diff(want, cold); diff != "" {
		t.Errorf("uncached (-) and cold cached (+) reports differ:\n%s", diff)
	}
	if diff := cmp.Diff(want, warm); diff != "" {
		t.Errorf("uncached (-) and warm cached (+) reports differ:\n%s", diff)
	}
}

// TestCacheReevaluatesTheEditedCluster: after one file changes, only its
// cluster is evaluated again, and the report is the uncached run's.
func TestCacheReevaluatesTheEditedCluster(t *testing.T) {
	if testing.Short() {
		t.Skip("lints examples/properties three times (seconds)")
	}
	root := t.TempDir()
	if err := os.CopyFS(root, os.DirFS("../examples/properties")); err != nil {
		t.Fatal(err)
	}
	engine, err := policies.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	opts := Options{Engine: engine, Load: loader.Options{Dir: root}, Cache: &Cache{}}
	run(t, root, opts)
	n := opts.Cache.Evaluated()
	edited := filepath.Join(root, "production", "zookeeper-broker", "server.properties")
	data, err := os.ReadFile(edited)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(edited, append(data, "min.insync.replicas=1\n"...), 0o600); err != nil {
		t.Fatal(err)
	}
	got := run(t, root, opts)
	if d := opts.Cache.Evaluated() - n; d != 1 {
		t.Errorf("after editing one file, %d clusters were evaluated, want 1 (of %d)", d, n)
	}
	opts.Cache = nil
	if diff := cmp.Diff(run(t, root, opts), got); diff != "" {
		t.Errorf("uncached (-) and cached (+) reports differ:\n%s", diff)
	}
}

func run(t *testing.T, root string, opts Options) *report.Report {
	t.Helper()
	rep, err := Run(t.Context(), []string{root}, opts)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}
