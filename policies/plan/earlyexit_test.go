package plan

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/ir"
	"github.com/open-policy-agent/opa/v1/topdown"
)

// TestEarlyExit: a function whose rules all give one constant stops at the
// first rule that holds, as OPA's interpreter does; one whose rules give
// different values runs them all, so a conflict is still an error.
func TestEarlyExit(t *testing.T) {
	const module = `package p

f(x) if x == 1

f(x) if lower(input.s) == "a"

default h(_) := false

h(x) if x == 1

h(x) if lower(input.s) == "a"

g(x) := 1 if x == 1

g(x) := 2 if lower(input.s) == "a"

f_first := f(1)

f_second := f(2)

f_none := f(3)

h_default := h(3)

g_conflict := g(1)
`
	calls := 0
	counted := func(bctx topdown.BuiltinContext, args []*ast.Term, iter func(*ast.Term) error) error {
		calls++
		return topdown.GetBuiltin("lower")(bctx, args, iter)
	}
	prog := compileOf(t, module, Options{Builtins: map[string]topdown.BuiltinFunc{"lower": counted}},
		"p/f_first", "p/f_second", "p/f_none", "p/h_default", "p/g_conflict")
	skips := map[string]bool{}
	for _, f := range prog.funcs {
		skips[f.name[strings.LastIndex(f.name, ".")+1:]] = f.skip != nil
	}
	if !skips["f"] || !skips["h"] || skips["g"] {
		t.Errorf("early exit (f, h, g) = (%v, %v, %v), want (true, true, false)", skips["f"], skips["h"], skips["g"])
	}
	for _, tc := range []struct {
		ep, s     string
		wantCalls int
	}{
		{"p/f_first", "a", 0}, // the first rule holds: the second is not run
		{"p/f_second", "a", 1},
		{"p/f_none", "b", 1},
		{"p/h_default", "b", 1},
	} {
		calls = 0
		input := map[string]any{"s": tc.s}
		in, err := ast.InterfaceToValue(input)
		if err != nil {
			t.Fatal(err)
		}
		got, err := prog.Eval(context.Background(), tc.ep, in, ast.NewObject())
		if err != nil {
			t.Fatalf("%s: %v", tc.ep, err)
		}
		want, err := interpret(t, module, tc.ep, input)
		if err != nil {
			t.Fatalf("%s: interpreter: %v", tc.ep, err)
		}
		if (got == nil) != (want == nil) || got != nil && got.Compare(want) != 0 {
			t.Errorf("%s: %v, the interpreter's %v", tc.ep, got, want)
		}
		if calls != tc.wantCalls {
			t.Errorf("%s: the second rule's builtin ran %d times, want %d", tc.ep, calls, tc.wantCalls)
		}
	}
	in, err := ast.InterfaceToValue(map[string]any{"s": "a"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := prog.Eval(context.Background(), "p/g_conflict", in, ast.NewObject()); err == nil {
		t.Error("g_conflict: no error; rules with different values must still conflict")
	}
	if _, err := interpret(t, module, "p/g_conflict", map[string]any{"s": "a"}); err == nil {
		t.Error("g_conflict: the interpreter gives no error")
	}
}

// TestWalkStmtsAsIRWalk: walkStmts visits the statements ir.Walk visits,
// in its order, over a plan with every statement kind that holds blocks
// (nested blocks, scans, not, with).
func TestWalkStmtsAsIRWalk(t *testing.T) {
	const module = `package p

f(x) := y if {
	y := [v | some v in x; not v == 2]
	every v in x { v > 0 }
}

g := n if {
	n := count({k | some k, v in input.m; v > f([1, 2, 3])[0]}) with input.m as {"a": 5}
}

h contains v if {
	some v in input.xs
	not startswith(v, "x")
}
`
	pol := planOf(t, module, "p/g", "p/h")
	var blocks []*ir.Block
	for _, f := range pol.Funcs.Funcs {
		blocks = append(blocks, f.Blocks...)
	}
	for _, p := range pol.Plans.Plans {
		blocks = append(blocks, p.Blocks...)
	}
	kinds := map[string]bool{}
	for _, b := range blocks {
		var got, want []ir.Stmt
		walkStmts(b.Stmts, func(s ir.Stmt) {
			got = append(got, s)
			kinds[fmt.Sprintf("%T", s)] = true
		})
		for _, s := range b.Stmts {
			_ = ir.Walk(stmtCollector(func(s ir.Stmt) { want = append(want, s) }), s)
		}
		if len(got) != len(want) {
			t.Fatalf("walkStmts visited %d statements, ir.Walk %d", len(got), len(want))
		}
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("statement %d: walkStmts %T, ir.Walk %T", i, got[i], want[i])
			}
		}
	}
	for _, k := range []string{"*ir.BlockStmt", "*ir.ScanStmt", "*ir.NotStmt", "*ir.WithStmt"} {
		if !kinds[k] {
			t.Errorf("the plan has no %s: the test does not cover it", k)
		}
	}
}

type stmtCollector func(ir.Stmt)

func (stmtCollector) Before(any) {}

func (stmtCollector) After(any) {}

func (f stmtCollector) Visit(x any) (ir.Visitor, error) {
	if s, ok := x.(ir.Stmt); ok {
		f(s)
	}
	return f, nil
}
