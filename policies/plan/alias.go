package plan

import (
	"cmp"
	"slices"

	"github.com/open-policy-agent/opa/v1/ir"
)

// aliases finds the copies from one local to another (AssignVarStmt) that
// the runtime can skip, reading the source in place: the planner copies a
// function's arguments into each rule body's locals (one local per
// variable, copied again by each rule body that uses it), an element a
// scan binds into the rule's variable, a call's result into the variable
// it is assigned to; copies were a third of the statements a lint ran. A
// target is replaced by its source (the result maps target to source)
// when
//   - it is no parameter and not the return local, and every statement
//     that writes it is one of its copies, all from the same source;
//   - every other statement that mentions it follows one of the copies in
//     that copy's block (or is nested in a statement that does): the
//     copy's region; no copy is in another's region; and
//   - no statement in a copy's region writes the source.
//
// A copy then runs before every read of the target, and between the two
// the source keeps the value copied. A function with a statement kind
// useDef does not know gets no aliases.
func aliases(f *ir.Func, a *aliasScan) map[ir.Local]ir.Local {
	a.reset()
	for _, b := range f.Blocks {
		if !a.block(b.Stmts) {
			return nil
		}
	}
	// The copies of each target, in walk order.
	slices.SortStableFunc(a.copies, func(x, y copyAt) int { return cmp.Compare(x.target, y.target) })
	var out map[ir.Local]ir.Local
	for i := 0; i < len(a.copies); {
		j := i + 1
		for j < len(a.copies) && a.copies[j].target == a.copies[i].target {
			j++
		}
		if cs := a.copies[i:j]; a.aliased(f, cs) {
			if out == nil {
				out = map[ir.Local]ir.Local{}
			}
			out[cs[0].target] = cs[0].source
		}
		i = j
	}
	return out
}

// aliasScan numbers a function's statements in the order of a walk that
// visits a statement, then its nested blocks (so the statements after one
// in its block, with theirs, are the positions up to the block's end),
// and records where each local is mentioned and written.
type aliasScan struct {
	pos      int32
	locals   []localUse             // by local (the planner numbers them densely)
	mentions []mention              // chained by prev, per local
	copies   []copyAt               // the copies from a local
	other    map[ir.Local]*localUse // locals beyond denseLocals
}

type localUse struct {
	writes      int32 // how many statements write it
	lastMention int   // index in mentions of the last one, -1 for none
}

type mention struct {
	pos   int32
	write bool
	prev  int // the local's previous mention, -1 for none
}

type copyAt struct {
	pos, end       int32 // the copy's position, its block's last
	source, target ir.Local
}

// reset empties the scan for another function, keeping its memory.
func (a *aliasScan) reset() {
	a.pos = 0
	a.locals, a.mentions, a.copies, a.other = a.locals[:0], a.mentions[:0], a.copies[:0], nil
}

func (a *aliasScan) at(l ir.Local) *localUse {
	if l >= 0 && l < denseLocals {
		for int(l) >= len(a.locals) {
			a.locals = append(a.locals, localUse{lastMention: -1})
		}
		return &a.locals[l]
	}
	if a.other == nil {
		a.other = map[ir.Local]*localUse{}
	}
	u := a.other[l]
	if u == nil {
		u = &localUse{lastMention: -1}
		a.other[l] = u
	}
	return u
}

// aliased says whether the target of copies (all of one target, in walk
// order) can be read as their source (aliases).
func (a *aliasScan) aliased(f *ir.Func, copies []copyAt) bool {
	t, src := copies[0].target, copies[0].source
	if slices.Contains(f.Params, t) || t == f.Return || int(a.at(t).writes) != len(copies) {
		return false
	}
	for i, c := range copies {
		if c.source != src || i > 0 && c.pos <= copies[i-1].end {
			return false // another source, or in the previous copy's region
		}
	}
	// in says whether a position is in a copy's region (or is a copy:
	// at == true).
	in := func(p int32) (inRegion, at bool) {
		k, found := slices.BinarySearchFunc(copies, p, func(c copyAt, p int32) int { return cmp.Compare(c.pos, p) })
		if found {
			return false, true
		}
		return k > 0 && p <= copies[k-1].end, false
	}
	for m := a.at(t).lastMention; m >= 0; m = a.mentions[m].prev {
		if inRegion, at := in(a.mentions[m].pos); !inRegion && !at {
			return false
		}
	}
	for m := a.at(src).lastMention; m >= 0; m = a.mentions[m].prev {
		if inRegion, _ := in(a.mentions[m].pos); inRegion && a.mentions[m].write {
			return false
		}
	}
	return true
}

// block scans stmts; false for a statement kind useDef does not know.
func (a *aliasScan) block(stmts []ir.Stmt) bool {
	mine := len(a.copies)
	for _, s := range stmts {
		p := a.pos + 1 // positions from 1: 0 is "none"
		a.pos++
		known := useDef(s, func(l ir.Local, write bool) {
			u := a.at(l)
			a.mentions = append(a.mentions, mention{pos: p, write: write, prev: u.lastMention})
			u.lastMention = len(a.mentions) - 1
			if write {
				u.writes++
			}
		})
		if !known {
			return false
		}
		if av, ok := s.(*ir.AssignVarStmt); ok {
			if src, ok := localOf(av.Source); ok {
				a.copies = append(a.copies, copyAt{pos: p, end: -1, source: src, target: av.Target})
			}
		}
		for _, b := range nested(s) {
			if !a.block(b.Stmts) {
				return false
			}
		}
	}
	for i := mine; i < len(a.copies); i++ {
		if a.copies[i].end < 0 { // not a nested block's, which has its end
			a.copies[i].end = a.pos
		}
	}
	return true
}

// nested are a statement's blocks.
func nested(s ir.Stmt) []*ir.Block {
	switch s := s.(type) {
	case *ir.BlockStmt:
		return s.Blocks
	case *ir.ScanStmt:
		return []*ir.Block{s.Block}
	case *ir.NotStmt:
		return []*ir.Block{s.Block}
	case *ir.WithStmt:
		return []*ir.Block{s.Block}
	}
	return nil
}

// useDef calls f with every local a statement mentions (not those of its
// nested blocks) and whether it writes it (or changes it in place, as
// earlyexit's writes says), and says whether it knows the statement's
// kind.
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
