package policies

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"

	"github.com/kafkalint/kafkalint/bench/gen"
	"github.com/kafkalint/kafkalint/loader"
	"github.com/kafkalint/kafkalint/policies/builtinplan"
	"github.com/kafkalint/kafkalint/policies/plan"
)

// Benchmarks of the rule engine (never timed assertions; run with
// go test -bench . -run '^$' ./policies). The clusters come from a
// generated bulk tree of 100 repositories x 10 files (bench/gen, from the
// real-world corpus; BENCH_REPOS changes the number), or from examples/
// when the corpus is absent.

func benchClusters(b *testing.B) []*loader.Cluster {
	b.Helper()
	dir := filepath.Join(repoRoot(), "examples")
	corpus := filepath.Join(repoRoot(), "..", "shared", "corpus", "real-world")
	tree := b.TempDir()
	repos := 100
	if n, err := strconv.Atoi(os.Getenv("BENCH_REPOS")); err == nil && n > 0 {
		repos = n
	}
	if _, err := gen.Write(tree, gen.Options{Repos: repos, Files: 10, Seed: 1, Corpus: corpus}); err == nil {
		dir = tree
	} else {
		b.Logf("bulk tree not generated (%v): using examples/", err)
	}
	clusters := loadClusters(b, dir)
	// A cluster a rule cannot evaluate (a rule's bug: lint reports it and
	// fails) would stop every benchmark; leave it out, and say so.
	engine, err := Builtin()
	if err != nil {
		b.Fatal(err)
	}
	ok := clusters[:0]
	var first error
	for _, c := range clusters {
		if _, err := engine.Evaluate(context.Background(), c); err != nil {
			first = cmp.Or(first, err)
			continue
		}
		ok = append(ok, c)
	}
	if first != nil {
		b.Logf("%d of %d clusters left out, their evaluation fails; the first: %.300v", len(clusters)-len(ok), len(clusters), first)
	}
	return ok
}

// BenchmarkCompile is the once-per-process cost: parse, compile (strict,
// schema-checked) and prepare the embedded rules.
func BenchmarkCompile(b *testing.B) {
	mods, err := bundleModules(false)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := newEngine(context.Background(), mods, false); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCompilePlan is the compiled engine's once-per-process cost:
// the built-in rules' plan (static data) made ready for the runtime.
func BenchmarkCompilePlan(b *testing.B) {
	pol := builtinplan.Policy()
	for b.Loop() {
		if _, err := plan.Compile(pol, plan.Options{Builtins: unlimited, MemoByValue: memoByValue}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEvaluate is Engine.Evaluate over every cluster of the tree:
// input conversion, evaluation and decoding of the findings.
func BenchmarkEvaluate(b *testing.B) {
	clusters := benchClusters(b)
	engine, err := Builtin()
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	for b.Loop() {
		for _, c := range clusters {
			if _, err := engine.Evaluate(ctx, c); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(len(clusters)*b.N)/b.Elapsed().Seconds(), "clusters/s")
}

// BenchmarkEvaluateParallel is Evaluate on all cores, as lint runs it.
func BenchmarkEvaluateParallel(b *testing.B) {
	clusters := benchClusters(b)
	engine, err := Builtin()
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		i := 0
		for pb.Next() {
			if _, err := engine.Evaluate(ctx, clusters[i%len(clusters)]); err != nil {
				b.Error(err)
				return
			}
			i++
		}
	})
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "clusters/s")
}

// BenchmarkInput compares the model-to-input conversions: the direct one
// the engine uses and ast.InterfaceToValue's JSON round trip.
func BenchmarkInput(b *testing.B) {
	clusters := benchClusters(b)
	for _, conv := range []struct {
		name string
		f    func(any) (ast.Value, error)
	}{{"direct", toValue}, {"InterfaceToValue", ast.InterfaceToValue}} {
		b.Run(conv.name, func(b *testing.B) {
			for b.Loop() {
				for _, c := range clusters {
					if _, err := conv.f(c); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}

// benchInputs is the built-in engine and the tree's clusters converted to
// Rego input once.
func benchInputs(b *testing.B) (*Engine, []ast.Value) {
	b.Helper()
	clusters := benchClusters(b)
	engine, err := builtinInterpreter()
	if err != nil {
		b.Fatal(err)
	}
	inputs := make([]ast.Value, len(clusters))
	for i, c := range clusters {
		if inputs[i], err = toValue(c); err != nil {
			b.Fatal(err)
		}
	}
	return engine, inputs
}

// BenchmarkQuery is the Rego evaluation alone, on inputs converted once.
func BenchmarkQuery(b *testing.B) {
	engine, inputs := benchInputs(b)
	ctx := context.Background()
	for b.Loop() {
		for _, in := range inputs {
			if _, err := engine.query.Eval(ctx, rego.EvalParsedInput(in)); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkDecode decodes the result sets of every cluster into findings.
func BenchmarkDecode(b *testing.B) {
	engine, inputs := benchInputs(b)
	ctx := context.Background()
	var results []rego.ResultSet
	for _, in := range inputs {
		rs, err := engine.query.Eval(ctx, rego.EvalParsedInput(in), rego.EvalGenerateJSON(keepAST))
		if err != nil {
			b.Fatal(err)
		}
		results = append(results, rs)
	}
	for b.Loop() {
		for _, rs := range results {
			if _, err := decodeReports(rs); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkRule evaluates each rule's report set alone over every cluster
// of the tree, to find the rules that dominate evaluation:
// go test -bench Rule/ -run '^$' -benchtime 1x ./policies
func BenchmarkRule(b *testing.B) {
	engine, inputs := benchInputs(b)
	ctx := context.Background()
	for _, r := range engine.Rules() {
		if r.Engine == engineGo {
			continue
		}
		b.Run(r.ID+"-"+r.Slug, func(b *testing.B) {
			q, err := engine.prepare(ctx, r.Path+".report")
			if err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				for _, in := range inputs {
					if _, err := q.Eval(ctx, rego.EvalParsedInput(in)); err != nil {
						b.Fatal(err)
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*len(inputs)), "µs/cluster")
		})
	}
}

// BenchmarkEvaluateEmpty is the fixed cost of one evaluation: every rule
// package on a cluster with nothing in it.
func BenchmarkEvaluateEmpty(b *testing.B) {
	engine, err := Builtin()
	if err != nil {
		b.Fatal(err)
	}
	empty := &loader.Cluster{
		Name: "empty", KafkaVersion: "4.1", KafkaVersionSource: "default", KafkaRelease: []int{4, 1},
		GroupedBy: []string{}, Files: []*loader.SourceFile{}, Nodes: []*loader.Node{}, Clients: []*loader.Client{},
		Meta: []*loader.MetaProperties{}, MirrorMakers: []*loader.MirrorMaker{}, Topics: []*loader.Topic{},
	}
	ctx := context.Background()
	for b.Loop() {
		findings, err := engine.Evaluate(ctx, empty)
		if err != nil {
			b.Fatal(err)
		}
		if len(findings) > 0 {
			b.Fatalf("an empty cluster has findings: %v", findings)
		}
	}
}

// Benchmarks of one cluster's size (issue 13): the rules that compare the
// nodes of a cluster must stay near-linear in its nodes, so each shape runs
// at doubling sizes; compare ns/op between neighbors (about 2x is linear,
// 4x quadratic). Each shape is written as .properties files and loaded, as
// lint would, so the clusters are the loader's.

// writeBenchFiles writes name -> content under a new temporary directory.
func writeBenchFiles(b *testing.B, files map[string]string) string {
	b.Helper()
	dir := b.TempDir()
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	return dir
}

// benchEvaluate evaluates every cluster loaded from files, b.N times, and
// reports the CPU time per run, the nodes of the largest cluster and the
// findings and related locations of one run.
func benchEvaluate(b *testing.B, files map[string]string) {
	b.Helper()
	clusters := loadClusters(b, writeBenchFiles(b, files))
	engine, err := Builtin()
	if err != nil {
		b.Fatal(err)
	}
	largest := 0
	for _, c := range clusters {
		largest = max(largest, len(c.Nodes))
	}
	ctx := context.Background()
	findings, related := 0, 0
	cpu := processCPU()
	for b.Loop() {
		findings, related = 0, 0
		for _, c := range clusters {
			fs, err := engine.Evaluate(ctx, c)
			if err != nil {
				b.Fatal(err)
			}
			findings += len(fs)
			for _, f := range fs {
				related += len(f.Related)
			}
		}
	}
	// CPU time per op counts every goroutine (the GC's too) and is the
	// figure to compare on a busy machine.
	b.ReportMetric(float64(processCPU()-cpu)/float64(b.N), "cpu-ns/op")
	b.ReportMetric(float64(largest), "nodes")
	b.ReportMetric(float64(findings), "findings")
	b.ReportMetric(float64(related), "related")
}

// sharedVotersFiles is a cluster of n nodes copied across n/6 folders: each
// folder holds 3 controllers (ids 1-3) and 3 brokers (ids 101-103) naming
// the same voters, as a monorepo of copied cluster configs does. A node's
// min.insync.replicas is minISR(i) for its index i.
func sharedVotersFiles(n int, minISR func(i int) int) map[string]string {
	const voters = "controller.quorum.voters=1@ctl-1.eu1.internal:9093,2@ctl-2.eu1.internal:9093,3@ctl-3.eu1.internal:9093\n"
	files := map[string]string{}
	for i := range n {
		folder, k := i/6, i%6
		var name, body string
		if k < 3 {
			name = fmt.Sprintf("svc-%04d/controller-%d.properties", folder, k+1)
			body = fmt.Sprintf("process.roles=controller\nnode.id=%d\nlisteners=CONTROLLER://ctl-%d.eu1.internal:9093\ncontroller.listener.names=CONTROLLER\n", k+1, k+1)
		} else {
			name = fmt.Sprintf("svc-%04d/broker-%d.properties", folder, k-2)
			body = fmt.Sprintf("process.roles=broker\nnode.id=%d\nlisteners=PLAINTEXT://kafka-%d.eu1.internal:9092\ncontroller.listener.names=CONTROLLER\n", 98+k, k-2)
		}
		files[name] = body + voters + fmt.Sprintf("min.insync.replicas=%d\n", minISR(i))
	}
	return files
}

// BenchmarkClusterSize: one cluster of n nodes sharing its voters, whose
// min.insync.replicas alternates (every node a party of a disagreement
// without a majority), or differs on one node only (the odd one out).
func BenchmarkClusterSize(b *testing.B) {
	for _, shape := range []struct {
		name   string
		minISR func(i int) int
	}{
		{"alternating", func(i int) int { return 1 + i%2 }},
		{"one-odd", func(i int) int {
			if i == 0 {
				return 3
			}
			return 2
		}},
	} {
		for _, n := range []int{100, 200, 400, 800} {
			b.Run(fmt.Sprintf("%s/n=%d", shape.name, n), func(b *testing.B) {
				benchEvaluate(b, sharedVotersFiles(n, shape.minISR))
			})
		}
	}
}

// BenchmarkLongVotersLine: 3 controllers stating a controller.quorum.voters
// line of n entries.
func BenchmarkLongVotersLine(b *testing.B) {
	for _, n := range []int{500, 1000, 2000} {
		b.Run(fmt.Sprintf("voters=%d", n), func(b *testing.B) {
			entries := make([]string, n)
			for j := range entries {
				entries[j] = fmt.Sprintf("%d@ctl-%d.eu1.internal:9093", j+1, j+1)
			}
			line := "controller.quorum.voters=" + strings.Join(entries, ",") + "\n"
			files := map[string]string{}
			for k := 1; k <= 3; k++ {
				files[fmt.Sprintf("kafka/controller-%d.properties", k)] = fmt.Sprintf(
					"process.roles=controller\nnode.id=%d\nlisteners=CONTROLLER://ctl-%d.eu1.internal:9093\ncontroller.listener.names=CONTROLLER\n%s", k, k, line)
			}
			benchEvaluate(b, files)
		})
	}
}

// BenchmarkOneDirectory: n ZooKeeper-mode brokers in one directory (weak
// evidence only) whose min.insync.replicas alternate.
func BenchmarkOneDirectory(b *testing.B) {
	for _, n := range []int{50, 100, 200} {
		b.Run(fmt.Sprintf("brokers=%d", n), func(b *testing.B) {
			files := map[string]string{}
			for i := range n {
				files[fmt.Sprintf("kafka/broker-%03d.properties", i)] = fmt.Sprintf(
					"broker.id=%d\nzookeeper.connect=zookeeper:2181\nlisteners=PLAINTEXT://kafka-%d:9092\nmin.insync.replicas=%d\n", i, i, 1+i%2)
			}
			benchEvaluate(b, files)
		})
	}
}

// BenchmarkInputKeys converts one node of n keys (n and 2n below the
// loader's limit of keys per file): time and B/op grow with n.
func BenchmarkInputKeys(b *testing.B) {
	engine, err := Builtin()
	if err != nil {
		b.Fatal(err)
	}
	for _, n := range []int{loader.MaxKeysPerFile/2 - 2, loader.MaxKeysPerFile - 2} {
		var src strings.Builder
		src.WriteString("process.roles=broker\nnode.id=1\n")
		for i := range n {
			fmt.Fprintf(&src, "k%d=v%d\n", i, i)
		}
		res, err := loader.LoadSources([]loader.Source{{Name: "server.properties", Data: []byte(src.String())}}, loader.Options{DefaultKeys: engine.DefaultKeys()})
		if err != nil || len(res.Clusters) != 1 {
			b.Fatalf("load: %v, %+v", err, res)
		}
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := toValue(res.Clusters[0]); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
