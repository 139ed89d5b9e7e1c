package plan

import (
	"cmp"
	"math"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"
)

// The builtins below are OPA's own (topdown's comparison.go, type.go,
// aggregates.go, arithmetic.go, object.go, array.go, strings.go), written
// out for arguments that are no Lazy: most are called a hundred thousand
// times or more in a lint of bench/compare.sh's shared tree (1.4 million
// calls in all), and calling OPA's costs more than its work: the call
// copies topdown.BuiltinContext (some 40 words) by value, twice with the
// error wrapper, and goes through an iterator. Each body below is its OPA
// counterpart's, for the operand types it handles; any other operand (a
// Lazy, a type OPA answers with an error) is not ok, and OPA's builtin
// runs. TestNativeAsOPA and FuzzNativeAsOPA hold them to OPA's.

func isLazy(t *ast.Term) bool {
	_, ok := t.Value.(Lazy)
	return ok
}

// comparison is >, >=, < or <= (ok says which, from Compare's result).
func comparison(ok func(c int) bool) lazyBuiltin {
	return func(_ *eval, args []*ast.Term) (*ast.Term, bool) {
		if isLazy(args[0]) || isLazy(args[1]) {
			return nil, false
		}
		return ast.InternedTerm(ok(args[0].Value.Compare(args[1].Value))), true
	}
}

// equality is == (ne false) or != (ne true) as a value: Term.Equal on
// whole values, and kindsDiffer's answer for a Lazy of another kind.
func equality(ne bool) lazyBuiltin {
	differ := kindsDiffer(ne)
	return func(e *eval, args []*ast.Term) (*ast.Term, bool) {
		if isLazy(args[0]) || isLazy(args[1]) {
			return differ(e, args)
		}
		return ast.InternedTerm(args[0].Equal(args[1]) != ne), true
	}
}

// count, a Lazy's elements included (length, as LenStmt).
func count(e *eval, args []*ast.Term) (*ast.Term, bool) {
	n, ok := length(args[0])
	if !ok {
		return nil, false
	}
	return e.intTerm(n), true
}

// member is `x in collection` (internal.member_2) for a collection that is
// no Lazy.
func member(_ *eval, args []*ast.Term) (*ast.Term, bool) {
	x := args[0]
	if isLazy(x) {
		return nil, false
	}
	switch c := args[1].Value.(type) {
	case Lazy:
		return nil, false
	case ast.Set:
		return ast.InternedTerm(c.Contains(x)), true
	case *ast.Array:
		return ast.InternedTerm(c.Until(x.Equal)), true
	case ast.Object:
		return ast.InternedTerm(c.Until(func(_, v *ast.Term) bool { return x.Equal(v) })), true
	}
	return ast.InternedTerm(false), true
}

// arithmetic is +, - or * on two numbers that are integers in OPA's small
// range (the int32 window, where OPA computes on int64); anything else
// (sets for -, floats, big integers) is OPA's.
func arithmetic(op func(x, y int64) int64) lazyBuiltin {
	return func(_ *eval, args []*ast.Term) (*ast.Term, bool) {
		n1, ok1 := args[0].Value.(ast.Number)
		n2, ok2 := args[1].Value.(ast.Number)
		if !ok1 || !ok2 {
			return nil, false
		}
		x, ok1 := smallInt(n1)
		y, ok2 := smallInt(n2)
		if !ok1 || !ok2 {
			return nil, false
		}
		return ast.IntNumberTerm(int(op(x, y))), true
	}
}

// smallInt is topdown's: an integer within OPA's small range, the int32
// window.
func smallInt(n ast.Number) (int64, bool) {
	i, ok := n.Int64()
	return i, ok && math.MinInt32 <= i && i <= math.MaxInt32
}

// isType is a type check: isLazy answers for a Lazy (by its kind), is for
// any other value.
func isType(isLazy func(Lazy) bool, is func(ast.Value) bool) lazyBuiltin {
	return func(_ *eval, args []*ast.Term) (*ast.Term, bool) {
		if l, ok := args[0].Value.(Lazy); ok {
			return ast.InternedTerm(isLazy(l)), true
		}
		return ast.InternedTerm(is(args[0].Value)), true
	}
}

// arraySlice is array.slice(array, start, stop) on an array that is no
// Lazy, with integer bounds.
func arraySlice(_ *eval, args []*ast.Term) (*ast.Term, bool) {
	arr, ok := args[0].Value.(*ast.Array)
	n1, ok1 := args[1].Value.(ast.Number)
	n2, ok2 := args[2].Value.(ast.Number)
	if !ok || !ok1 || !ok2 {
		return nil, false
	}
	start, ok1 := n1.Int()
	stop, ok2 := n2.Int()
	if !ok1 || !ok2 {
		return nil, false
	}
	l := arr.Len()
	stop = max(0, min(stop, l))
	start = max(0, min(start, stop))
	if start == 0 && stop >= l {
		return args[0], true
	}
	return ast.NewTerm(arr.Slice(start, stop)), true
}

// stringOp is a builtin of one string that gives the string itself when
// op leaves it unchanged (trim_space, upper).
func stringOp(op func(string) string) lazyBuiltin {
	return func(_ *eval, args []*ast.Term) (*ast.Term, bool) {
		s, ok := args[0].Value.(ast.String)
		if !ok {
			return nil, false
		}
		if r := op(string(s)); r != string(s) {
			return ast.InternedTerm(r), true
		}
		return args[0], true
	}
}

// endsWith is endswith(string, suffix).
func endsWith(_ *eval, args []*ast.Term) (*ast.Term, bool) {
	s, ok1 := args[0].Value.(ast.String)
	suffix, ok2 := args[1].Value.(ast.String)
	if !ok1 || !ok2 {
		return nil, false
	}
	return ast.InternedTerm(strings.HasSuffix(string(s), string(suffix))), true
}

// objectGet is object.get(object, key, default) with a key that is no
// array (a path) and no Lazy: the object's value at key, else default.
func objectGet(_ *eval, args []*ast.Term) (*ast.Term, bool) {
	switch args[1].Value.(type) {
	case *ast.Array, Lazy:
		return nil, false
	}
	switch o := args[0].Value.(type) {
	case Lazy:
		if !o.Object() {
			return nil, false
		}
		return cmp.Or(o.Get(args[1]), args[2]), true
	case ast.Object:
		return cmp.Or(o.Get(args[1]), args[2]), true
	}
	return nil, false
}
