package plan

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"sort"
	"sync"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/topdown"
	"github.com/open-policy-agent/opa/v1/topdown/builtins"
)

// eval is the state of one evaluation (EvalAll or Eval): the frames'
// stack, the memo and the builtin context. Evaluations are pooled, so the
// stack is allocated once per concurrent evaluation, not per cluster.
type eval struct {
	p       *Program
	ctx     context.Context
	input   *ast.Term
	data    *ast.Term
	stack   []*ast.Term // the frames: each call takes its function's nlocals slots
	sp      int
	high    int // the most slots in use, cleared on release
	memo    []memoEntry
	byValue map[byValueKey][]byValueEntry // Options.MemoByValue's functions
	withs   int                           // the with scopes entered
	results []*ast.Term                   // the current plan's result set
	values  []*ast.Term                   // its results of one binding (opResultValue): the binding's value
	ret     *ast.Term                     // what the last ReturnLocalStmt returned
	fn      *function                     // the function running (error messages)
	err     error
	ticks   uint32
	bctx    topdown.BuiltinContext
	bres    *ast.Term // what the last builtin call gave its iterator
	biter   func(*ast.Term) error
	args    []*ast.Term    // builtin arguments
	items   [][2]*ast.Term // an object literal's keys and values (opObjectLiteral)
	ints    []*ast.Term    // intTerm's terms; kept by the pool
}

// maxIntTerms bounds intTerm's table (some 50 bytes per entry).
const maxIntTerms = 1 << 16

// intTerm is the term of the integer i: a scan binds each element's index
// and a LenStmt its count, and OPA interns integers only up to 512, so
// past that every element of a scan cost a term and its string. A large
// cluster's nodes are scanned by dozens of rule bodies, so the table is
// kept with the pooled evaluation (as long as the pool keeps it) and
// built again only after that. Terms are immutable: sharing them between
// evaluations is safe.
func (e *eval) intTerm(i int) *ast.Term {
	if uint(i) < uint(len(e.ints)) {
		return e.ints[i]
	}
	if i < 0 || i >= maxIntTerms {
		return ast.InternedTerm(i)
	}
	n := min(max(i+1, 2*len(e.ints), 1024), maxIntTerms)
	for j := len(e.ints); j < n; j++ {
		e.ints = append(e.ints, ast.InternedTerm(j))
	}
	return e.ints[i]
}

// byValueKey finds the calls of a function with arguments of one hash.
type byValueKey struct {
	fn   int
	hash int
}

// byValueEntry is a call's arguments (its parameters but input and data,
// which are the same throughout one memo) and result (nil: undefined).
type byValueEntry struct {
	args []*ast.Term
	val  *ast.Term
}

// byValueGet looks up a call of f whose parameters are in the callee's
// frame: its value (hit), else the key and the arguments to record the
// call's value under.
func (e *eval) byValueGet(f *function, callee []*ast.Term) (key byValueKey, args []*ast.Term, val *ast.Term, hit bool) {
	key.fn = f.index
	params := f.params[2:] // input and data are the same throughout a memo
	for _, p := range params {
		if callee[p] == nil { // undefined (the planner never passes one): no memo
			return key, nil, nil, false
		}
		h, ok := argHash(callee[p])
		if !ok {
			return key, nil, nil, false
		}
		key.hash = key.hash*31 + h
	}
	for _, en := range e.byValue[key] {
		if identicalArgs(en.args, params, callee) {
			return key, nil, en.val, true
		}
	}
	args = make([]*ast.Term, len(params))
	for i, p := range params {
		args[i] = callee[p]
	}
	if e.byValue == nil {
		e.byValue = map[byValueKey][]byValueEntry{}
	}
	return key, args, nil, false
}

// argHash is an argument's hash for the memo by value: a Lazy's address
// (converting it to hash it would undo its laziness; a call with another
// Lazy of equal value only misses the memo), else the value's hash; not
// ok for a Lazy that is no pointer, which has no address (no memo).
func argHash(t *ast.Term) (int, bool) {
	if l, ok := t.Value.(Lazy); ok {
		v := reflect.ValueOf(l)
		if v.Kind() != reflect.Pointer {
			return 0, false
		}
		return int(v.Pointer()), true
	}
	return t.Hash(), true
}

func identicalArgs(args []*ast.Term, params []int32, callee []*ast.Term) bool {
	for i, p := range params {
		if !identical(args[i].Value, callee[p].Value) {
			return false
		}
	}
	return true
}

// identical says whether two values are the same, numbers written alike
// (1 and 1.0 are equal in Rego, but sprintf prints them apart).
func identical(a, b ast.Value) bool {
	if a == b {
		return true
	}
	if _, ok := b.(Lazy); ok {
		return false // a Lazy is identified by its address (argHash)
	}
	switch a := a.(type) {
	case Lazy:
		return false
	case ast.Number:
		b, ok := b.(ast.Number)
		return ok && a == b
	case *ast.Array:
		b, ok := b.(*ast.Array)
		if !ok || a.Len() != b.Len() || a.Hash() != b.Hash() {
			return false
		}
		return pairwiseIdentical(a.Len(), a.Elem, b.Elem)
	case ast.Object:
		b, ok := b.(ast.Object)
		if !ok || a.Len() != b.Len() || a.Hash() != b.Hash() {
			return false
		}
		// Keys in order, pairwise (Get would find 1.0 for 1).
		ak, bk := a.Keys(), b.Keys()
		return pairwiseIdentical(len(ak), func(i int) *ast.Term { return ak[i] }, func(i int) *ast.Term { return bk[i] }) &&
			pairwiseIdentical(len(ak), func(i int) *ast.Term { return a.Get(ak[i]) }, func(i int) *ast.Term { return b.Get(bk[i]) })
	case ast.Set:
		b, ok := b.(ast.Set)
		if !ok || a.Len() != b.Len() || a.Hash() != b.Hash() {
			return false
		}
		// Sets sort their elements, numbers by value: pairwise in order.
		as, bs := a.Slice(), b.Slice()
		return pairwiseIdentical(len(as), func(i int) *ast.Term { return as[i] }, func(i int) *ast.Term { return bs[i] })
	}
	return ast.Compare(a, b) == 0 // strings, booleans, null: no two spellings
}

// pairwiseIdentical says whether the n terms x(i) and y(i) are identical,
// pair by pair (the same term, often, in values built from one input).
func pairwiseIdentical(n int, x, y func(int) *ast.Term) bool {
	for i := range n {
		if s, t := x(i), y(i); s != t && !identical(s.Value, t.Value) {
			return false
		}
	}
	return true
}

// memoEntry is the result of a function of (input, data) in the current
// evaluation and with scope; done tells an undefined result from none yet.
type memoEntry struct {
	done bool
	val  *ast.Term
}

const stackSize = 1 << 12

var pool sync.Pool

func (p *Program) newEval(ctx context.Context, input, data ast.Value) *eval {
	e, _ := pool.Get().(*eval)
	if e == nil {
		e = &eval{stack: make([]*ast.Term, stackSize), args: make([]*ast.Term, 0, 8)}
		e.biter = func(t *ast.Term) error {
			if e.bres == nil { // OPA's builtins give at most one result
				e.bres = t
			}
			return nil
		}
	}
	e.p, e.ctx = p, ctx
	if input != nil {
		e.input = ast.NewTerm(input)
	}
	if data != nil {
		e.data = ast.NewTerm(data)
	}
	if cap(e.memo) < len(p.funcs) {
		e.memo = make([]memoEntry, len(p.funcs))
	}
	e.memo = e.memo[:len(p.funcs)]
	e.bctx = topdown.BuiltinContext{
		Context: ctx,
		Cache:   builtins.Cache{},
		Time:    ast.UIntNumberTerm(uint64(now().UnixNano())),
	}
	return e
}

// release clears what the evaluation holds (values must not outlive it in
// the pool) and returns it to the pool.
func (e *eval) release() {
	clear(e.stack[:e.high])
	clear(e.memo)
	clear(e.results)
	clear(e.values)
	clear(e.args[:cap(e.args)])
	clear(e.items[:cap(e.items)])
	*e = eval{stack: e.stack, memo: e.memo[:0], results: e.results[:0], values: e.values[:0], args: e.args[:0], items: e.items[:0], biter: e.biter, ints: e.ints}
	pool.Put(e)
}

// plan runs one plan and returns its result: the value of the one binding
// of the one result of a query `data.x.y` (nil when undefined).
func (e *eval) plan(pl *function) (ast.Value, error) {
	e.results, e.values = e.results[:0], e.values[:0]
	e.fn = pl
	fr := e.frame(pl.nlocals)
	fr[0], fr[1] = e.input, e.data
	for _, b := range pl.blocks {
		if r := e.run(fr, b); r == failed {
			return nil, e.err
		}
	}
	e.pop(pl.nlocals)
	switch len(e.results) + len(e.values) {
	case 0:
		return nil, nil
	case 1:
	default:
		return nil, fmt.Errorf("plan %s: %d results, want at most one", pl.name, len(e.results)+len(e.values))
	}
	if len(e.values) == 1 {
		return e.values[0].Value, nil
	}
	obj, ok := e.results[0].Value.(ast.Object)
	if !ok || obj.Len() != 1 {
		return nil, fmt.Errorf("plan %s: result %v is not one binding", pl.name, e.results[0])
	}
	var v ast.Value
	obj.Foreach(func(_, t *ast.Term) { v = t.Value })
	return v, nil
}

// frame takes n cleared slots for a call's locals: from the stack while it
// lasts, else (deep calls) from the heap. The stack above sp is always
// clear (pop clears what it gives back, release all of it), so a frame
// needs no clearing (which was 1.5 % of a lint's work).
func (e *eval) frame(n int) []*ast.Term {
	if e.sp+n <= len(e.stack) {
		fr := e.stack[e.sp : e.sp+n : e.sp+n]
		e.sp += n
		e.high = max(e.high, e.sp)
		return fr
	}
	e.sp += n
	return make([]*ast.Term, n)
}

// pop gives back the last frame of n slots, cleared: the next frame taken
// there starts clear, and the stack holds no value for the collector.
func (e *eval) pop(n int) {
	if e.sp <= len(e.stack) {
		clear(e.stack[e.sp-n : e.sp])
	}
	e.sp -= n
}

// callFunc calls a planned function; its result goes to the target local,
// an undefined result makes the statement undefined.
func (e *eval) callFunc(fr []*ast.Term, in *instr) int {
	f := in.fn
	if f.memo {
		m := e.memo[f.index]
		if !m.done && f.constant && e.withs == 0 {
			if k := e.p.kept[f.index].Load(); k != nil {
				m = memoEntry{done: true, val: k.val}
				e.memo[f.index] = m
			}
		}
		if m.done {
			if m.val == nil {
				return 0
			}
			fr[in.c] = m.val
			return fell
		}
	}
	if e.tick() {
		return failed
	}
	callee := e.frame(f.nlocals)
	for i, a := range in.args {
		callee[f.params[i]] = e.get(fr, a)
	}
	caller := e.fn
	e.fn = f
	var key byValueKey
	var args []*ast.Term // f.byValue: the arguments, as called
	if f.byValue {
		var hit bool
		var val *ast.Term
		if key, args, val, hit = e.byValueGet(f, callee); hit {
			e.fn = caller
			e.pop(f.nlocals)
			if val == nil {
				return 0
			}
			fr[in.c] = val
			return fell
		}
	}
	var res *ast.Term
	done := false
	for i, b := range f.blocks {
		if i < len(f.skip) && f.skip[i] && callee[f.ret] != nil {
			continue // early exit: the value is set and no later rule changes it
		}
		r := e.run(callee, b)
		if r == failed {
			e.pop(f.nlocals)
			return failed
		}
		if r == returned {
			res, done = e.ret, true
			break
		}
	}
	if !done && f.returnsLast {
		res = callee[f.ret] // the dropped last block's ReturnLocalStmt
	}
	e.fn = caller
	e.pop(f.nlocals)
	if f.memo {
		e.memo[f.index] = memoEntry{done: true, val: res}
		if f.constant && e.withs == 0 {
			e.p.kept[f.index].CompareAndSwap(nil, &keptValue{val: res})
		}
	}
	if args != nil {
		e.byValue[key] = append(e.byValue[key], byValueEntry{args: args, val: res})
	}
	if res == nil {
		return 0
	}
	fr[in.c] = res
	return fell
}

// callBuiltin calls a builtin with the interpreter's semantics: an error
// makes the call undefined unless it is a topdown.Halt, which ends the
// evaluation.
func (e *eval) callBuiltin(fr []*ast.Term, in *instr) int {
	args := e.args[:0]
	onLazy := in.bi.onLazy
	for _, a := range in.args {
		v := e.get(fr, a)
		if v == nil {
			return 0
		}
		if onLazy == nil {
			v = Whole(v)
		}
		args = append(args, v)
	}
	if onLazy != nil {
		if t, ok := onLazy(e, args); ok {
			clearArgs(args)
			fr[in.c] = t
			return fell
		}
		for i, a := range args {
			args[i] = Whole(a)
		}
	}
	e.args = args[:0]
	e.bres = nil
	e.bctx.Location = in.loc
	err := in.bi.f(e.bctx, args, e.biter)
	clearArgs(args)
	if err != nil {
		var halt topdown.Halt
		if errors.As(err, &halt) {
			return e.fail(halt.Err)
		}
		return 0
	}
	if in.bi.void {
		return fell
	}
	if e.bres == nil {
		return 0
	}
	fr[in.c] = e.bres
	return fell
}

// clearItems clears an object literal's items, which the object has copied,
// and keeps the slice for the next.
func clearItems(items [][2]*ast.Term) [][2]*ast.Term {
	clear(items)
	return items[:0]
}

// clearArgs clears a builtin's few arguments one by one: clear (a call
// of the runtime's memclr with its write barriers) cost more than the
// stores for one to three of them.
func clearArgs(args []*ast.Term) {
	for i := len(args) - 1; i >= 0; i-- {
		args[i] = nil
	}
}

// tick counts calls and iterations and checks ctx every few thousand, so a
// canceled evaluation stops soon without a check per statement.
func (e *eval) tick() bool {
	e.ticks++
	if e.ticks&4095 != 0 || e.ctx == nil {
		return false
	}
	if err := e.ctx.Err(); err != nil {
		e.err = fmt.Errorf("plan: %w", context.Cause(e.ctx))
		return true
	}
	return false
}

// Error is an evaluation error in a function (a rule).
type Error struct {
	Func string // the rule's path, e.g. data.kafkalint.rules.x.y.report
	Err  error
}

func (e *Error) Error() string { return e.Func + ": " + e.Err.Error() }
func (e *Error) Unwrap() error { return e.Err }

func (e *eval) fail(err error) int {
	if e.err == nil {
		e.err = &Error{Func: e.fn.rule, Err: err}
	}
	return failed
}

// conflict is the error OPA's interpreter raises for a rule with two values.
func (e *eval) conflict(in *instr, msg string) error {
	return &topdown.Error{Code: topdown.ConflictErr, Message: msg, Location: in.loc}
}

func (e *eval) internal(in *instr, format string, args ...any) error {
	return &topdown.Error{Code: topdown.InternalErr, Message: fmt.Sprintf(format, args...), Location: in.loc}
}

// conflictMessage words a conflict as the interpreter does (without its
// list of the conflicting values).
func conflictMessage(f *function) string {
	if f.isFunc {
		return "function " + f.rule + " produced conflicting values for the same inputs"
	}
	return "rule " + f.rule + " produced conflicting values"
}

var errStop = errors.New("stop")

func sortPlans(p *Program) {
	sort.Slice(p.plans, func(i, j int) bool { return p.plans[i].name < p.plans[j].name })
	p.names = make([]string, len(p.plans))
	for i, pl := range p.plans {
		p.names[i] = pl.name
	}
}
