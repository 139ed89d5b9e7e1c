// Package plan executes an OPA IR plan (ir.Policy, `opa build -t plan`)
// directly on ast values: the compiled form of the built-in rules.
//
// Compile checks a plan once and turns it into an internal form where every
// name is resolved (functions to indexes, builtins to OPA's implementations,
// static strings to terms, locals to dense slots), so evaluation does no
// lookup by name. The semantics follow OPA's own executor of plans, the Wasm
// compiler (internal/compiler/wasm): a statement that is undefined leaves
// its block, BreakStmt{Index: n} leaves n+1 blocks, functions with only the
// (input, data) parameters are memoized per evaluation and per `with` scope;
// those that read neither (constant tables, constants.go) once per Program.
// Builtin calls follow OPA's interpreter, which is the reference: a builtin
// error makes the call undefined (non-strict), only topdown.Halt stops the
// evaluation.
package plan

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"sync/atomic"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/ir"
	"github.com/open-policy-agent/opa/v1/topdown"
)

// Options configure Compile.
type Options struct {
	// Builtins adds non-OPA builtins by name (tests: kafkalint.parse), or
	// replaces an OPA builtin's registered function with one that computes
	// the same (policies: OPA's own, without the limits' wrapper); the
	// rest are OPA's (topdown.GetBuiltin). For the operands they handle,
	// the runtime's own versions of a few OPA builtins (sprintf.go,
	// native.go, the Lazy reads) answer first, so a replacement of one of
	// those is called only for the others.
	Builtins map[string]topdown.BuiltinFunc
	// MemoByValue names Rego functions (data.a.b.f) whose results an
	// evaluation keeps by the value of their arguments: a costly function
	// that several rules call with equal arguments built apart. Only the
	// same values hit: equal numbers written differently (1, 1.0) do not.
	MemoByValue map[string]bool
}

// Program is a compiled plan. It is safe for concurrent use: all state of
// an evaluation lives in its own frame.
type Program struct {
	funcs  []*function
	plans  []*function                 // sorted by name; a plan is a function without parameters
	names  []string                    // the plans' names, sorted
	consts []*ast.Term                 // static strings, booleans, numbers, null
	kept   []atomic.Pointer[keptValue] // the constant functions' values, by index
}

// keptValue is a constant function's value (nil: undefined).
type keptValue struct{ val *ast.Term }

// Entrypoints are the names of the plans, sorted.
func (p *Program) Entrypoints() []string { return slices.Clone(p.names) }

// Compile checks a plan and prepares it; an unsupported statement or builtin
// is an error naming the plan or function (the rule) and the statement.
func Compile(policy *ir.Policy, opts Options) (*Program, error) {
	c, err := newCompiler(policy, opts)
	if err != nil {
		return nil, err
	}
	return c.compile()
}

// EvalAll evaluates every entrypoint on one input, sharing the memo of rule
// functions between them: results[i] is entrypoint i's value, nil when
// undefined. A nil input is an undefined input. The values are shared
// with later evaluations (a constant rule's value is kept in the Program):
// read them, never change them.
func (p *Program) EvalAll(ctx context.Context, input, data ast.Value) ([]ast.Value, error) {
	e := p.newEval(ctx, input, data)
	defer e.release()
	out := make([]ast.Value, len(p.plans))
	for i, pl := range p.plans {
		v, err := e.plan(pl)
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

// Eval evaluates one entrypoint; its value is shared as EvalAll's are.
func (p *Program) Eval(ctx context.Context, entrypoint string, input, data ast.Value) (ast.Value, error) {
	i := sort.SearchStrings(p.names, entrypoint)
	if i == len(p.names) || p.names[i] != entrypoint {
		return nil, fmt.Errorf("plan: no entrypoint %q", entrypoint)
	}
	e := p.newEval(ctx, input, data)
	defer e.release()
	return e.plan(p.plans[i])
}
