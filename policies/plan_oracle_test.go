package policies

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/storage"
	"github.com/open-policy-agent/opa/v1/topdown"

	"github.com/kafkalint/kafkalint/bench/gen"
	"github.com/kafkalint/kafkalint/loader"
	"github.com/kafkalint/kafkalint/policies/plan"
)

// rulesProgram compiles the plan of the built-in rules for the VM.
func rulesProgram(t testing.TB) *plan.Program {
	t.Helper()
	prog, err := plan.Compile(rulesPlan(t), plan.Options{MemoByValue: memoByValue})
	if err != nil {
		t.Fatal(err)
	}
	return prog
}

// paramsValue is data as the engine's store holds it: the default
// parameters under data.kafkalint.params.
func paramsValue(t testing.TB) ast.Value {
	t.Helper()
	p, err := DefaultParams()
	if err != nil {
		t.Fatal(err)
	}
	v, err := ast.InterfaceToValue(map[string]any{"kafkalint": map[string]any{"params": p}})
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// interpreterReports returns the interpreter's evaluation of every rule's
// report set, as an object keyed "kafkalint/rules/<category>/<slug>/report"
// like the plan's entrypoints: OPA's topdown over the engine's compiler and
// store, whose results are ast values (rego's are JSON-like, sets become
// arrays).
func interpreterReports(t testing.TB) func(ctx context.Context, input ast.Value) (ast.Object, error) {
	t.Helper()
	e, err := builtinInterpreter()
	if err != nil {
		t.Fatal(err)
	}
	body, err := e.compiler.QueryCompiler().Compile(ast.MustParseBody(
		`x = {concat("/", ["kafkalint/rules", cat, slug, "report"]): r | r := data.kafkalint.rules[cat][slug].report}`))
	if err != nil {
		t.Fatal(err)
	}
	return func(ctx context.Context, input ast.Value) (ast.Object, error) {
		txn := storage.NewTransactionOrDie(ctx, e.store)
		defer e.store.Abort(ctx, txn)
		var out ast.Object
		err := topdown.NewQuery(body).WithCompiler(e.compiler).WithStore(e.store).WithTransaction(txn).
			WithInput(ast.NewTerm(input)).Iter(ctx, func(qr topdown.QueryResult) error {
			out = qr[ast.Var("x")].Value.(ast.Object)
			return nil
		})
		return out, err
	}
}

// compareEngines evaluates one cluster with both engines and fails the
// test on any rule whose report set differs (or on an error in only one).
// The VM evaluates the cluster twice: on the whole input the interpreter
// gets and on the lazy input the engine gives it (lazyInput). It returns
// the number of findings compared.
func compareEngines(t *testing.T, prog *plan.Program, interp func(context.Context, ast.Value) (ast.Object, error), data ast.Value, c *loader.Cluster) int {
	t.Helper()
	ctx := context.Background()
	input, err := toValue(c)
	if err != nil {
		t.Fatal(err)
	}
	wantObj, wantErr := interp(ctx, input)
	n := 0
	for _, lazy := range []bool{false, true} {
		vmInput, conv := input, &converter{}
		if lazy {
			vmInput, conv = lazyInput(c)
		}
		got, gotErr := prog.EvalAll(ctx, vmInput, data)
		if conv.err != nil {
			t.Fatalf("%s: lazy input: %v", c.Name, conv.err)
		}
		n = compareReports(t, fmt.Sprintf("%s (lazy input %v)", c.Name, lazy), prog, wantObj, wantErr, got, gotErr)
	}
	return n
}

// compareReports compares the VM's report sets with the interpreter's.
func compareReports(t *testing.T, name string, prog *plan.Program, wantObj ast.Object, wantErr error, got []ast.Value, gotErr error) int {
	t.Helper()
	if (wantErr != nil) != (gotErr != nil) {
		t.Errorf("%s: VM error %v, interpreter error %v", name, gotErr, wantErr)
		return 0
	}
	if wantErr != nil {
		return 0
	}
	n := 0
	for i, ep := range prog.Entrypoints() {
		w := wantObj.Get(ast.StringTerm(ep))
		g := got[i]
		switch {
		case w == nil && g == nil:
		case w == nil || g == nil:
			t.Errorf("%s: %s: VM %v, interpreter %v", name, ep, g, w)
		case w.Value.Compare(g) != 0:
			t.Errorf("%s: %s: reports differ:\nVM:          %v\ninterpreter: %v", name, ep, g, w.Value)
		default:
			if s, ok := g.(ast.Set); ok {
				n += s.Len()
			}
		}
	}
	if wantObj.Len() != len(got) {
		t.Errorf("%s: interpreter has %d report sets, VM %d entrypoints", name, wantObj.Len(), len(got))
	}
	return n
}

// TestPlanMatchesInterpreter: for every cluster of examples/, the
// real-world corpus and generated bulk trees of both layouts, every rule's
// report set from the plan's VM equals the interpreter's.
func TestPlanMatchesInterpreter(t *testing.T) {
	prog := rulesProgram(t)
	q := interpreterReports(t)
	data := paramsValue(t)
	for _, dir := range clusterDirs(t, 12, 7) {
		clusters, findings := 0, 0
		for _, c := range loadClusters(t, dir) {
			findings += compareEngines(t, prog, q, data, c)
			clusters++
		}
		t.Logf("%s: %d clusters, %d findings", strings.TrimPrefix(dir, repoRoot()), clusters, findings)
		if findings == 0 {
			t.Errorf("%s: no finding: nothing was compared", dir)
		}
	}
}

// TestPlanConcurrent: one Program evaluates clusters from several
// goroutines at once (run with -race) with the results of one at a time.
func TestPlanConcurrent(t *testing.T) {
	prog := rulesProgram(t)
	data := paramsValue(t)
	ctx := context.Background()
	var inputs []ast.Value
	var want [][]ast.Value
	for _, c := range loadClusters(t, filepath.Join(repoRoot(), "examples")) {
		in, err := toValue(c)
		if err != nil {
			t.Fatal(err)
		}
		got, err := prog.EvalAll(ctx, in, data)
		if err != nil {
			t.Fatal(err)
		}
		inputs, want = append(inputs, in), append(want, got)
	}
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for i, in := range inputs {
				got, err := prog.EvalAll(ctx, in, data)
				if err != nil {
					t.Error(err)
					return
				}
				for j := range got {
					if (got[j] == nil) != (want[i][j] == nil) || (got[j] != nil && got[j].Compare(want[i][j]) != 0) {
						t.Errorf("cluster %d, %s: concurrent result differs", i, prog.Entrypoints()[j])
					}
				}
			}
		})
	}
	wg.Wait()
}

// clusterDirs are examples/, the real-world corpus and a generated tree of
// each layout (repos repositories of 10 files, from seed): the clusters the
// engines and inputs are compared on.
func clusterDirs(t *testing.T, repos int, seed uint64) []string {
	t.Helper()
	corpus := corpusOrSkip(t)
	dirs := []string{filepath.Join(repoRoot(), "examples"), corpus}
	for _, layout := range []string{gen.LayoutSeparate, gen.LayoutShared} {
		tree := t.TempDir()
		if _, err := gen.Write(tree, gen.Options{Repos: repos, Files: 10, Seed: seed, Corpus: corpus, Layout: layout}); err != nil {
			t.Fatal(err)
		}
		dirs = append(dirs, tree)
	}
	return dirs
}
