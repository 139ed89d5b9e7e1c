package plan

import (
	"slices"

	"github.com/open-policy-agent/opa/v1/ir"
)

// aliases finds the copies from one local to another (AssignVarStmt) that
// the runtime can skip, reading the source in place: the planner copies a
// function's arguments into each rule body's locals, an element a scan
// binds into the rule's variable, a call's result into the variable it
// is assigned to; copies are a third of the statements a lint runs. A
// copy's target is replaced by its source (the result maps target to
// source) when
//   - the target is no parameter and not the return local, no statement
//     writes it but the copy, and every other statement that mentions it
//     follows the copy in the copy's block (or is nested in one that
//     does), and
//   - no statement after the copy in its block (nor nested in one) writes
//     the source.
//
// The copy then runs before every read of the target, and between the
// two the source keeps the value copied. A function with a statement kind
// useDef does not know gets no aliases.
func aliases(f *ir.Func, a *aliasScan) map[ir.Local]ir.Local {
	a.reset()
	for _, b := range f.Blocks {
		if !a.block(b.Stmts) {
			return nil
		}
	}
	var out map[ir.Local]ir.Local
	for _, c := range a.copies {
		t := c.target
		if slices.Contains(f.Params, t) || t == f.Return || a.at(t).writes != 1 ||
			a.at(t).first != c.pos || a.at(t).last > c.end || a.writesIn(c.source, c.pos, c.end) {
			continue
		}
		if out == nil {
			out = map[ir.Local]ir.Local{}
		}
		out[t] = c.source
	}
	return out
}

// aliasScan numbers a function's statements in the order of a walk that
// visits a statement, then its nested blocks (so the statements after one
// in its block, with theirs, are the positions up to the block's end),
// and records where each local is mentioned and written.
type aliasScan struct {
	pos    int32
	locals []localUse             // by local (the planner numbers them densely)
	writes []int32                // the positions of writes, chained by next
	next   []int                  // the previous write of the same local, -1 for none
	copies []copyAt               // the copies from a local, in walk order
	other  map[ir.Local]*localUse // locals beyond denseLocals
}

type localUse struct {
	first, last int32 // positions of the first and last mention, +1 (0: none)
	writes      int32 // how many statements write it
	lastWrite   int   // index in writes of the last write, -1 for none
}

type copyAt struct {
	pos, end       int32 // the copy's position, its block's last
	source, target ir.Local
}

// reset empties the scan for another function, keeping its memory.
func (a *aliasScan) reset() {
	a.pos = 0
	a.locals, a.writes, a.next, a.copies, a.other = a.locals[:0], a.writes[:0], a.next[:0], a.copies[:0], nil
}

func (a *aliasScan) at(l ir.Local) *localUse {
	if l >= 0 && l < denseLocals {
		for int(l) >= len(a.locals) {
			a.locals = append(a.locals, localUse{lastWrite: -1})
		}
		return &a.locals[l]
	}
	if a.other == nil {
		a.other = map[ir.Local]*localUse{}
	}
	u := a.other[l]
	if u == nil {
		u = &localUse{lastWrite: -1}
		a.other[l] = u
	}
	return u
}

// block scans stmts; false for a statement kind useDef does not know.
func (a *aliasScan) block(stmts []ir.Stmt) bool {
	mine := len(a.copies)
	for _, s := range stmts {
		p := a.pos + 1 // positions from 1: 0 is "none"
		a.pos++
		known := useDef(s, func(l ir.Local, write bool) {
			u := a.at(l)
			if u.first == 0 {
				u.first = p
			}
			u.last = p
			if write {
				u.writes++
				a.writes = append(a.writes, p)
				a.next = append(a.next, u.lastWrite)
				u.lastWrite = len(a.writes) - 1
			}
		})
		if !known {
			return false
		}
		if av, ok := s.(*ir.AssignVarStmt); ok {
			if src, ok := localOf(av.Source); ok && src != av.Target { // a copy onto itself stays
				a.copies = append(a.copies, copyAt{pos: p, end: -1, source: src, target: av.Target})
			}
		}
		nested(s, func(b *ir.Block) { known = known && a.block(b.Stmts) })
		if !known {
			return false
		}
	}
	for i := mine; i < len(a.copies); i++ {
		if a.copies[i].end < 0 { // not a nested block's, which has its end
			a.copies[i].end = a.pos
		}
	}
	return true
}

// writesIn says whether a statement at a position in (from, to] writes l.
func (a *aliasScan) writesIn(l ir.Local, from, to int32) bool {
	for w := a.at(l).lastWrite; w >= 0; w = a.next[w] {
		if p := a.writes[w]; p > from && p <= to {
			return true
		}
	}
	return false
}

// useDef calls f with every local a statement mentions (not those of its
// nested blocks) and whether it writes it (or changes it in place: an
// array appended to, an object or set inserted into), and says whether it
// knows the statement's kind.
func useDef(s ir.Stmt, f func(l ir.Local, write bool)) bool {
	op := func(os ...ir.Operand) {
		for _, o := range os {
			if l, ok := localOf(o); ok {
				f(l, false)
			}
		}
	}
	switch s := s.(type) {
	case *ir.ArrayAppendStmt:
		op(s.Value)
		f(s.Array, true)
	case *ir.AssignIntStmt:
		f(s.Target, true)
	case *ir.AssignVarStmt:
		op(s.Source)
		f(s.Target, true)
	case *ir.AssignVarOnceStmt:
		op(s.Source)
		f(s.Target, true)
	case *ir.CallStmt:
		op(s.Args...)
		f(s.Result, true)
	case *ir.DotStmt:
		op(s.Source, s.Key)
		f(s.Target, true)
	case *ir.EqualStmt:
		op(s.A, s.B)
	case *ir.NotEqualStmt:
		op(s.A, s.B)
	case *ir.IsArrayStmt:
		op(s.Source)
	case *ir.IsObjectStmt:
		op(s.Source)
	case *ir.IsSetStmt:
		op(s.Source)
	case *ir.IsDefinedStmt:
		f(s.Source, false)
	case *ir.IsUndefinedStmt:
		f(s.Source, false)
	case *ir.LenStmt:
		op(s.Source)
		f(s.Target, true)
	case *ir.MakeArrayStmt:
		f(s.Target, true)
	case *ir.MakeNullStmt:
		f(s.Target, true)
	case *ir.MakeNumberIntStmt:
		f(s.Target, true)
	case *ir.MakeNumberRefStmt:
		f(s.Target, true)
	case *ir.MakeObjectStmt:
		f(s.Target, true)
	case *ir.MakeSetStmt:
		f(s.Target, true)
	case *ir.ObjectInsertStmt:
		op(s.Key, s.Value)
		f(s.Object, true)
	case *ir.ObjectInsertOnceStmt:
		op(s.Key, s.Value)
		f(s.Object, true)
	case *ir.ObjectMergeStmt:
		f(s.A, false)
		f(s.B, false)
		f(s.Target, true)
	case *ir.ResetLocalStmt:
		f(s.Target, true)
	case *ir.ResultSetAddStmt:
		f(s.Value, false)
	case *ir.ReturnLocalStmt:
		f(s.Source, false)
	case *ir.ScanStmt:
		f(s.Source, false)
		f(s.Key, true)
		f(s.Value, true)
	case *ir.SetAddStmt:
		op(s.Value)
		f(s.Set, true)
	case *ir.WithStmt:
		op(s.Value)
		f(s.Local, true)
	case *ir.BlockStmt, *ir.NotStmt, *ir.BreakStmt, *ir.NopStmt:
	default:
		return false
	}
	return true
}
