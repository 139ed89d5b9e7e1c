package plan

import (
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"
)

// Lazy is an input collection the runtime reads without converting it to an
// ast value: converting a cluster's whole model costs more than the rules
// that read a part of it (most of a setting's fields are never read). The
// runtime reads a Lazy's elements (dot, scan, count, type checks) and hands
// everything else its Whole value: a builtin's arguments, a comparison,
// what is put into a value the runtime builds, a result. So no Lazy ever
// reaches OPA's code, and the values the runtime builds never hold one.
//
// A Lazy must describe exactly its Whole value: Get, Len and Until give
// Whole's elements, in Whole's order. Its ast.Value methods (Compare,
// Hash, String, Find, IsGround) are Whole's. A Lazy is read by one
// evaluation at a time, and is a pointer: the memo by value (Options.MemoByValue)
// keys it by its address (a Lazy of another kind is never memoized).
type Lazy interface {
	ast.Value
	// Object says whether Whole is an object (else an array).
	Object() bool
	// Get is the value at key (an object's key, an array's index); nil
	// when there is none.
	Get(key *ast.Term) *ast.Term
	// Len is the number of elements.
	Len() int
	// Until calls f with each key (index) and value in Whole's order (an
	// object's keys sorted) until f returns true, and says whether it did.
	Until(f func(key, value *ast.Term) bool) bool
	// Index is an array's i-th element, 0 <= i < Len (nil for an
	// object).
	Index(i int) *ast.Term
	// Whole is the collection as an ast value without any Lazy in it,
	// built once.
	Whole() *ast.Term
}

// ConstGetter is a Lazy that reads faster by the program's constant keys:
// GetConst(key) is Get(key) for a key that is one of the program's
// constants (a field name the rule writes), the same term at every read
// and alive while the Program is, so it may remember what it found by
// the term's address.
type ConstGetter interface {
	GetConst(key *ast.Term) *ast.Term
}

// Whole is t with a Lazy replaced by its Whole value.
func Whole(t *ast.Term) *ast.Term {
	if t == nil {
		return nil
	}
	switch t.Value.(type) {
	case ast.String, ast.Number, ast.Boolean, *ast.Array:
		return t // the kinds most values are, which no Lazy is: no interface lookup
	}
	if l, ok := t.Value.(Lazy); ok {
		return l.Whole()
	}
	return t
}

// lazyBuiltin is a builtin's result for arguments one of which may be a
// Lazy, when it can be had without the Lazy's whole value, or without
// OPA's builtin (ok); exactly OPA's result for the whole value.
type lazyBuiltin func(e *eval, args []*ast.Term) (result *ast.Term, ok bool)

// lazyBuiltins are the builtins rules call on the input's collections
// (a node's settings, its voters) most: count, object.keys, object.get
// with a key, and the type checks, which read a Lazy's elements or kind,
// and == and != (as values) between a Lazy and a value of another kind;
// sprintf, for the formats most messages use (sprintf.go); and the
// comparisons, ==, !=, in, count, the type checks and small integer
// arithmetic, object.get, array.slice and a few string functions on values
// that are no Lazy, without a call of OPA's (native.go).
var lazyBuiltins = map[string]lazyBuiltin{
	ast.Sprintf.Name:       sprintf,
	ast.IsObject.Name:      isType(func(l Lazy) bool { return l.Object() }, is[ast.Object]),
	ast.IsArray.Name:       isType(func(l Lazy) bool { return !l.Object() }, is[*ast.Array]),
	ast.IsSet.Name:         isType(never, is[ast.Set]),
	ast.IsString.Name:      isType(never, is[ast.String]),
	ast.IsNumber.Name:      isType(never, is[ast.Number]),
	ast.IsBoolean.Name:     isType(never, is[ast.Boolean]),
	ast.IsNull.Name:        isType(never, is[ast.Null]),
	ast.Equal.Name:         equality(false),
	ast.NotEqual.Name:      equality(true),
	ast.GreaterThan.Name:   comparison(func(c int) bool { return c > 0 }),
	ast.GreaterThanEq.Name: comparison(func(c int) bool { return c >= 0 }),
	ast.LessThan.Name:      comparison(func(c int) bool { return c < 0 }),
	ast.LessThanEq.Name:    comparison(func(c int) bool { return c <= 0 }),
	ast.Member.Name:        member,
	ast.Count.Name:         count,
	ast.Plus.Name:          arithmetic(func(x, y int64) int64 { return x + y }),
	ast.Minus.Name:         arithmetic(func(x, y int64) int64 { return x - y }),
	ast.Multiply.Name:      arithmetic(func(x, y int64) int64 { return x * y }),
	ast.ObjectKeys.Name: func(_ *eval, args []*ast.Term) (*ast.Term, bool) {
		l, ok := args[0].Value.(Lazy)
		if !ok || !l.Object() {
			return nil, false
		}
		if l.Len() == 0 {
			return ast.InternedEmptySet, true
		}
		keys := make([]*ast.Term, 0, l.Len())
		l.Until(func(k, _ *ast.Term) bool {
			keys = append(keys, k)
			return false
		})
		return ast.SetTerm(keys...), true
	},
	ast.ObjectGet.Name:  objectGet,
	ast.ArraySlice.Name: arraySlice,
	ast.TrimSpace.Name:  stringOp(strings.TrimSpace),
	ast.Upper.Name:      stringOp(strings.ToUpper),
	ast.EndsWith.Name:   endsWith,
}

// never is a type check's answer for a Lazy of a kind no Lazy has.
func never(Lazy) bool { return false }

// is is a type check's answer for a value that is no Lazy.
func is[T ast.Value](v ast.Value) bool {
	_, ok := v.(T)
	return ok
}

// kindsDiffer is == (ne false) or != (ne true) as a value, when one side
// is a Lazy and the other of another kind (kindDiffers): never equal.
func kindsDiffer(ne bool) lazyBuiltin {
	return func(_ *eval, args []*ast.Term) (*ast.Term, bool) {
		if kindDiffers(args[0].Value, args[1].Value) || kindDiffers(args[1].Value, args[0].Value) {
			return ast.InternedTerm(ne), true
		}
		return nil, false
	}
}
