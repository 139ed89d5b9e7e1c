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
	mods, err := BundleModules(false)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := New(context.Background(), mods); err != nil {
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
	engine, err := Builtin()
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
		rs, err := engine.query.Eval(ctx, rego.EvalParsedInput(in))
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
		if r.Engine == EngineGo {
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

// BenchmarkInputKeys converts one node of n keys (n and 2n below the
// loader's limit of keys per file): time and B/op grow with n.
func BenchmarkInputKeys(b *testing.B) {
	engine, err := Builtin()
	if err != nil {
		b.Fatal(err)
	}
	for _, n := range []int{20_000, 40_000} {
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
