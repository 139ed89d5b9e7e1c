package plan

import (
	"maps"
	"testing"

	"github.com/open-policy-agent/opa/v1/ir"
)

// TestAliases: a copy is read in place exactly when nothing can tell the
// target from the source.
func TestAliases(t *testing.T) {
	const (
		in, data, arg, ret, tgt, src, other ir.Local = 0, 1, 2, 3, 10, 11, 12
	)
	loc := func(l ir.Local) ir.Operand { return ir.Operand{Value: l} }
	str := ir.Operand{Value: ir.StringIndex(0)}
	copyOf := func(from, to ir.Local) ir.Stmt { return &ir.AssignVarStmt{Source: loc(from), Target: to} }
	use := func(l ir.Local) ir.Stmt { return &ir.EqualStmt{A: loc(l), B: str} }
	block := func(stmts ...ir.Stmt) *ir.Block { return &ir.Block{Stmts: stmts} }
	for _, c := range []struct {
		name   string
		blocks []*ir.Block
		want   map[ir.Local]ir.Local
	}{
		{"argument copied", []*ir.Block{block(copyOf(arg, tgt), use(tgt))}, map[ir.Local]ir.Local{tgt: arg}},
		{"local copied, read in a nested block", []*ir.Block{block(
			&ir.DotStmt{Source: loc(in), Key: str, Target: src}, copyOf(src, tgt),
			&ir.ScanStmt{Source: other, Key: 20, Value: 21, Block: block(use(tgt))},
		)}, map[ir.Local]ir.Local{tgt: src}},
		{"source written after the copy", []*ir.Block{block(copyOf(src, tgt), copyOf(other, src), use(tgt))}, nil},
		{"source written by a nested scan", []*ir.Block{block(
			copyOf(src, tgt), &ir.ScanStmt{Source: other, Key: 20, Value: src, Block: block(use(tgt))},
		)}, nil},
		{"target read before the copy", []*ir.Block{block(&ir.IsDefinedStmt{Source: tgt}, copyOf(arg, tgt), use(tgt))}, nil},
		{"target read in another block", []*ir.Block{block(copyOf(arg, tgt)), block(use(tgt))}, nil},
		{"target read after the copy's block", []*ir.Block{block(&ir.BlockStmt{Blocks: []*ir.Block{block(copyOf(arg, tgt))}}, use(tgt))}, nil},
		{"target changed in place", []*ir.Block{block(copyOf(arg, tgt), &ir.ArrayAppendStmt{Value: str, Array: tgt}, use(tgt))}, nil},
		{"target reset", []*ir.Block{block(copyOf(arg, tgt), &ir.ResetLocalStmt{Target: tgt})}, nil},
		{"target is the return local", []*ir.Block{block(copyOf(arg, ret), &ir.ReturnLocalStmt{Source: ret})}, nil},
		{"target is an argument", []*ir.Block{block(copyOf(src, arg), use(arg))}, nil},
		{"copied onto itself", []*ir.Block{block(copyOf(tgt, tgt), use(tgt))}, nil},
		{"copied again by another rule body", []*ir.Block{block(copyOf(arg, tgt), use(tgt)), block(copyOf(arg, tgt), use(tgt))}, nil},
		{"a statement of a kind not known", []*ir.Block{block(copyOf(arg, tgt), use(tgt), &ir.CallDynamicStmt{Result: other})}, nil},
	} {
		f := &ir.Func{Name: c.name, Params: []ir.Local{in, data, arg}, Return: ret, Blocks: c.blocks}
		var scan aliasScan
		got := aliases(f, &scan)
		if !maps.Equal(got, c.want) {
			t.Errorf("%s: aliases %v, want %v", c.name, got, c.want)
		}
	}
}
