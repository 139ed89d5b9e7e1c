package plan

import (
	"context"
	"sync"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
)

const constantsModule = `package p

table := {"a": "x", "n": [1, 2]}

upper_case := {"a": upper("x")}

uses_input := {"a": input.x}

uses_data := data.settings

clock := time.now_ns()

of_clock := [clock]

of_table := [table, "more"]

f(x) := x

of_function := f(1)
`

// With these mocks, the planner plans of_table to read table through data
// (which the with statement upserts): of_table is no longer constant.
const mocksModule = constantsModule + `
mocked := t if {
	t := table with data.p.table as {"a": "mock"}
}

mocked_below := t if {
	t := of_table with data.p.table as {"a": "mock"}
}
`

// TestConstants: a rule that reads neither input nor data and calls only
// constant rules is constant; one that reads input or data, calls a
// builtin (even a deterministic one: upper), or calls a Rego function with
// arguments (never decided constant) is not.
func TestConstants(t *testing.T) {
	prog := compileOf(t, constantsModule, Options{}, "p/of_table", "p/upper_case", "p/uses_input", "p/uses_data", "p/of_clock", "p/of_function")
	want := map[string]bool{
		"data.p.table":       true,
		"data.p.upper_case":  false,
		"data.p.of_table":    true,
		"data.p.uses_input":  false,
		"data.p.uses_data":   false,
		"data.p.clock":       false,
		"data.p.of_clock":    false,
		"data.p.of_function": false,
	}
	got := map[string]bool{}
	for _, f := range prog.funcs {
		if f.memo {
			got[f.rule] = f.constant
		}
	}
	for rule, w := range want {
		g, ok := got[rule]
		if !ok {
			t.Errorf("%s: not a function of the plan", rule)
			continue
		}
		if g != w {
			t.Errorf("%s: constant %v, want %v", rule, g, w)
		}
	}
}

// TestConstantsKept: a constant rule's value is computed once and shared
// by later evaluations (the same term); a rule of input is computed again;
// a rule mocked with `with` has the mock's value there and its own
// elsewhere, as in the interpreter.
func TestConstantsKept(t *testing.T) {
	eps := []string{"p/table", "p/uses_input", "p/mocked", "p/mocked_below", "p/of_table"}
	prog := compileOf(t, mocksModule, Options{}, eps...)
	ctx := context.Background()
	input := ast.MustParseTerm(`{"x": "y"}`).Value
	eval := func(ep string) ast.Value {
		t.Helper()
		v, err := prog.Eval(ctx, ep, input, ast.NewObject())
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	// mocked first: what the with scope computes must not be kept.
	for _, ep := range append([]string{"p/mocked", "p/mocked_below"}, eps...) {
		want, err := interpret(t, mocksModule, ep, map[string]any{"x": "y"})
		if err != nil {
			t.Fatal(err)
		}
		if got := eval(ep); got.Compare(want) != 0 {
			t.Errorf("%s: got %v, want the interpreter's %v", ep, got, want)
		}
	}
	first, second := eval("p/table"), eval("p/table")
	if first != second {
		t.Errorf("table: a new value in each evaluation, want the kept one")
	}
	if a, b := eval("p/uses_input"), eval("p/uses_input"); a == b {
		t.Errorf("uses_input: the same term in two evaluations, want it computed again")
	}
}

// TestConstantsConcurrent: evaluations on several goroutines compute and
// share the kept values (run with -race to check the sharing).
func TestConstantsConcurrent(t *testing.T) {
	eps := []string{"p/table", "p/of_table", "p/mocked", "p/mocked_below"}
	prog := compileOf(t, mocksModule, Options{}, eps...)
	ctx := context.Background()
	input := ast.MustParseTerm(`{"x": "y"}`).Value
	want, err := prog.EvalAll(ctx, input, ast.NewObject())
	if err != nil {
		t.Fatal(err)
	}
	prog = compileOf(t, mocksModule, Options{}, eps...) // nothing kept yet
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for range 20 {
				got, err := prog.EvalAll(ctx, input, ast.NewObject())
				if err != nil {
					t.Error(err)
					return
				}
				for i := range got {
					if got[i].Compare(want[i]) != 0 {
						t.Errorf("%s: got %v, want %v", eps[i], got[i], want[i])
					}
				}
			}
		})
	}
	wg.Wait()
}
