package lint

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/kafkalint/kafkalint/baseline"
	"github.com/kafkalint/kafkalint/loader"
	"github.com/kafkalint/kafkalint/policies"
)

// TestEvaluationPanicIsAnError: a panic while evaluating one cluster is
// that cluster's errors entry; the other clusters' findings are reported.
// (Not parallel: beforeEvaluate is shared.)
func TestEvaluationPanicIsAnError(t *testing.T) {
	beforeEvaluate = func(c *loader.Cluster) {
		if strings.Contains(c.Name, "boom") {
			panic("injected")
		}
	}
	t.Cleanup(func() { beforeEvaluate = nil })
	rep, err := Run(t.Context(), nil, Options{Sources: []loader.Source{
		{Name: "prod/good/server.properties", Data: []byte(cleanBroker + "offsets.topic.replication.factor=1\n")},
		{Name: "prod/boom/server.properties", Data: []byte(strings.Replace(cleanBroker, "c1.example.com", "c9.example.com", 1))},
	}})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Errors) != 1 || rep.Errors[0].File != "prod/boom/server.properties" ||
		!strings.Contains(rep.Errors[0].Message, "was not evaluated: internal error (please report it): injected") {
		t.Errorf("errors = %+v, want the boom cluster's panic", rep.Errors)
	}
	if !strings.Contains(strings.Join(found(*rep), " "), "prod/good/server.properties:6:KFK1001") {
		t.Errorf("findings %v lack the good cluster's KFK1001", found(*rep))
	}
}

// TestLargeClustersLast: the clusters evaluated alone are handed out
// after the others, and the report keeps the loader's order all the same.
// (Not parallel: beforeEvaluate is shared.)
func TestLargeClustersLast(t *testing.T) {
	var order []string
	var mu sync.Mutex
	beforeEvaluate = func(c *loader.Cluster) {
		mu.Lock()
		defer mu.Unlock()
		order = append(order, c.Name)
	}
	t.Cleanup(func() { beforeEvaluate = nil })
	// One worker, so that the order evaluated is the order handed out (with
	// two, one may start the large cluster before the other, descheduled,
	// starts its small one: seen on a loaded machine).
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	// "a-large" sorts first: 256 brokers of one quorum, one cluster.
	var srcs []loader.Source
	for i := range 256 {
		broker := strings.Replace(cleanBroker, "node.id=4", fmt.Sprintf("node.id=%d", 100+i), 1)
		srcs = append(srcs, loader.Source{Name: fmt.Sprintf("a-large/b%03d/server.properties", i), Data: []byte(broker)})
	}
	for _, dir := range []string{"b-small", "c-small"} {
		srcs = append(srcs, loader.Source{Name: dir + "/server.properties", Data: []byte(strings.Replace(cleanBroker, "c1.example.com", dir+".example.com", 1))})
	}
	rep, err := Run(t.Context(), nil, Options{Sources: srcs})
	if err != nil {
		t.Fatal(err)
	}
	if len(order) != 3 || !strings.HasPrefix(order[2], "a-large") {
		t.Errorf("evaluated %v, want the large cluster last", order)
	}
	if len(rep.Linted) != len(srcs) || !slices.IsSorted(rep.Linted) {
		t.Errorf("linted %d files, sorted %v; want %d in the loader's (sorted) order", len(rep.Linted), slices.IsSorted(rep.Linted), len(srcs))
	}
}

// TestRunReleasesEveryModel: evaluation holds each cluster's model only
// while it is evaluated; nothing the run returns or keeps refers to one.
func TestRunReleasesEveryModel(t *testing.T) {
	t.Parallel()
	engine, err := policies.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	res, err := loader.LoadSources([]loader.Source{
		{Name: "prod/a/server.properties", Data: []byte(cleanBroker)},
		{Name: "prod/b/server.properties", Data: []byte(strings.Replace(cleanBroker, "c1.example.com", "c2.example.com", 1))},
	}, loader.Options{DefaultKeys: engine.DefaultKeys()})
	if err != nil {
		t.Fatal(err)
	}
	n := len(res.Clusters)
	_, files := evaluate(t.Context(), engine, res, nil, nil)
	if res.Clusters != nil || len(files) != n || n != 2 {
		t.Errorf("after evaluate: res.Clusters = %v, %d of %d clusters' files kept; want nil and every cluster's files", res.Clusters, len(files), n)
	}
}

// TestRunInterruptedWhileLoading: ctx ending while loading is a report
// that says so, not an error (the run's outputs still say what happened).
func TestRunInterruptedWhileLoading(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "server.properties"), []byte(cleanBroker), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	rep, err := Run(ctx, []string{dir}, Options{})
	if err != nil || len(rep.Errors) != 1 || !strings.HasPrefix(rep.Errors[0].Message, "not analyzed: context canceled") {
		t.Errorf("Run = %+v, %v; want one 'not analyzed' error", rep, err)
	}
	if _, err := Run(t.Context(), []string{dir}, Options{Load: loader.Options{Environment: "qa"}}); err == nil {
		t.Error("an unknown environment must be an error of Run")
	}
}

// TestRunBaseline: a recorded baseline hides exactly the findings it
// recorded; applied to a run with one finding gone, that entry is stale.
func TestRunBaseline(t *testing.T) {
	t.Parallel()
	dir := baseline.RealPath(t.TempDir())
	file := filepath.Join(dir, "prod", "server.properties")
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(text string) {
		if err := os.WriteFile(file, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(cleanBroker + "offsets.topic.replication.factor=1\ntransaction.state.log.replication.factor=1\n")
	b := &Baseline{Dir: dir, Why: "recorded in baseline b.json", Record: true}
	rep, err := Run(t.Context(), []string{file}, Options{Baseline: b})
	if err != nil {
		t.Fatal(err)
	}
	recorded := len(b.File.Findings)
	if recorded == 0 || len(rep.Findings) != 0 || rep.Summary.Baselined != recorded {
		t.Fatalf("record: %d entries, findings %v, baselined %d", recorded, found(*rep), rep.Summary.Baselined)
	}
	write(cleanBroker + "offsets.topic.replication.factor=1\n")
	b = &Baseline{Dir: dir, Why: "recorded in baseline b.json", File: b.File}
	if rep, err = Run(t.Context(), []string{file}, Options{Baseline: b}); err != nil {
		t.Fatal(err)
	}
	if len(rep.Findings) != 0 || len(b.Outcome.Stale) != 1 || b.Outcome.Stale[0].Rule != "KFK1002" ||
		len(b.Outcome.Pruned.Findings) != recorded-1 || rep.Suppressed[0].Suppression.Justification != "recorded in baseline b.json" {
		t.Errorf("apply: findings %v, outcome %+v", found(*rep), b.Outcome)
	}
}

// TestCompileRestoresGC: compiling pauses the garbage collector for the
// built-in rules only, and leaves its setting as it found it either way.
// (Not parallel: the GC setting is the process's.)
func TestCompileRestoresGC(t *testing.T) {
	prev := debug.SetGCPercent(73)
	t.Cleanup(func() { debug.SetGCPercent(prev) })
	policy := filepath.Join(t.TempDir(), "p.rego")
	if err := os.WriteFile(policy, []byte("package custom.team[\"x\"]\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for name, opts := range map[string]policies.Options{"built-in": {}, "custom": {Policies: []string{policy}}} {
		_, err := Compile(t.Context(), opts)
		if got := debug.SetGCPercent(73); got != 73 {
			t.Errorf("%s: GC percent %d after Compile, want 73 as before", name, got)
		}
		if name == "built-in" && err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
}

// TestEvaluatingLargeKeepsAndRestoresGC: without a tuner, the collector's
// target in force stays while a large cluster is evaluated (GOGC=off
// stays off), and it is the same afterwards. (With a tuner running, the
// large cluster gets largeGCPercent: TestTuneGC.)
// (Not parallel: the collector's setting is the process's.)
func TestEvaluatingLargeKeepsAndRestoresGC(t *testing.T) {
	orig := debug.SetGCPercent(100)
	t.Cleanup(func() { debug.SetGCPercent(orig) })
	for _, tc := range []struct{ set, during int }{{100, 100}, {300, 300}, {50, 50}, {-1, -1}, {1, 1}} {
		debug.SetGCPercent(tc.set)
		done := evaluatingLarge()
		during := debug.SetGCPercent(tc.during)
		done()
		after := debug.SetGCPercent(tc.set)
		if during != tc.during || after != tc.set {
			t.Errorf("GOGC %d: %d while a large cluster is evaluated (want %d), %d after", tc.set, during, tc.during, after)
		}
	}
}
