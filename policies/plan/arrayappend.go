package plan

import (
	"reflect"
	"unsafe"

	"github.com/open-policy-agent/opa/v1/ast"
)

// ArrayAppendStmt grows an array the evaluator owns until the
// comprehension that builds it is done (MakeArrayStmt's own, held by no
// other value: the Wasm backend appends in place too). ast.Array.Append
// returns a copy of the array's header for every element (a bulk lint
// appends some 700,000 elements: 45 MB of headers, 5 % of its
// allocations), so the evaluator appends in place, through a mirror of
// ast.Array's fields, when the mirror matches OPA's type field by field
// (name, type, offset); otherwise (another OPA version) it calls Append.

// arrayFields mirrors ast.Array (ast/term.go).
type arrayFields struct {
	elems  []*ast.Term
	hashs  []int
	hash   int
	ground bool
}

// appendsInPlace says whether arrayFields is ast.Array's layout.
var appendsInPlace = sameFields(reflect.TypeFor[ast.Array](), reflect.TypeFor[arrayFields]())

func sameFields(a, b reflect.Type) bool {
	if a.Size() != b.Size() || a.NumField() != b.NumField() {
		return false
	}
	for i := range a.NumField() {
		fa, fb := a.Field(i), b.Field(i)
		if fa.Name != fb.Name || fa.Type != fb.Type || fa.Offset != fb.Offset {
			return false
		}
	}
	return true
}

// appendOwned appends v to arr, an array the evaluator owns, as
// arr.Append(v) does (the element, its hash, the array's hash and
// groundness) and returns the array with v.
func appendOwned(arr *ast.Array, v *ast.Term) *ast.Array {
	return appendTo(arr, v, appendsInPlace)
}

// appendTo is appendOwned, in place when inPlace.
func appendTo(arr *ast.Array, v *ast.Term, inPlace bool) *ast.Array {
	if !inPlace {
		return arr.Append(v)
	}
	f := (*arrayFields)(unsafe.Pointer(arr)) // the layout is checked: appendsInPlace
	h := v.Value.Hash()
	f.elems = append(f.elems, v)
	f.hashs = append(f.hashs, h)
	f.hash += h
	f.ground = f.ground && v.IsGround()
	return arr
}
