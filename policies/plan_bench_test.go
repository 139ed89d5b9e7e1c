package policies

import (
	"context"
	"fmt"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"

	"github.com/kafkalint/kafkalint/loader"
)

// The built-in rules' evaluation of one cluster on each engine, on the
// clusters of the real-world corpus and of a generated bulk tree
// (benchClusters), inputs converted once: the interpreter's prepared query
// (what Evaluate runs today) against the plan's VM (EvalAll). ns/cluster is
// the figure to compare.

func benchEngineInputs(b *testing.B) map[string][]ast.Value {
	b.Helper()
	sets := map[string][]ast.Value{}
	_, sets["tree"] = benchInputs(b)
	for _, c := range loadClusters(b, corpusOrSkip(b)) {
		v, err := toValue(c)
		if err != nil {
			b.Fatal(err)
		}
		sets["corpus"] = append(sets["corpus"], v)
	}
	return sets
}

func BenchmarkEvalInterpreter(b *testing.B) {
	engine, err := builtinInterpreter()
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	sets := benchEngineInputs(b)
	for _, name := range []string{"corpus", "tree"} {
		inputs := sets[name]
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				for _, in := range inputs {
					if _, err := engine.query.Eval(ctx, rego.EvalParsedInput(in)); err != nil {
						b.Fatal(err)
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(inputs)), "ns/cluster")
		})
	}
}

func BenchmarkEvalPlan(b *testing.B) {
	prog := rulesProgram(b)
	data := paramsValue(b)
	ctx := context.Background()
	sets := benchEngineInputs(b)
	for _, name := range []string{"corpus", "tree"} {
		inputs := sets[name]
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				for _, in := range inputs {
					if _, err := prog.EvalAll(ctx, in, data); err != nil {
						b.Fatal(err)
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(inputs)), "ns/cluster")
		})
	}
}

// BenchmarkConvertAndEvalPlan is what the compiled engine spends per
// cluster, conversion included: the model converted whole (toValue, as
// before lazyinput.go) or lazily (lazyInput, what EvaluatePrepared does),
// then the plan evaluated on it.
func BenchmarkConvertAndEvalPlan(b *testing.B) {
	prog := rulesProgram(b)
	data := paramsValue(b)
	ctx := context.Background()
	sets := map[string][]*loader.Cluster{"corpus": loadClusters(b, corpusOrSkip(b)), "tree": benchClusters(b)}
	for _, name := range []string{"corpus", "tree"} {
		clusters := sets[name]
		for _, lazy := range []bool{false, true} {
			b.Run(fmt.Sprintf("%s/lazy=%v", name, lazy), func(b *testing.B) {
				for b.Loop() {
					for _, c := range clusters {
						var in ast.Value
						if lazy {
							in, _ = lazyInput(c)
						} else {
							var err error
							if in, err = toValue(c); err != nil {
								b.Fatal(err)
							}
						}
						if _, err := prog.EvalAll(ctx, in, data); err != nil {
							b.Fatal(err)
						}
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(clusters)), "ns/cluster")
			})
		}
	}
}
