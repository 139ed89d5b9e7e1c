package plan

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/topdown"
)

// nativeBuiltins are the builtins native.go writes out, with their arity.
var nativeBuiltins = map[string]int{
	ast.Equal.Name: 2, ast.NotEqual.Name: 2,
	ast.GreaterThan.Name: 2, ast.GreaterThanEq.Name: 2, ast.LessThan.Name: 2, ast.LessThanEq.Name: 2,
	ast.Member.Name: 2, ast.Count.Name: 1,
	ast.Plus.Name: 2, ast.Minus.Name: 2, ast.Multiply.Name: 2,
	ast.IsObject.Name: 1, ast.IsArray.Name: 1, ast.IsSet.Name: 1, ast.IsString.Name: 1,
	ast.IsNumber.Name: 1, ast.IsBoolean.Name: 1, ast.IsNull.Name: 1,
	ast.ObjectGet.Name: 3, ast.ArraySlice.Name: 3, ast.TrimSpace.Name: 1, ast.Upper.Name: 1, ast.EndsWith.Name: 2,
}

// opaBuiltin is OPA's builtin name on args (whole values): its result, or
// nil when it has none or fails (undefined in a rule).
func opaBuiltin(name string, args []*ast.Term) *ast.Term {
	var out *ast.Term
	err := topdown.GetBuiltin(name)(topdown.BuiltinContext{}, args, func(r *ast.Term) error {
		out = r
		return nil
	})
	if err != nil {
		return nil
	}
	return out
}

// checkNative: where the runtime's builtin answers, OPA's gives the same
// value (on the Lazy arguments' whole values); where it does not, OPA's
// runs (callBuiltin). It reports whether it answered.
func checkNative(t *testing.T, name string, args []*ast.Term) bool {
	t.Helper()
	got, ok := lazyBuiltins[name](&eval{}, args)
	if !ok {
		return false
	}
	whole := make([]*ast.Term, len(args))
	for i, a := range args {
		whole[i] = Whole(a)
	}
	want := opaBuiltin(name, whole)
	if want == nil || got == nil || !got.Equal(want) || got.Value.String() != want.Value.String() {
		t.Fatalf("%s%v = %v, OPA's %v", name, whole, got, want)
	}
	return true
}

func nativeOperands() []*ast.Term {
	n := func(s string) *ast.Term { return ast.NumberTerm(json.Number(s)) }
	s := ast.StringTerm
	return []*ast.Term{
		n("0"), n("-0"), n("1"), n("1.0"), n("1e0"), n("2"), n("-3"), n("2147483647"), n("2147483648"), n("-2147483648"),
		n("-2147483649"), n("4611686018427387904"), n("99999999999999999999"), n("0.5"), n("1e400"),
		s(""), s("a"), s("b"), s("é"), s("\xff\xfe"), s("PLAINTEXT"), s(" a\t"), s("aB"), s("k"),
		ast.BooleanTerm(true), ast.BooleanTerm(false), ast.NullTerm(),
		ast.ArrayTerm(), ast.ArrayTerm(s("a"), n("1")), ast.ArrayTerm(n("1.0")), ast.ArrayTerm(s("b"), s("a"), s("c")), ast.ArrayTerm(s("k")), ast.SetTerm(), ast.SetTerm(s("a"), n("1")),
		ast.ObjectTerm(), ast.ObjectTerm([2]*ast.Term{s("k"), s("a")}), ast.ObjectTerm([2]*ast.Term{s("a"), n("1")}),
	}
}

// TestNativeAsOPA calls every native builtin on every pair of operands
// (whole values and Lazy ones) against OPA's own.
func TestNativeAsOPA(t *testing.T) {
	var wholes int
	ops := nativeOperands()
	var lazies []*ast.Term
	for _, o := range ops {
		if l := lazyOf(o.Value, &wholes); l != o.Value {
			lazies = append(lazies, ast.NewTerm(l))
		}
	}
	all := append(append([]*ast.Term{}, ops...), lazies...)
	for name, arity := range nativeBuiltins {
		if lazyBuiltins[name] == nil {
			t.Fatalf("%s has no native implementation", name)
		}
		answered := 0
		for _, a := range all {
			if arity == 1 {
				if checkNative(t, name, []*ast.Term{a}) {
					answered++
				}
				continue
			}
			for _, b := range all {
				if arity == 2 {
					if checkNative(t, name, []*ast.Term{a, b}) {
						answered++
					}
					continue
				}
				for _, c := range all {
					if checkNative(t, name, []*ast.Term{a, b, c}) {
						answered++
					}
				}
			}
		}
		if answered == 0 {
			t.Errorf("%s never answered without OPA", name)
		}
	}
}

// TestNativeAnswers: the common cases are answered natively (else the
// native builtins would be dead code, and the test above vacuous).
func TestNativeAnswers(t *testing.T) {
	n := func(s string) *ast.Term { return ast.NumberTerm(json.Number(s)) }
	s := ast.StringTerm
	for _, c := range []struct {
		name string
		args []*ast.Term
	}{
		{ast.GreaterThan.Name, []*ast.Term{n("2"), n("1")}},
		{ast.NotEqual.Name, []*ast.Term{s("a"), s("b")}},
		{ast.Equal.Name, []*ast.Term{n("1"), n("1.0")}},
		{ast.Member.Name, []*ast.Term{s("a"), ast.ArrayTerm(s("b"), s("a"))}},
		{ast.Count.Name, []*ast.Term{ast.ArrayTerm(s("b"))}},
		{ast.Minus.Name, []*ast.Term{n("-2147483648"), n("2147483647")}},
		{ast.Multiply.Name, []*ast.Term{n("2147483647"), n("2147483647")}},
		{ast.IsNumber.Name, []*ast.Term{n("1.5")}},
		{ast.ObjectGet.Name, []*ast.Term{ast.ObjectTerm([2]*ast.Term{s("k"), s("v")}), s("k"), ast.NullTerm()}},
		{ast.ArraySlice.Name, []*ast.Term{ast.ArrayTerm(s("a"), s("b"), s("c")), n("1"), n("2")}},
		{ast.TrimSpace.Name, []*ast.Term{s(" a ")}},
		{ast.Upper.Name, []*ast.Term{s("a")}},
		{ast.EndsWith.Name, []*ast.Term{s("ab"), s("b")}},
	} {
		if !checkNative(t, c.name, c.args) {
			t.Errorf("%s%v went to OPA", c.name, c.args)
		}
	}
}

func FuzzNativeAsOPA(f *testing.F) {
	f.Add("1", "1.0", "a")
	f.Add("-2147483648", "2147483647", "")
	f.Add("3e2", "0.1", "é")
	f.Fuzz(func(t *testing.T, x, y, z string) {
		// A word is a number when it is one alone, else a string.
		term := func(w string) *ast.Term {
			if jsonNumber(w) {
				return ast.NumberTerm(json.Number(w))
			}
			return ast.StringTerm(w)
		}
		a, b, c := term(x), term(y), term(z)
		operands := []*ast.Term{a, b, c, ast.ArrayTerm(a, b), ast.SetTerm(b, c), ast.ObjectTerm([2]*ast.Term{c, a})}
		for name, arity := range nativeBuiltins {
			for _, p := range operands {
				if arity == 1 {
					checkNative(t, name, []*ast.Term{p})
					continue
				}
				for _, q := range operands {
					if arity == 2 {
						checkNative(t, name, []*ast.Term{p, q})
						continue
					}
					for _, r := range operands {
						checkNative(t, name, []*ast.Term{p, q, r})
					}
				}
			}
		}
	})
}

// jsonNumber says whether w is a JSON number alone, without spaces (what
// a Number holds; OPA's comparison panics on anything else).
func jsonNumber(w string) bool {
	return w != "" && strings.TrimSpace(w) == w && (w[0] == '-' || w[0] >= '0' && w[0] <= '9') && json.Valid([]byte(w))
}
