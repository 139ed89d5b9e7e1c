package terraform

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// A variable declared `sensitive = true` marks its value, and every value
// derived from it, as sensitive: go-cty's marks travel through locals,
// template interpolation, for-expressions, conversions and the functions
// (cty reapplies an argument's marks to the result of a function that does
// not handle marks itself; the wrappers in funcs.go that do, keep them).
// Where a value leaves the evaluator (a Property, a Value, a line of a
// server_properties text) the mark becomes a Sensitive flag, and the
// loader never prints such a value.

// markKind is the type of the sensitive mark (marks are compared by value).
type markKind string

// sensitiveMark is the mark of a value derived from a sensitive variable.
const sensitiveMark markKind = "sensitive"

// markSensitive marks v and every value nested in it, so that an element
// taken out of a sensitive map or list (an iteration unmarks only the
// collection) stays sensitive.
func markSensitive(v cty.Value) (out cty.Value) {
	defer func() {
		if recover() != nil { // go-cty on odd input must not stop the linter
			out = v.Mark(sensitiveMark)
		}
	}()
	out, err := cty.Transform(v, func(_ cty.Path, v cty.Value) (cty.Value, error) {
		return v.Mark(sensitiveMark), nil
	})
	if err != nil {
		return v.Mark(sensitiveMark)
	}
	return out
}

// isSensitive reports whether marks hold the sensitive mark.
func isSensitive(marks cty.ValueMarks) bool {
	_, ok := marks[sensitiveMark]
	return ok
}

// declaredSensitive reports a variable block with `sensitive = true` (a
// literal, as Terraform requires).
func declaredSensitive(v *variable) bool {
	a, ok := v.attrs["sensitive"]
	if !ok {
		return false
	}
	val, diags := a.Expr.Value(&hcl.EvalContext{})
	if diags.HasErrors() || !val.IsKnown() || val.IsNull() || val.Type() != cty.Bool {
		return false
	}
	return val.True()
}
