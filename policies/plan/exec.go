package plan

import (
	"github.com/open-policy-agent/opa/v1/ast"
)

// What running a block returns: how it ended. A value >= 0 is a break out
// of the block with that many enclosing blocks still to leave (an undefined
// statement is a break 0).
const (
	fell     = -1 // ran to its end
	returned = -2 // a ReturnLocalStmt ended the function
	failed   = -3 // an error (in eval.err) ends the evaluation
)

// run executes one block on the frame fr (the function's locals).
func (e *eval) run(fr []*ast.Term, code []instr) int {
	for i := range code {
		in := &code[i]
		switch in.op {
		case opAssignVar:
			// Unconditional, undefined included: `with` saves an
			// undefined input this way and restores it.
			fr[in.c] = e.get(fr, in.a)
		case opDot:
			v := dot(e.get(fr, in.a), e.get(fr, in.b), in.b < 0)
			if v == nil {
				return 0
			}
			fr[in.c] = v
		case opCallFunc:
			if r := e.callFunc(fr, in); r != fell {
				return r
			}
		case opCallBuiltin:
			if r := e.callBuiltin(fr, in); r != fell {
				return r
			}
		case opNotEqual:
			a, b := e.get(fr, in.a), e.get(fr, in.b)
			if a == nil || b == nil || equal(a, b) {
				return 0
			}
		case opEqual:
			a, b := e.get(fr, in.a), e.get(fr, in.b)
			if a == nil || b == nil || !equal(a, b) {
				return 0
			}
		case opIsDefined:
			if fr[in.a] == nil {
				return 0
			}
		case opIsUndefined:
			if fr[in.a] != nil {
				return 0
			}
		case opResetLocal:
			fr[in.c] = nil
		case opConst:
			fr[in.c] = e.p.consts[^in.b]
		case opAssignInt:
			fr[in.c] = e.p.consts[^in.b]
		case opBlock:
			if r := e.blocks(fr, in); r != fell {
				return r
			}
		case opBreak:
			return int(in.a)
		case opScan:
			if r := e.scan(fr, in); r != fell {
				return r
			}
		case opNot:
			switch r := e.run(fr, in.blocks[0]); r {
			case fell:
				return 0 // the negated block holds: not is undefined
			case returned, failed:
				return r
			}
		case opReturnLocal:
			e.ret = fr[in.a]
			return returned
		default:
			if r := e.other(fr, in); r != fell {
				return r
			}
		}
	}
	return fell
}

// blocks runs a BlockStmt's blocks in turn: each ends by falling off its
// end or by a break 0; a longer break leaves the block the statement is in.
func (e *eval) blocks(fr []*ast.Term, in *instr) int {
	for _, b := range in.blocks {
		switch r := e.run(fr, b); {
		case r > 0:
			return r - 1
		case r < fell:
			return r
		}
	}
	return fell
}

// other executes the statements that build values and check types; run
// keeps the control flow and the hottest statements.
func (e *eval) other(fr []*ast.Term, in *instr) int {
	switch in.op {
	case opAssignVarOnce:
		v := e.get(fr, in.a)
		if v == nil {
			break // nothing to assign (never planned)
		}
		if old := fr[in.c]; old != nil && !equal(old, v) {
			return e.fail(e.conflict(in, conflictMessage(e.fn)))
		}
		fr[in.c] = v
	case opMakeArray:
		fr[in.c] = ast.NewTerm(ast.NewArrayWithCapacity(int(in.b)))
	case opArrayLiteral:
		elems := make([]*ast.Term, len(in.args))
		for j, a := range in.args {
			if elems[j] = Whole(e.get(fr, a)); elems[j] == nil {
				fr[in.c] = ast.ArrayTerm(elems[:j]...) // what the appends had built
				return 0
			}
		}
		fr[in.c] = ast.ArrayTerm(elems...)
	case opMakeObject:
		fr[in.c] = ast.NewTerm(ast.NewObject())
	case opObjectLiteral:
		// The inserts in order (a repeated key keeps its last value, as
		// Insert does), into an object made for them.
		items := e.items[:0]
		for j := 0; j < len(in.args); j += 2 {
			k, v := Whole(e.get(fr, in.args[j])), Whole(e.get(fr, in.args[j+1]))
			if k == nil || v == nil {
				fr[in.c] = ast.NewTerm(ast.NewObject(items...)) // what the inserts had built
				e.items = clearItems(items)
				return 0
			}
			items = append(items, [2]*ast.Term{k, v})
		}
		fr[in.c] = ast.NewTerm(ast.NewObject(items...))
		e.items = clearItems(items)
	case opMakeSet:
		fr[in.c] = ast.NewTerm(ast.NewSet())
	case opArrayAppend:
		v := Whole(e.get(fr, in.a))
		if v == nil {
			return 0
		}
		t := fr[in.c]
		arr, ok := valueOf(t).(*ast.Array)
		if !ok {
			return e.fail(e.internal(in, "ArrayAppendStmt on %v", t))
		}
		// In place, as the Wasm backend does: the array is the
		// statement's own (MakeArrayStmt) until it is complete.
		t.Value = appendOwned(arr, v)
	case opSetAdd:
		v := Whole(e.get(fr, in.a))
		if v == nil {
			return 0
		}
		s, ok := valueOf(fr[in.c]).(ast.Set)
		if !ok {
			return e.fail(e.internal(in, "SetAddStmt on %v", fr[in.c]))
		}
		s.Add(v)
	case opObjectInsert, opObjectInsertOnce:
		k, v := Whole(e.get(fr, in.a)), Whole(e.get(fr, in.b))
		if k == nil || v == nil {
			return 0
		}
		obj, ok := valueOf(fr[in.c]).(ast.Object)
		if !ok {
			return e.fail(e.internal(in, "ObjectInsertStmt on %v", fr[in.c]))
		}
		if in.op == opObjectInsertOnce {
			if old := obj.Get(k); old != nil && !equal(old, v) {
				return e.fail(e.conflict(in, "object keys must be unique"))
			}
		}
		obj.Insert(k, v)
	case opIsArray, opIsObject, opIsSet:
		if !hasType(in.op, valueOf(e.get(fr, in.a))) {
			return 0
		}
	case opLen:
		n, ok := length(e.get(fr, in.a))
		if !ok {
			return 0
		}
		fr[in.c] = e.intTerm(n)
	case opResultSetAdd, opResultValue:
		return e.result(fr, in)
	case opWith:
		return e.with(fr, in)
	case opObjectMerge:
		return e.merge(fr, in)
	}
	return fell
}

// hasType is the test of IsArrayStmt, IsObjectStmt or IsSetStmt (op): a
// Lazy is an object or an array.
func hasType(op opcode, v ast.Value) bool {
	switch v := v.(type) {
	case Lazy:
		return op == opIsObject && v.Object() || op == opIsArray && !v.Object()
	case *ast.Array:
		return op == opIsArray
	case ast.Object:
		return op == opIsObject
	case ast.Set:
		return op == opIsSet
	}
	return false
}

// result adds to the plan's result set: a result (ResultSetAddStmt), or
// the value of a result's one binding (opResultValue).
func (e *eval) result(fr []*ast.Term, in *instr) int {
	v := Whole(e.get(fr, in.a))
	if v == nil {
		return 0
	}
	if in.op == opResultValue {
		e.values = append(e.values, v)
	} else {
		e.results = append(e.results, v)
	}
	return fell
}

// merge is ObjectMergeStmt: the base document under a rule's path merged
// with the rule's values (the interpreter refuses such data; never planned
// for these rules' entrypoints).
func (e *eval) merge(fr []*ast.Term, in *instr) int {
	a, b := valueOf(Whole(fr[in.a])), valueOf(Whole(fr[in.b]))
	if a == nil || b == nil {
		return 0
	}
	ao, ok1 := a.(ast.Object)
	bo, ok2 := b.(ast.Object)
	if !ok1 || !ok2 {
		return e.fail(e.conflict(in, "base and virtual documents could not be merged"))
	}
	m, ok := ao.Merge(bo)
	if !ok {
		return e.fail(e.conflict(in, "base and virtual documents could not be merged"))
	}
	fr[in.c] = ast.NewTerm(m)
	return fell
}

// get reads an operand: a local (nil when undefined) or a constant.
func (e *eval) get(fr []*ast.Term, o operand) *ast.Term {
	if o >= 0 {
		return fr[o]
	}
	return e.p.consts[^o]
}

// scan runs the block once per element of a collection, binding key and
// value; a scalar or an undefined source runs it never. Arrays and sets are
// walked by index, without a closure (a scan is the hottest loop).
func (e *eval) scan(fr []*ast.Term, in *instr) int {
	switch src := valueOf(fr[in.a]).(type) {
	case Lazy:
		if !src.Object() {
			for i := range src.Len() {
				if r := e.step(fr, in, e.intTerm(i), src.Index(i)); r != fell {
					return r
				}
			}
			return fell
		}
		r := fell
		src.Until(func(k, v *ast.Term) bool {
			r = e.step(fr, in, k, v)
			return r != fell
		})
		return r
	case *ast.Array:
		for i := range src.Len() {
			if r := e.step(fr, in, e.intTerm(i), src.Elem(i)); r != fell {
				return r
			}
		}
	case ast.Set:
		for _, t := range src.Slice() {
			if r := e.step(fr, in, t, t); r != fell {
				return r
			}
		}
	case ast.Object:
		r := fell
		_ = src.Iter(func(k, v *ast.Term) error {
			if r = e.step(fr, in, k, v); r != fell {
				return errStop
			}
			return nil
		})
		return r
	}
	return fell
}

// step is one iteration of a scan: fell to go on, or returned / failed.
func (e *eval) step(fr []*ast.Term, in *instr, k, v *ast.Term) int {
	if e.tick() {
		return failed
	}
	fr[in.b], fr[in.c] = k, v
	switch r := e.run(fr, in.blocks[0]); r {
	case returned, failed:
		return r
	}
	return fell
}

// with runs its block with a local replaced (or a path in it upserted) and
// a fresh memo, then restores both, as the Wasm backend does.
func (e *eval) with(fr []*ast.Term, in *instr) int {
	// The value may be undefined: the planner restores an undefined input
	// with a WithStmt.
	v := e.get(fr, in.b)
	if v == nil && len(in.args) > 0 {
		return 0
	}
	saved := fr[in.a]
	if len(in.args) == 0 {
		fr[in.a] = v
	} else {
		path := make([]*ast.Term, len(in.args))
		for i, p := range in.args {
			path[i] = e.p.consts[^p]
		}
		fr[in.a] = upsert(saved, path, v)
	}
	memo, byValue := e.memo, e.byValue
	e.memo, e.byValue = make([]memoEntry, len(e.p.funcs)), nil
	e.withs++
	r := e.run(fr, in.blocks[0])
	e.withs--
	e.memo, e.byValue = memo, byValue
	fr[in.a] = saved
	switch r {
	case fell:
		return fell
	case returned, failed:
		return r
	}
	return 0
}
