package plan

import (
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/topdown"
)

// opaSprintf is OPA's own sprintf, the oracle.
func opaSprintf(t *testing.T, format *ast.Term, list *ast.Term) *ast.Term {
	t.Helper()
	var out *ast.Term
	err := topdown.GetBuiltin(ast.Sprintf.Name)(topdown.BuiltinContext{}, []*ast.Term{format, list}, func(r *ast.Term) error {
		out = r
		return nil
	})
	if err != nil {
		t.Fatalf("OPA's sprintf(%v, %v): %v", format, list, err)
	}
	return out
}

// checkSprintf: where sprintf answers, OPA's answers the same.
func checkSprintf(t *testing.T, format string, args ...*ast.Term) (answered bool) {
	t.Helper()
	f, list := ast.StringTerm(format), ast.ArrayTerm(args...)
	got, ok := sprintf(nil, []*ast.Term{f, list})
	if !ok {
		return false
	}
	if want := opaSprintf(t, f, list); !got.Equal(want) {
		t.Fatalf("sprintf(%q, %v) = %v, OPA's %v", format, list, got, want)
	}
	return true
}

func TestSprintfAsOPA(t *testing.T) {
	s, n := ast.StringTerm, ast.IntNumberTerm
	for _, c := range []struct {
		format string
		args   []*ast.Term
		fast   bool // sprintf answers (else OPA's builtin runs)
	}{
		{"%s=%d (%s) is also the id of %s", []*ast.Term{s("node.id"), n(1), s("broker"), s("another node")}, true},
		{"%v and %v", []*ast.Term{s("a"), n(-42)}, true},
		{"100%% of %s", []*ast.Term{s("ünïcode")}, true},
		{"no verbs", nil, true},
		{"%s", []*ast.Term{ast.BooleanTerm(true)}, true},
		{"%v", []*ast.Term{ast.NullTerm()}, true},
		{"%s", []*ast.Term{ast.ArrayTerm(s("a"), n(1))}, true},
		{"%v", []*ast.Term{ast.ObjectTerm([2]*ast.Term{s("k"), s("v")})}, true},
		{"%d", []*ast.Term{n(0)}, true},
		{"%d", []*ast.Term{ast.NumberTerm("9223372036854775807")}, true},
		// OPA's builtin: floats, big integers, mismatched verbs and
		// arguments, other verbs, flags.
		{"%d", []*ast.Term{ast.FloatNumberTerm(1.5)}, false},
		{"%v", []*ast.Term{ast.NumberTerm("1.0")}, false},
		{"%d", []*ast.Term{ast.NumberTerm("92233720368547758070")}, false},
		{"%d", []*ast.Term{s("x")}, false},
		{"%s", []*ast.Term{n(1)}, false},
		{"%s %s", []*ast.Term{s("x")}, false},
		{"%s", []*ast.Term{s("x"), s("y")}, false},
		{"%q", []*ast.Term{s("x")}, false},
		{"%5s", []*ast.Term{s("x")}, false},
		{"%.2f", []*ast.Term{ast.FloatNumberTerm(1.5)}, false},
		{"trailing %", nil, false},
	} {
		if got := checkSprintf(t, c.format, c.args...); got != c.fast {
			t.Errorf("sprintf(%q, %v) answered %v, want %v", c.format, c.args, got, c.fast)
		}
	}
}

func FuzzSprintfAsOPA(f *testing.F) {
	f.Add("%s=%d (%s) is %v%%", "a", int64(-3), "b", "1e3")
	f.Add("%v %v %s", "", int64(0), "%d", "0.5")
	f.Add("%d%", "x", int64(1), "y", "12345678901234567890")
	f.Fuzz(func(t *testing.T, format, a string, i int64, b, number string) {
		args := []*ast.Term{ast.StringTerm(a), ast.IntNumberTerm(int(i)), ast.StringTerm(b)}
		if x, err := ast.ParseTerm(number); err == nil {
			if _, ok := x.Value.(ast.Number); ok {
				args = append(args, x)
			}
		}
		for k := 0; k <= len(args); k++ {
			checkSprintf(t, format, args[:k]...)
		}
	})
}
