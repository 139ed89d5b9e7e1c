package plan

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/ir"
	"github.com/open-policy-agent/opa/v1/topdown"
)

// opcode is an instruction of the internal form, one per IR statement kind.
type opcode uint8

const (
	opArrayAppend opcode = iota
	opAssignInt
	opAssignVar
	opAssignVarOnce
	opBlock
	opBreak
	opCallFunc
	opCallBuiltin
	opDot
	opEqual
	opIsArray
	opIsDefined
	opIsObject
	opIsSet
	opIsUndefined
	opLen
	opMakeArray
	opMakeObject
	opMakeSet
	opConst // MakeNull, MakeNumberInt, MakeNumberRef: the target gets a constant
	opNot
	opNotEqual
	opObjectInsert
	opObjectInsertOnce
	opResetLocal
	opResultSetAdd
	opReturnLocal
	opScan
	opSetAdd
	opWith
	opObjectMerge
	opArrayLiteral  // MakeArrayStmt and the ArrayAppendStmts right after it, fused
	opObjectLiteral // MakeObjectStmt and the ObjectInsertStmts right after it, fused
	opResultValue   // a plan's MakeObjectStmt, ObjectInsertStmt and ResultSetAddStmt of its one binding, fused
)

// maxSlots bounds the constants and the locals of one function, so that
// their indexes fit an operand.
const maxSlots = 1 << 30

// operand is a local slot (>= 0) or a constant (^index into Program.consts).
type operand = int32

// instr is one statement. Which fields are used depends on op (compileStmt).
type instr struct {
	op      opcode
	a, b, c int32
	blocks  [][]instr
	args    []operand // With: the path's static strings
	fn      *function
	bi      *builtin
	loc     *ast.Location
}

// function is a planned function, or a plan (no params, ret -1).
type function struct {
	name    string
	rule    string // the document's path (data.a.b), for errors
	index   int    // in Program.funcs; memo slot
	params  []int32
	ret     int32
	nlocals int
	blocks  [][]instr
	// memo: only (input, data) parameters, so the result depends on
	// nothing else during one evaluation (and one `with` scope).
	memo bool
	// constant: a function of (input, data) that reads neither (constants):
	// its value is kept in the Program once computed outside `with`.
	constant bool
	// byValue: a function (Options.MemoByValue) whose results are kept
	// per evaluation and `with` scope by the value of its arguments.
	byValue bool
	// isFunc: a Rego function (it has arguments), for the wording of
	// conflict errors as the interpreter words them.
	isFunc bool
	// skip: the rule bodies to skip once the return local is set
	// (earlyExit); nil when every block runs.
	skip []bool
	// returnsLast: the function's last block, which only returned the
	// return local, is dropped (returnsLast): a call that ends without a
	// ReturnLocalStmt returns that local.
	returnsLast bool
}

type builtin struct {
	name   string
	f      topdown.BuiltinFunc
	void   bool        // no result: the call succeeds without a value
	onLazy lazyBuiltin // OPA's builtin on a Lazy argument, without its whole value
}

// stmtError names the statement Compile refuses.
type stmtError struct {
	stmt ir.Stmt
	err  error
}

func (e *stmtError) Error() string {
	var buf bytes.Buffer
	_ = ir.Pretty(&buf, e.stmt)
	return strings.TrimPrefix(strings.TrimSpace(buf.String()), "| ") + ": " + e.err.Error()
}

func (e *stmtError) Unwrap() error { return e.err }

// blockKind is what a block belongs to, for the check of breaks.
type blockKind uint8

const (
	kindTop blockKind = iota // a function's or plan's own block
	kindSub                  // a BlockStmt's block
	kindScan
	kindNot
	kindWith
)

type compiler struct {
	policy   *ir.Policy
	opts     Options
	prog     *Program
	funcs    map[string]*function
	builtins map[string]*builtin
	decls    map[string]*ir.BuiltinFunc
	strs     []operand // static string index -> constant
	consts   map[constKey]operand
	files    []string

	tooBig bool // more than maxSlots constants or locals of one function

	// per function
	fn      *function
	slots   []int32            // by IR local below denseLocals: slot+1, 0 when none yet
	locals  map[ir.Local]int32 // the other IR locals' slots
	nlocals int32
	kinds   []blockKind
	alias   map[ir.Local]ir.Local // copies read in place (aliases)
	scan    aliasScan             // aliases' memory, reused
}

func newCompiler(policy *ir.Policy, opts Options) (*compiler, error) {
	if policy == nil || policy.Plans == nil {
		return nil, errors.New("plan: no plans")
	}
	c := &compiler{
		policy: policy, opts: opts, prog: &Program{},
		funcs: map[string]*function{}, builtins: map[string]*builtin{}, decls: map[string]*ir.BuiltinFunc{},
		consts: map[constKey]operand{},
	}
	if s := policy.Static; s != nil {
		for _, str := range s.Strings {
			c.strs = append(c.strs, c.constant(ast.StringTerm(str.Value)))
		}
		for _, b := range s.BuiltinFuncs {
			c.decls[b.Name] = b
		}
		for _, f := range s.Files {
			c.files = append(c.files, f.Value)
		}
	}
	return c, nil
}

// constKey identifies a constant: its kind and its text (a plan's
// constants are strings, numbers, booleans and null; formatting each with
// fmt was a tenth of Compile's time, which every process start pays).
type constKey struct {
	kind byte
	text string
}

func constKeyOf(v ast.Value) constKey {
	switch v := v.(type) {
	case ast.String:
		return constKey{'s', string(v)}
	case ast.Number:
		return constKey{'n', string(v)}
	case ast.Boolean:
		if v {
			return constKey{'b', "true"}
		}
		return constKey{'b', "false"}
	case ast.Null:
		return constKey{'z', ""}
	}
	return constKey{0, fmt.Sprintf("%T:%v", v, v)}
}

// constant interns a constant term; constants are shared by every
// evaluation, so only immutable values (scalars) are constants.
func (c *compiler) constant(t *ast.Term) operand {
	key := constKeyOf(t.Value)
	if o, ok := c.consts[key]; ok {
		return o
	}
	if len(c.prog.consts) >= maxSlots {
		c.tooBig = true
		return ^0
	}
	o := ^operand(len(c.prog.consts)) //nolint:gosec // Compile refuses plans past maxSlots
	c.prog.consts = append(c.prog.consts, t)
	c.consts[key] = o
	return o
}

func (c *compiler) compile() (*Program, error) {
	var funcs []*ir.Func
	if c.policy.Funcs != nil {
		funcs = c.policy.Funcs.Funcs
	}
	// Declare every function first: calls may precede the callee.
	c.funcs = make(map[string]*function, len(funcs))
	c.prog.funcs = make([]*function, 0, len(funcs))
	for i, f := range funcs {
		if _, dup := c.funcs[f.Name]; dup {
			return nil, fmt.Errorf("plan: function %s declared twice", f.Name)
		}
		fn := &function{name: f.Name, rule: rulePath(f), index: i, memo: len(f.Params) == 2, isFunc: len(f.Params) > 2}
		fn.byValue = fn.isFunc && c.opts.MemoByValue[fn.rule]
		c.funcs[f.Name] = fn
		c.prog.funcs = append(c.prog.funcs, fn)
	}
	// A name that matches no function is a mistake (a renamed rule), not
	// a memo that silently stops working.
	for name := range c.opts.MemoByValue {
		if !slices.ContainsFunc(c.prog.funcs, func(fn *function) bool { return fn.byValue && fn.rule == name }) {
			return nil, fmt.Errorf("plan: MemoByValue names %s, which is no function with arguments of the plan", name)
		}
	}
	for _, f := range funcs {
		fn := c.funcs[f.Name]
		c.begin(fn)
		c.alias = aliases(f, &c.scan)
		for _, p := range f.Params {
			fn.params = append(fn.params, c.local(p))
		}
		fn.ret = c.local(f.Return)
		if err := c.body(fn, f.Blocks); err != nil {
			return nil, fmt.Errorf("plan: function %s: %w", f.Name, err)
		}
		fn.skip = earlyExit(f)
		fn.returnsLast = returnsLast(fn)
	}
	constants(funcs, c.funcs)
	c.prog.kept = make([]atomic.Pointer[keptValue], len(funcs))
	plans := c.policy.Plans.Plans
	for _, p := range plans {
		fn := &function{name: p.Name, rule: p.Name, index: -1, ret: -1}
		c.begin(fn)
		c.local(ir.Input)
		c.local(ir.Data)
		if err := c.body(fn, p.Blocks); err != nil {
			return nil, fmt.Errorf("plan: plan %s: %w", p.Name, err)
		}
		c.prog.plans = append(c.prog.plans, fn)
	}
	if c.tooBig {
		return nil, fmt.Errorf("plan: more than %d constants or locals in a function", maxSlots)
	}
	sortPlans(c.prog)
	for i := 1; i < len(c.prog.names); i++ {
		if c.prog.names[i] == c.prog.names[i-1] {
			return nil, fmt.Errorf("plan: plan %s declared twice", c.prog.names[i])
		}
	}
	return c.prog, nil
}

// returnsLast drops a function's last block when all it does is return
// the return local (the planner ends every function so): running it was a
// call of run and a statement per call. It reports whether it did.
func returnsLast(fn *function) bool {
	n := len(fn.blocks)
	if n == 0 || n <= len(fn.skip) && fn.skip[n-1] {
		return false
	}
	last := fn.blocks[n-1]
	if len(last) != 1 || last[0].op != opReturnLocal || last[0].a != fn.ret {
		return false
	}
	fn.blocks = fn.blocks[:n-1]
	return true
}

func (c *compiler) begin(fn *function) {
	c.fn = fn
	c.alias = nil
	clear(c.slots)
	c.locals = nil
	c.nlocals = 0
}

// denseLocals bounds the IR locals whose slots a slice holds (the
// planner numbers a function's locals from 0), the rest a map.
const denseLocals = 1 << 16

// local maps an IR local to a dense slot of the function's frame; slots 0
// and 1 of a plan are input and data.
func (c *compiler) local(l ir.Local) int32 {
	for range len(c.alias) { // a copy (aliases) of a copy ...: the first source's slot
		a, ok := c.alias[l]
		if !ok {
			break
		}
		l = a
	}
	dense := l >= 0 && l < denseLocals
	if dense {
		if int(l) >= len(c.slots) {
			c.slots = append(c.slots, make([]int32, int(l)+1-len(c.slots))...)
		}
		if s := c.slots[l]; s > 0 {
			return s - 1
		}
	} else if s, ok := c.locals[l]; ok {
		return s
	}
	if c.nlocals >= maxSlots {
		c.tooBig = true
		return 0
	}
	s := c.nlocals
	c.nlocals++
	if dense {
		c.slots[l] = s + 1
	} else {
		if c.locals == nil {
			c.locals = map[ir.Local]int32{}
		}
		c.locals[l] = s
	}
	c.fn.nlocals = int(c.nlocals)
	return s
}

func (c *compiler) body(fn *function, blocks []*ir.Block) error {
	for i, b := range blocks {
		code, err := c.block(b, kindTop)
		if err != nil {
			return fmt.Errorf("block %d: %w", i, err)
		}
		fn.blocks = append(fn.blocks, code)
	}
	return nil
}

func (c *compiler) block(b *ir.Block, kind blockKind) ([]instr, error) {
	c.kinds = append(c.kinds, kind)
	defer func() { c.kinds = c.kinds[:len(c.kinds)-1] }()
	code := make([]instr, 0, len(b.Stmts))
	for _, s := range b.Stmts {
		if _, nop := s.(*ir.NopStmt); nop {
			continue
		}
		if av, ok := s.(*ir.AssignVarStmt); ok {
			if _, copied := c.alias[av.Target]; copied {
				continue // its source is read in place
			}
		}
		in, err := c.stmt(s)
		if err != nil {
			var se *stmtError
			if errors.As(err, &se) {
				return nil, err // a nested statement's, already named
			}
			return nil, &stmtError{stmt: s, err: err}
		}
		code = append(code, in)
	}
	return fuseObjects(fuseResults(fuseArrays(code))), nil
}

// fuseResults turns a plan's result, an object of one binding made, filled
// and added to the result set, into one instruction that records the
// binding's value: the object was built only to be taken apart (plan).
func fuseResults(code []instr) []instr {
	out := code[:0]
	for i := 0; i < len(code); i++ {
		in := code[i]
		if i+2 < len(code) && in.op == opMakeObject {
			ins, add := code[i+1], code[i+2]
			if ins.op == opObjectInsert && ins.c == in.c && ins.a < 0 && ins.b != in.c &&
				add.op == opResultSetAdd && add.a == in.c {
				out = append(out, instr{op: opResultValue, a: ins.b})
				i += 2
				continue
			}
		}
		out = append(out, in)
	}
	return out
}

// fuseArrays turns a MakeArrayStmt followed by appends to that array (an
// array literal) into one instruction that builds the array at once: each
// ast.Array.Append allocates a new array header. The appended values must
// not read the array itself, which a literal's never do.
func fuseArrays(code []instr) []instr {
	return fuseLiterals(code, opMakeArray, opArrayLiteral, func(in instr, target operand) ([]operand, bool) {
		return []operand{in.a}, in.op == opArrayAppend && in.c == target && in.a != target
	})
}

// fuseObjects turns a MakeObjectStmt followed by inserts into that object
// (an object literal) into one instruction that builds the object at once,
// sized for its keys: inserted one by one, an object grew its key list
// and map as it went. args are the key and value of each insert in turn;
// neither may read the object itself, which a literal's never do.
func fuseObjects(code []instr) []instr {
	return fuseLiterals(code, opMakeObject, opObjectLiteral, func(in instr, target operand) ([]operand, bool) {
		return []operand{in.a, in.b}, in.op == opObjectInsert && in.c == target && in.a != target && in.b != target
	})
}

// fuseLiterals turns each statement that makes a collection (maker) and the
// statements right after it that fill it (fill: the operands a statement
// adds, and whether it is one) into one instruction (literal) with all
// their operands.
func fuseLiterals(code []instr, maker, literal opcode, fill func(in instr, target operand) ([]operand, bool)) []instr {
	out := code[:0]
	for i := 0; i < len(code); i++ {
		in := code[i]
		if in.op != maker {
			out = append(out, in)
			continue
		}
		j := i + 1
		var args []operand
		for ; j < len(code); j++ {
			ops, ok := fill(code[j], in.c)
			if !ok {
				break
			}
			args = append(args, ops...)
		}
		if len(args) == 0 {
			out = append(out, in)
			continue
		}
		out = append(out, instr{op: literal, args: args, c: in.c})
		i = j - 1
	}
	return out
}

func (c *compiler) operand(o ir.Operand) (operand, error) {
	v := o.Value
	// Decoded from JSON, operands hold pointers (ir's unmarshaller).
	switch p := v.(type) {
	case *ir.Local:
		v = *p
	case *ir.StringIndex:
		v = *p
	case *ir.Bool:
		v = *p
	}
	switch v := v.(type) {
	case ir.Local:
		return c.local(v), nil
	case ir.StringIndex:
		if int(v) < 0 || int(v) >= len(c.strs) {
			return 0, fmt.Errorf("string index %d out of range", v)
		}
		return c.strs[v], nil
	case ir.Bool:
		return c.constant(ast.BooleanTerm(bool(v))), nil
	}
	return 0, fmt.Errorf("unsupported operand %T", o.Value)
}

func (c *compiler) location(l *ir.Location) *ast.Location {
	if l == nil || l.Row == 0 {
		return nil
	}
	loc := &ast.Location{Row: l.Row, Col: l.Col}
	if l.File >= 0 && l.File < len(c.files) {
		loc.File = c.files[l.File]
	}
	return loc
}

// stmt compiles one statement.
func (c *compiler) stmt(s ir.Stmt) (instr, error) {
	var errs []error
	op := func(o ir.Operand) operand {
		x, err := c.operand(o)
		if err != nil {
			errs = append(errs, err)
		}
		return x
	}
	var in instr
	switch s := s.(type) {
	case *ir.ArrayAppendStmt:
		in = instr{op: opArrayAppend, a: op(s.Value), c: c.local(s.Array)}
	case *ir.AssignIntStmt:
		in = instr{op: opAssignInt, b: c.constant(ast.IntNumberTerm(int(s.Value))), c: c.local(s.Target)}
	case *ir.AssignVarStmt:
		in = instr{op: opAssignVar, a: op(s.Source), c: c.local(s.Target)}
	case *ir.AssignVarOnceStmt:
		in = instr{op: opAssignVarOnce, a: op(s.Source), c: c.local(s.Target), loc: c.location(&s.Location)}
	case *ir.BlockStmt:
		in = instr{op: opBlock}
		for _, b := range s.Blocks {
			code, err := c.block(b, kindSub)
			if err != nil {
				return in, err
			}
			in.blocks = append(in.blocks, code)
		}
	case *ir.BreakStmt:
		if err := c.checkBreak(int(s.Index)); err != nil {
			return in, err
		}
		in = instr{op: opBreak, a: int32(s.Index)} //nolint:gosec // checkBreak: below the depth of blocks
	case *ir.CallStmt:
		return c.call(s)
	case *ir.DotStmt:
		in = instr{op: opDot, a: op(s.Source), b: op(s.Key), c: c.local(s.Target)}
	case *ir.EqualStmt:
		in = instr{op: opEqual, a: op(s.A), b: op(s.B)}
	case *ir.NotEqualStmt:
		in = instr{op: opNotEqual, a: op(s.A), b: op(s.B)}
	case *ir.IsArrayStmt:
		in = instr{op: opIsArray, a: op(s.Source)}
	case *ir.IsObjectStmt:
		in = instr{op: opIsObject, a: op(s.Source)}
	case *ir.IsSetStmt:
		in = instr{op: opIsSet, a: op(s.Source)}
	case *ir.IsDefinedStmt:
		in = instr{op: opIsDefined, a: c.local(s.Source)}
	case *ir.IsUndefinedStmt:
		in = instr{op: opIsUndefined, a: c.local(s.Source)}
	case *ir.LenStmt:
		in = instr{op: opLen, a: op(s.Source), c: c.local(s.Target)}
	case *ir.MakeArrayStmt:
		in = instr{op: opMakeArray, b: max(s.Capacity, 0), c: c.local(s.Target)}
	case *ir.MakeObjectStmt:
		in = instr{op: opMakeObject, c: c.local(s.Target)}
	case *ir.MakeSetStmt:
		in = instr{op: opMakeSet, c: c.local(s.Target)}
	case *ir.MakeNullStmt:
		in = instr{op: opConst, b: c.constant(ast.NullTerm()), c: c.local(s.Target)}
	case *ir.MakeNumberIntStmt:
		in = instr{op: opConst, b: c.constant(ast.IntNumberTerm(int(s.Value))), c: c.local(s.Target)}
	case *ir.MakeNumberRefStmt:
		if s.Index < 0 || s.Index >= len(c.strs) {
			return in, fmt.Errorf("string index %d out of range", s.Index)
		}
		str := c.policy.Static.Strings[s.Index].Value
		in = instr{op: opConst, b: c.constant(ast.NumberTerm(json.Number(str))), c: c.local(s.Target)}
	case *ir.NotStmt:
		code, err := c.block(s.Block, kindNot)
		if err != nil {
			return in, err
		}
		in = instr{op: opNot, blocks: [][]instr{code}}
	case *ir.ObjectInsertStmt:
		in = instr{op: opObjectInsert, a: op(s.Key), b: op(s.Value), c: c.local(s.Object)}
	case *ir.ObjectInsertOnceStmt:
		in = instr{op: opObjectInsertOnce, a: op(s.Key), b: op(s.Value), c: c.local(s.Object), loc: c.location(&s.Location)}
	case *ir.ResetLocalStmt:
		in = instr{op: opResetLocal, c: c.local(s.Target)}
	case *ir.ResultSetAddStmt:
		if c.fn.index >= 0 {
			return in, errors.New("result set outside a plan")
		}
		in = instr{op: opResultSetAdd, a: c.local(s.Value)}
	case *ir.ReturnLocalStmt:
		if c.fn.index < 0 {
			return in, errors.New("return in a plan")
		}
		in = instr{op: opReturnLocal, a: c.local(s.Source)}
	case *ir.ScanStmt:
		src, key, val := c.local(s.Source), c.local(s.Key), c.local(s.Value)
		code, err := c.block(s.Block, kindScan)
		if err != nil {
			return in, err
		}
		in = instr{op: opScan, a: src, b: key, c: val, blocks: [][]instr{code}}
	case *ir.SetAddStmt:
		in = instr{op: opSetAdd, a: op(s.Value), c: c.local(s.Set)}
	case *ir.WithStmt:
		in = instr{op: opWith, a: c.local(s.Local), b: op(s.Value)}
		for _, p := range s.Path {
			if p < 0 || p >= len(c.strs) {
				return in, fmt.Errorf("string index %d out of range", p)
			}
			in.args = append(in.args, c.strs[p])
		}
		code, err := c.block(s.Block, kindWith)
		if err != nil {
			return in, err
		}
		in.blocks = [][]instr{code}
	case *ir.ObjectMergeStmt:
		in = instr{op: opObjectMerge, a: c.local(s.A), b: c.local(s.B), c: c.local(s.Target), loc: c.location(&s.Location)}
	default:
		// CallDynamicStmt is not planned for these rules (no ref into
		// data with a variable that rules could answer); refusing it keeps
		// an untested semantics out.
		return in, fmt.Errorf("unsupported statement %T", s)
	}
	return in, errors.Join(errs...)
}

// checkBreak refuses a break that the executor's model does not cover: a
// break may leave BlockStmt blocks and then one block of any kind, which is
// every break the planner emits. Leaving a scan, not or with body and more
// would be ambiguous (the Wasm backend counts a scan as two levels and
// skips a with's restore).
func (c *compiler) checkBreak(n int) error {
	if n >= len(c.kinds) {
		return fmt.Errorf("break %d leaves the function", n)
	}
	for j := range n {
		if c.kinds[len(c.kinds)-1-j] != kindSub {
			return fmt.Errorf("break %d leaves a scan, not or with block", n)
		}
	}
	return nil
}

func (c *compiler) call(s *ir.CallStmt) (instr, error) {
	in := instr{c: c.local(s.Result), loc: c.location(&s.Location)}
	for _, a := range s.Args {
		o, err := c.operand(a)
		if err != nil {
			return in, err
		}
		in.args = append(in.args, o)
	}
	if fn, ok := c.funcs[s.Func]; ok {
		if len(s.Args) != len(c.funcByName(s.Func).Params) {
			return in, fmt.Errorf("%s called with %d arguments", s.Func, len(s.Args))
		}
		in.op, in.fn = opCallFunc, fn
		return in, nil
	}
	bi, err := c.builtin(s.Func)
	if err != nil {
		return in, err
	}
	in.op, in.bi = opCallBuiltin, bi
	return in, nil
}

func (c *compiler) funcByName(name string) *ir.Func {
	return c.policy.Funcs.Funcs[c.funcs[name].index]
}

func (c *compiler) builtin(name string) (*builtin, error) {
	if b, ok := c.builtins[name]; ok {
		return b, nil
	}
	f := c.opts.Builtins[name]
	var onLazy lazyBuiltin
	if f == nil {
		f = topdown.GetBuiltin(name)
	}
	if ast.BuiltinMap[name] != nil { // OPA's builtin, in whatever function
		onLazy = lazyBuiltins[name]
	}
	if f == nil {
		return nil, fmt.Errorf("unknown builtin %s", name)
	}
	b := &builtin{name: name, f: f, onLazy: onLazy}
	if d := c.decls[name]; d != nil && d.Decl != nil {
		b.void = d.Decl.Result() == nil
	} else if ob := ast.BuiltinMap[name]; ob != nil && ob.Decl != nil {
		b.void = ob.Decl.Result() == nil
	}
	c.builtins[name] = b
	return b, nil
}

// rulePath is the path of the document a function computes, as OPA's
// interpreter names it in errors (data.a["b-c"].d); the function's name
// when it has no path.
func rulePath(f *ir.Func) string {
	if len(f.Path) < 2 {
		return f.Name
	}
	ref := ast.DefaultRootRef.Copy()
	for _, s := range f.Path[1:] { // Path[0] is the planner's group ("g0")
		ref = ref.Append(ast.StringTerm(s))
	}
	return ref.String()
}
