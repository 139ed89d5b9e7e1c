package plan

import (
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
)

// TestAppendOwned: with the OPA of go.mod the evaluator appends in place
// (an OPA whose ast.Array has other fields makes appendsInPlace false:
// still correct, through Append, but the allocations come back), and an
// array grown by appendOwned is NewArray's array of the same elements:
// equal, with its hash and groundness, element by element.
func TestAppendOwned(t *testing.T) {
	if !appendsInPlace {
		t.Error("ast.Array's fields differ from arrayFields: update the mirror to OPA's ast/term.go")
	}
	elems := []*ast.Term{
		ast.StringTerm("a"), ast.IntNumberTerm(7), ast.ObjectTerm(ast.Item(ast.StringTerm("k"), ast.BooleanTerm(true))),
		ast.VarTerm("x"), ast.NullTerm(), ast.ArrayTerm(ast.StringTerm("b")),
	}
	for _, inPlace := range []bool{appendsInPlace, false} {
		arr := ast.NewArrayWithCapacity(0)
		for i, e := range elems {
			arr = appendTo(arr, e, inPlace)
			want := ast.NewArray(elems[:i+1]...)
			if arr.Compare(want) != 0 || arr.Hash() != want.Hash() || arr.IsGround() != want.IsGround() || arr.Len() != i+1 {
				t.Errorf("in place %v, after %d elements: %v (hash %d, ground %v), want %v (hash %d, ground %v)",
					inPlace, i+1, arr, arr.Hash(), arr.IsGround(), want, want.Hash(), want.IsGround())
			}
		}
	}
}
