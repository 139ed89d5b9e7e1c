package plan

import (
	"reflect"

	"github.com/open-policy-agent/opa/v1/ir"
)

// Early exit. The planner gives a function of several rules one body block
// per rule, each followed by a block that moves the rule's value into the
// return local (AssignVarOnceStmt, which fails on a conflict), and so runs
// every rule even when the first already gave the value. When every rule's
// value is one and the same constant (the usual boolean helper written as
// several rules: `f(x) if a(x)`, `f(x) if b(x)`), no later rule can change
// the result or conflict with it, so once the return local is defined the
// remaining body blocks are skipped. OPA's interpreter does the same
// ("early exit" of rules with constant values), so both engines evaluate the
// same rules.

// earlyExit returns, for a function's blocks, which are rule bodies that may
// be skipped once the return local is set; nil when the function does not
// have the shape above (then every block runs).
func earlyExit(f *ir.Func) []bool {
	blocks := f.Blocks
	skip := make([]bool, len(blocks))
	var value *ir.Operand // the constant every rule gives
	bodies := 0
	for i := 0; i < len(blocks); i++ {
		v, ok := bodyValueLocal(blocks[i])
		if !ok {
			continue
		}
		// A body must be followed by its assignment block, and give its
		// value local only one constant.
		if i+1 >= len(blocks) || !assignsReturn(blocks[i+1], v, f.Return) {
			return nil
		}
		c, ok := constantWrites(blocks[i].Stmts[1:], v)
		if !ok || c == nil {
			return nil
		}
		if value == nil {
			value = c
		} else if !reflect.DeepEqual(*value, *c) {
			return nil
		}
		skip[i] = true
		bodies++
		i++
	}
	if bodies < 2 {
		return nil
	}
	// The return local must be written only by the assignment blocks (a
	// default value comes after every rule, and writes it only when it is
	// still undefined, which early exit does not change).
	for i, b := range blocks {
		if i > 0 && skip[i-1] {
			continue
		}
		if writesLocal(b.Stmts, f.Return) && !isDefault(b, f.Return) {
			return nil
		}
	}
	return skip
}

// bodyValueLocal: a rule body starts by resetting the local of its value.
func bodyValueLocal(b *ir.Block) (ir.Local, bool) {
	if len(b.Stmts) == 0 {
		return 0, false
	}
	r, ok := b.Stmts[0].(*ir.ResetLocalStmt)
	if !ok {
		return 0, false
	}
	return r.Target, true
}

// assignsReturn: the block is [IsDefined(v), AssignVarOnce(v -> ret)].
func assignsReturn(b *ir.Block, v, ret ir.Local) bool {
	if len(b.Stmts) != 2 {
		return false
	}
	d, ok1 := b.Stmts[0].(*ir.IsDefinedStmt)
	a, ok2 := b.Stmts[1].(*ir.AssignVarOnceStmt)
	if !ok1 || !ok2 || d.Source != v || a.Target != ret {
		return false
	}
	src, ok := localOf(a.Source)
	return ok && src == v
}

// isDefault: the block is [IsUndefined(ret), assignment of a constant to ret].
func isDefault(b *ir.Block, ret ir.Local) bool {
	if len(b.Stmts) != 2 {
		return false
	}
	u, ok := b.Stmts[0].(*ir.IsUndefinedStmt)
	src, assigns := assignment(b.Stmts[1], ret)
	if !ok || !assigns || u.Source != ret {
		return false
	}
	_, isLocal := localOf(src)
	return !isLocal
}

// constantWrites returns the constant operand every write of local v in
// stmts assigns (nil when none does); false when some write is not such an
// assignment, or two assign different constants.
func constantWrites(stmts []ir.Stmt, v ir.Local) (*ir.Operand, bool) {
	var found *ir.Operand
	ok := true
	walkStmts(stmts, func(s ir.Stmt) {
		src, isAssign := assignment(s, v)
		switch {
		case isAssign:
			if _, isLocal := localOf(src); isLocal {
				ok = false
				return
			}
			if found == nil {
				found = &src
			} else if !reflect.DeepEqual(*found, src) {
				ok = false
			}
		case writes(s, v):
			ok = false
		}
	})
	return found, ok
}

// assignment is the source of an assignment to v (the planner sets a rule's
// value with AssignVarOnceStmt, a default's with AssignVarStmt).
func assignment(s ir.Stmt, v ir.Local) (ir.Operand, bool) {
	switch s := s.(type) {
	case *ir.AssignVarStmt:
		return s.Source, s.Target == v
	case *ir.AssignVarOnceStmt:
		return s.Source, s.Target == v
	}
	return ir.Operand{}, false
}

func writesLocal(stmts []ir.Stmt, v ir.Local) bool {
	found := false
	walkStmts(stmts, func(s ir.Stmt) { found = found || writes(s, v) })
	return found
}

// walkStmts calls f on every statement of stmts and of the blocks nested in
// them, in the order ir.Walk visits them: the four kinds that hold blocks
// are ir.Walk's (without its visitor calls for every block, at several
// times the cost; TestWalkStmtsAsIRWalk compares the two).
func walkStmts(stmts []ir.Stmt, f func(ir.Stmt)) {
	for _, s := range stmts {
		f(s)
		nested(s, func(b *ir.Block) { walkStmts(b.Stmts, f) })
	}
}

// nested calls f with each of a statement's blocks, in order.
func nested(s ir.Stmt, f func(*ir.Block)) {
	switch s := s.(type) {
	case *ir.BlockStmt:
		for _, b := range s.Blocks {
			f(b)
		}
	case *ir.ScanStmt:
		f(s.Block)
	case *ir.NotStmt:
		f(s.Block)
	case *ir.WithStmt:
		f(s.Block)
	}
}

// writes reports whether a statement may write local v (useDef's
// writes); a statement kind useDef does not know counts as writing, to
// stay on the safe side.
func writes(s ir.Stmt, v ir.Local) bool {
	w := false
	known := useDef(s, func(l ir.Local, write bool) { w = w || write && l == v })
	return w || !known
}

// localOf is the local an operand names, if it names one.
func localOf(o ir.Operand) (ir.Local, bool) {
	switch v := o.Value.(type) {
	case ir.Local:
		return v, true
	case *ir.Local:
		return *v, true
	}
	return 0, false
}
