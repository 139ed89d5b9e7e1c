package plan

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/bundle"
	"github.com/open-policy-agent/opa/v1/compile"
	"github.com/open-policy-agent/opa/v1/ir"
	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/open-policy-agent/opa/v1/topdown"
)

// planOf plans one Rego v1 module for the entrypoints.
func planOf(t *testing.T, module string, eps ...string) *ir.Policy {
	t.Helper()
	m, err := ast.ParseModuleWithOpts("p.rego", module, ast.ParserOptions{RegoVersion: ast.RegoV1})
	if err != nil {
		t.Fatal(err)
	}
	b := &bundle.Bundle{Data: map[string]any{}, Modules: []bundle.ModuleFile{{Path: "p.rego", URL: "p.rego", Raw: []byte(module), Parsed: m}}}
	var buf bytes.Buffer
	c := compile.New().WithTarget(compile.TargetPlan).WithBundle(b).WithEntrypoints(eps...).
		WithRegoVersion(ast.RegoV1).WithOutput(&buf)
	if err := c.Build(context.Background()); err != nil {
		t.Fatal(err)
	}
	var p ir.Policy
	if err := json.Unmarshal(c.Bundle().PlanModules[0].Raw, &p); err != nil {
		t.Fatal(err)
	}
	return &p
}

func compileOf(t *testing.T, module string, opts Options, eps ...string) *Program {
	t.Helper()
	prog, err := Compile(planOf(t, module, eps...), opts)
	if err != nil {
		t.Fatal(err)
	}
	return prog
}

// interpret evaluates data.<ep> with OPA's interpreter, as the reference.
func interpret(t *testing.T, module, ep string, input any) (ast.Value, error) {
	t.Helper()
	opts := []func(*rego.Rego){rego.Module("p.rego", module), rego.Query("data." + strings.ReplaceAll(ep, "/", "."))}
	if input != nil {
		opts = append(opts, rego.Input(input))
	}
	rs, err := rego.New(opts...).Eval(context.Background())
	if err != nil || len(rs) == 0 {
		return nil, err
	}
	return ast.InterfaceToValue(rs[0].Expressions[0].Value)
}

func TestSemanticsMatchInterpreter(t *testing.T) {
	const module = `package p

default d := "none"

d := "one" if input.one

s contains x if {
	some x in input.xs
	x > 1
}

o[k] := v if {
	some k, v in input.obj
	not startswith(k, "_")
}

n := count([x | some x in input.xs; x != 2])

either if input.a == 1
else := "b" if input.b == 1

f(x) := y if y := x * 2

fs := [f(x) | some x in input.xs]

last := input.xs[count(input.xs) - 1]

w := x if {
	x := s with input.xs as [5, 6]
}

wv := v if {
	v := input.deep.a with input.deep.a as 3
}

or_ if {
	input.a == 1
} else if {
	input.b == 1
}

lit := {"xs": input.xs, "n": count(input.xs), "a": input.a, "nested": {"one": input.one, "b": 2}}
`
	eps := []string{"p/d", "p/s", "p/o", "p/n", "p/either", "p/fs", "p/last", "p/w", "p/wv", "p/or_", "p/lit"}
	prog := compileOf(t, module, Options{}, eps...)
	inputs := []map[string]any{
		{},
		{"one": true, "xs": []any{1, 2, 3}, "obj": map[string]any{"a": 1, "_b": 2}, "a": 1},
		{"xs": []any{4}, "b": 1, "deep": map[string]any{"a": 1, "z": 2}},
		{"xs": "notalist", "obj": []any{1}},
	}
	for _, in := range inputs {
		iv, err := ast.InterfaceToValue(in)
		if err != nil {
			t.Fatal(err)
		}
		got, err := prog.EvalAll(context.Background(), iv, ast.NewObject())
		if err != nil {
			t.Fatalf("%v: %v", in, err)
		}
		for i, ep := range prog.Entrypoints() {
			want, err := interpret(t, module, ep, in)
			if err != nil {
				t.Fatal(err)
			}
			g := got[i]
			if g != nil { // rego's results are JSON: sets become arrays, keys strings
				x, err := ast.JSON(g)
				if err != nil {
					t.Fatal(err)
				}
				if g, err = ast.InterfaceToValue(x); err != nil {
					t.Fatal(err)
				}
			}
			if (want == nil) != (g == nil) || (want != nil && want.Compare(g) != 0) {
				t.Errorf("input %v: %s: VM %v, interpreter %v", in, ep, g, want)
			}
		}
	}
}

func TestConflictsAreErrorsNamingTheRule(t *testing.T) {
	const module = `package p

r := 1 if input.x
r := 2 if input.x

o[k] := 1 if k := "k"
o[k] := 2 if k := "k"

f(_) := 1
f(_) := 2

g := f(1)
`
	for _, tc := range []struct{ ep, fn, msg string }{
		{"p/r", "data.p.r", "rule data.p.r produced conflicting values"},
		{"p/o", "data.p.o", "object keys must be unique"},
		{"p/g", "data.p.f", "function data.p.f produced conflicting values for the same inputs"},
	} {
		prog := compileOf(t, module, Options{}, tc.ep)
		_, err := prog.Eval(context.Background(), tc.ep, ast.MustParseTerm(`{"x": true}`).Value, ast.NewObject())
		var perr *Error
		var terr *topdown.Error
		if !errors.As(err, &perr) || !errors.As(err, &terr) || perr.Func != tc.fn ||
			terr.Code != topdown.ConflictErr || !strings.HasPrefix(terr.Message, tc.msg) {
			t.Errorf("%s: error %v, want %s: %s: %s", tc.ep, err, tc.fn, topdown.ConflictErr, tc.msg)
		}
		_, ierr := interpret(t, module, tc.ep, map[string]any{"x": true})
		if ierr == nil || !strings.Contains(ierr.Error(), tc.msg) {
			t.Errorf("%s: the interpreter's error %v is not %q", tc.ep, ierr, tc.msg)
		}
	}
}

// TestBuiltinErrors: a builtin's error makes the call undefined, as in the
// interpreter (non-strict); a topdown.Halt ends the evaluation with an
// error naming the rule.
func TestBuiltinErrors(t *testing.T) {
	const module = `package p

soft := to_number("x")

hard := lower("x")
`
	halt := func(topdown.BuiltinContext, []*ast.Term, func(*ast.Term) error) error {
		return topdown.Halt{Err: errors.New("boom")}
	}
	prog := compileOf(t, module, Options{Builtins: map[string]topdown.BuiltinFunc{"lower": halt}}, "p/soft", "p/hard")
	v, err := prog.Eval(context.Background(), "p/soft", nil, ast.NewObject())
	if err != nil || v != nil {
		t.Errorf("soft: %v, %v; want undefined", v, err)
	}
	if want, err := interpret(t, module, "p/soft", nil); err != nil || want != nil {
		t.Errorf("soft: the interpreter's %v, %v", want, err)
	}
	_, err = prog.Eval(context.Background(), "p/hard", nil, ast.NewObject())
	var perr *Error
	if !errors.As(err, &perr) || perr.Func != "data.p.hard" || !strings.Contains(err.Error(), "boom") {
		t.Errorf("hard: error %v, want boom in data.p.hard", err)
	}
	if _, err := prog.EvalAll(context.Background(), nil, ast.NewObject()); err == nil {
		t.Error("EvalAll: no error")
	}
}

// TestUnsupportedIsACompileError: a statement the runtime does not execute
// is refused at Compile, naming the function and the statement.
func TestUnsupportedIsACompileError(t *testing.T) {
	pol := planOf(t, "package p\n\nr := 1\n", "p/r")
	f := pol.Funcs.Funcs[0]
	f.Blocks[0].Stmts = append([]ir.Stmt{&ir.CallDynamicStmt{Result: 5}}, f.Blocks[0].Stmts...)
	_, err := Compile(pol, Options{})
	if err == nil || !strings.Contains(err.Error(), f.Name) || !strings.Contains(err.Error(), "CallDynamicStmt") {
		t.Errorf("error %v does not name %s and the statement", err, f.Name)
	}
}

// TestCanceled: a canceled context stops the evaluation.
func TestCanceled(t *testing.T) {
	const module = `package p

n := count([1 | some i in numbers.range(1, 100000); i > 0])
`
	prog := compileOf(t, module, Options{}, "p/n")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := prog.Eval(ctx, "p/n", nil, ast.NewObject()); !errors.Is(err, context.Canceled) {
		t.Errorf("error %v, want context.Canceled", err)
	}
	v, err := prog.Eval(context.Background(), "p/n", nil, ast.NewObject())
	if err != nil || v.Compare(ast.Number("100000")) != 0 {
		t.Errorf("%v, %v", v, err)
	}
}

// TestIntTerms: indexes and counts past OPA's interned integers (512)
// come from the evaluation's table, which grows on demand and stops at
// maxIntTerms; the values are the interpreter's, in a second evaluation
// too (the table is kept with the pooled evaluation).
func TestIntTerms(t *testing.T) {
	const module = `package p

idx := [k | some k, _ in input.xs]

n := count(input.xs)

pairs := {[k, x] | some k, x in input.xs; k % 499 == 0}
`
	eps := []string{"p/idx", "p/n", "p/pairs"}
	prog := compileOf(t, module, Options{}, eps...)
	for _, size := range []int{3, 513, 3000} {
		xs := make([]any, size)
		for i := range xs {
			xs[i] = i * 3
		}
		in := map[string]any{"xs": xs}
		iv, err := ast.InterfaceToValue(in)
		if err != nil {
			t.Fatal(err)
		}
		for range 2 {
			got, err := prog.EvalAll(context.Background(), iv, ast.NewObject())
			if err != nil {
				t.Fatal(err)
			}
			for i, ep := range prog.Entrypoints() {
				want, err := interpret(t, module, ep, in)
				if err != nil {
					t.Fatal(err)
				}
				x, err := ast.JSON(got[i])
				if err != nil {
					t.Fatal(err)
				}
				g, err := ast.InterfaceToValue(x)
				if err != nil {
					t.Fatal(err)
				}
				if want.Compare(g) != 0 {
					t.Errorf("size %d: %s: VM and interpreter differ", size, ep)
				}
			}
		}
	}

	var e eval
	for _, i := range []int{-1, -600, 0, 511, 512, 1023, 1024, 5000, maxIntTerms - 1, maxIntTerms, maxIntTerms + 7} {
		got, want := e.intTerm(i), ast.InternedTerm(i)
		if !got.Equal(want) || got.String() != want.String() {
			t.Errorf("intTerm(%d) = %v, want %v", i, got, want)
		}
	}
	if len(e.ints) != maxIntTerms {
		t.Errorf("the table holds %d terms, want the bound %d", len(e.ints), maxIntTerms)
	}
	if first := e.intTerm(5000); e.intTerm(5000) != first {
		t.Error("intTerm(5000) is a new term on every call: the table does not keep it")
	}
}
