package plan

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/topdown"
)

// TestMemoByValue: a function named in Options.MemoByValue runs once per
// value of its arguments in an evaluation, however the values are built;
// numbers written differently, another input under `with`, and another
// evaluation each run it again; and every result is the interpreter's.
func TestMemoByValue(t *testing.T) {
	const module = `package p

# lower counts the calls of f (the test's own lower).
f(x) := sprintf("%v:%v", [x, input.tag]) if lower("A") == "a"

equal_args := [f([1, {"a": 2}]), f(array.concat([1], [{"a": 2}])), f([1, object.union({}, {"a": 2})])]

spellings := [f(input.one), f(input.one_point_zero), f(input.one)]

scoped := [a, b, c] if {
	a := f(1)
	b := f(1) with input.tag as "other"
	c := f(1)
}
`
	cases := []struct {
		ep    string
		calls int
	}{
		{"p/equal_args", 1},
		{"p/spellings", 2},
		// The planner nests what follows a with in with statements (which
		// restore input), so the third call runs in a scope of its own too.
		{"p/scoped", 3},
	}
	for _, tc := range cases {
		t.Run(tc.ep, func(t *testing.T) {
			for _, memo := range []bool{false, true} {
				calls := 0
				opts := Options{Builtins: map[string]topdown.BuiltinFunc{
					"lower": func(_ topdown.BuiltinContext, _ []*ast.Term, iter func(*ast.Term) error) error {
						calls++
						return iter(ast.StringTerm("a"))
					},
				}}
				if memo {
					opts.MemoByValue = map[string]bool{"data.p.f": true}
				}
				prog := compileOf(t, module, opts, tc.ep)
				input := ast.MustParseTerm(`{"tag": "t", "one": 1, "one_point_zero": 1.0}`).Value
				got, err := prog.Eval(context.Background(), tc.ep, input, ast.NewObject())
				if err != nil {
					t.Fatal(err)
				}
				want, err := interpret(t, module, tc.ep, map[string]any{
					"tag": "t", "one": json.Number("1"), "one_point_zero": json.Number("1.0"),
				})
				if err != nil || want == nil {
					t.Fatalf("the interpreter: %v, %v", want, err)
				}
				if got.String() != want.String() {
					t.Errorf("memo %v: got %v, want the interpreter's %v", memo, got, want)
				}
				wantCalls := 3
				if memo {
					wantCalls = tc.calls
				}
				if calls != wantCalls {
					t.Errorf("memo %v: f ran %d times, want %d", memo, calls, wantCalls)
				}
				// A second evaluation keeps nothing of the first.
				calls = 0
				if _, err := prog.Eval(context.Background(), tc.ep, input, ast.NewObject()); err != nil {
					t.Fatal(err)
				}
				if calls != wantCalls {
					t.Errorf("memo %v, second evaluation: f ran %d times, want %d", memo, calls, wantCalls)
				}
			}
		})
	}
}

// TestMemoByValueUnknownName: a name that is no function of the plan (a
// rule renamed) is an error, not a memo that silently stopped working.
func TestMemoByValueUnknownName(t *testing.T) {
	const module = `package p

f(x) := x + 1

r := f(1)
`
	for _, name := range []string{"data.p.g", "data.p.r"} {
		if _, err := Compile(planOf(t, module, "p/r"), Options{MemoByValue: map[string]bool{name: true}}); err == nil {
			t.Errorf("MemoByValue %s: no error", name)
		}
	}
	if _, err := Compile(planOf(t, module, "p/r"), Options{MemoByValue: map[string]bool{"data.p.f": true}}); err != nil {
		t.Error(err)
	}
}

// TestIdentical: identical is equality with numbers compared as written.
func TestIdentical(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{`1`, `1`, true},
		{`1`, `1.0`, false},
		{`"a"`, `"a"`, true},
		{`"a"`, `"b"`, false},
		{`[1, {"a": {2, 3}}]`, `[1, {"a": {3, 2}}]`, true},
		{`[1, {"a": {2, 3}}]`, `[1, {"a": {2, 3.0}}]`, false},
		{`[1, 2]`, `[2, 1]`, false},
		{`{"a": 1, "b": [null]}`, `{"b": [null], "a": 1}`, true},
		{`{"a": 1}`, `{"a": 1.0}`, false},
		{`{1: "x"}`, `{1.0: "x"}`, false},
		{`{1, 2}`, `{1, 2.0}`, false},
		{`{"a"}`, `["a"]`, false},
		{`true`, `true`, true},
		{`null`, `false`, false},
	} {
		a, b := ast.MustParseTerm(tc.a).Value, ast.MustParseTerm(tc.b).Value
		if got := identical(a, b); got != tc.want {
			t.Errorf("identical(%s, %s) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
		if got := identical(b, a); got != tc.want {
			t.Errorf("identical(%s, %s) = %v, want %v", tc.b, tc.a, got, tc.want)
		}
	}
}
