package terraform

import (
	"errors"
	"fmt"
	"maps"
	"math/big"
	"path"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/typeexpr"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/kafkalint/kafkalint/loader/doc"
)

// origin marks a value with where it was written. Marks travel with values
// through variables, locals, for-expressions and functions (go-cty's
// marks), so a key built by join/format over a map is located at the map
// entry that holds it.
type origin struct {
	pos  doc.Location
	expr string // the source text of the value's expression
	// depth is 0 for a variable, local or tfvars assignment and grows by
	// one per map or list level; the deepest origin is the most precise.
	depth int
	// lines locates each line of a multi-line string written as a template
	// (a heredoc).
	lines *lineTable
	// input: the argument of a module call, which locates a scalar better
	// than the called module's use of its variable (shared by every call).
	input bool
}

// lineTable maps the lines of a text to where each was written.
type lineTable struct {
	text []string
	pos  []doc.Location
}

type valueCache struct {
	state int // 0 not evaluated, 1 evaluating, 2 done
	v     cty.Value
}

// refPrefix starts the value that stands for a resource or module attribute
// such as an ARN or bootstrap servers: it names the cluster group, so a
// configuration_info.arn or a provider's bootstrap_servers links to it.
const refPrefix = "kafkalint-ref:"

// maxInstances bounds count/for_each expansion.
const maxInstances = 256

func (m *module) pos(r hcl.Range) doc.Location {
	return doc.Location{File: r.Filename, Line: r.Start.Line, Column: r.Start.Column}
}

func (m *module) exprText(expr hcl.Expression) string {
	r := expr.Range()
	if s := m.sources[r.Filename]; s != nil {
		return strings.TrimSpace(s.text(r))
	}
	return ""
}

// originOf picks the most precise origin among a value's marks: the
// deepest one, unless several values of that depth were combined (a joined
// or encoded map), in which case the deepest depth with a single origin.
func originOf(marks cty.ValueMarks) *origin {
	byDepth := map[int][]*origin{}
	deepest := -1
	for mk := range marks {
		if o, ok := mk.(*origin); ok {
			byDepth[o.depth] = append(byDepth[o.depth], o)
			deepest = max(deepest, o.depth)
		}
	}
	for d := deepest; d >= 0; d-- {
		if len(byDepth[d]) == 1 {
			return byDepth[d][0]
		}
	}
	return nil
}

// eval evaluates an expression, marking the entries of object and tuple
// constructors with their positions. Errors make the value unknown: a
// module that Terraform would reject gives no certain value.
//
// Every expression of the module is evaluated here, never by HCL's own
// Value methods on a compound expression: those recurse into
// for-expressions and templates without any bound, so this evaluator
// walks compound expressions itself and holds each step to the module's
// Limits (see budget.go). Where it hands an expression to HCL, the
// operands are already-evaluated literals.
func (m *module) eval(expr hcl.Expression, ctx *hcl.EvalContext, depth int) (v cty.Value) {
	if m.budget.depth >= m.limits.MaxDepth {
		return m.over("the nesting of expressions", m.limits.MaxDepth, expr.Range())
	}
	if m.budget.depth == 0 {
		m.budget.start = m.budget.work
	}
	m.budget.depth++
	m.sized = sized{}
	plain := m.plain
	defer func() {
		m.budget.depth--
		m.plain = plain
		if r := recover(); r != nil { // a go-cty panic on odd input must not stop the linter
			v = m.fail()
		}
	}()
	switch e := expr.(type) {
	case *hclsyntax.LiteralValueExpr:
		return m.checkNumber(e.Val, e.SrcRange)
	case *hclsyntax.ParenthesesExpr:
		return m.eval(e.Expression, ctx, depth)
	case *hclsyntax.TemplateWrapExpr:
		return m.eval(e.Wrapped, ctx, depth)
	case *hclsyntax.TemplateExpr:
		return m.evalTemplate(e, ctx)
	case *hclsyntax.TemplateJoinExpr:
		return m.evalTemplateJoin(e, ctx)
	case *hclsyntax.ForExpr:
		return m.evalFor(e, ctx)
	case *hclsyntax.ObjectConsExpr:
		return m.evalObject(expr, ctx, depth)
	case *hclsyntax.TupleConsExpr:
		exprs := make([]hcl.Expression, len(e.Exprs))
		for i, x := range e.Exprs {
			exprs[i] = x
		}
		return m.evalTuple(exprs, ctx, depth, e.SrcRange)
	case *hclsyntax.ConditionalExpr:
		if m.plain > 0 {
			// As HCL does: both results are evaluated and unified.
			return m.withOperands(&hclsyntax.ConditionalExpr{
				Condition: m.operand(e.Condition, ctx), TrueResult: m.operand(e.TrueResult, ctx),
				FalseResult: m.operand(e.FalseResult, ctx), SrcRange: e.SrcRange,
			}, ctx)
		}
		c, _ := m.eval(e.Condition, ctx, depth).Unmark()
		c, err := convert.Convert(c, cty.Bool)
		if err != nil {
			return m.fail()
		}
		if !c.IsKnown() || c.IsNull() {
			return cty.DynamicVal
		}
		if c.True() {
			return m.eval(e.TrueResult, ctx, depth)
		}
		return m.eval(e.FalseResult, ctx, depth)
	case *hclsyntax.BinaryOpExpr:
		out := m.withOperands(&hclsyntax.BinaryOpExpr{LHS: m.operand(e.LHS, ctx), Op: e.Op, RHS: m.operand(e.RHS, ctx), SrcRange: e.SrcRange}, ctx)
		return m.checkNumber(out, e.SrcRange)
	case *hclsyntax.UnaryOpExpr:
		out := m.withOperands(&hclsyntax.UnaryOpExpr{Op: e.Op, Val: m.operand(e.Val, ctx), SrcRange: e.SrcRange, SymbolRange: e.SymbolRange}, ctx)
		return m.checkNumber(out, e.SrcRange)
	case *hclsyntax.IndexExpr:
		return m.withOperands(&hclsyntax.IndexExpr{
			Collection: m.operand(e.Collection, ctx), Key: m.operand(e.Key, ctx),
			SrcRange: e.SrcRange, OpenRange: e.OpenRange, BracketRange: e.BracketRange,
		}, ctx)
	case *hclsyntax.RelativeTraversalExpr:
		return m.withOperands(&hclsyntax.RelativeTraversalExpr{Source: m.operand(e.Source, ctx), Traversal: e.Traversal, SrcRange: e.SrcRange}, ctx)
	case *hclsyntax.SplatExpr:
		// Each is a traversal of the anonymous item (HCL evaluates it per
		// element, which costs no more than the source's length).
		return m.withOperands(&hclsyntax.SplatExpr{Source: m.operand(e.Source, ctx), Each: e.Each, Item: e.Item, SrcRange: e.SrcRange, MarkerRange: e.MarkerRange}, ctx)
	case *hclsyntax.FunctionCallExpr:
		f, own, ok := lookupFunction(ctx, e.Name)
		if !ok {
			return m.fail() // tfvars and variable defaults call no functions
		}
		if !own {
			// In a child context (count, for_each) HCL used to evaluate
			// the call itself: its arguments carry no position marks.
			m.plain++
		}
		if e.Name == "try" || e.Name == "can" {
			return m.evalTry(e, ctx)
		}
		if e.ExpandFinal {
			args := make([]hclsyntax.Expression, len(e.Args))
			for i, a := range e.Args {
				args[i] = m.operand(a, ctx)
			}
			m.site = e.Range()
			return m.withOperands(&hclsyntax.FunctionCallExpr{
				Name: e.Name, Args: args, ExpandFinal: true,
				NameRange: e.NameRange, OpenParenRange: e.OpenParenRange, CloseParenRange: e.CloseParenRange,
			}, ctx)
		}
		params, varParam := f.Params(), f.VarParam()
		args := make([]cty.Value, len(e.Args))
		for i, a := range e.Args {
			// Convert each argument to its parameter's type, as HCL does
			// before calling a function.
			var param *function.Parameter
			switch {
			case i < len(params):
				param = &params[i]
			case varParam != nil:
				param = varParam
			default:
				return m.fail()
			}
			arg, err := convert.Convert(m.eval(a, ctx, depth), param.Type)
			if err != nil {
				return m.fail()
			}
			args[i] = arg
		}
		m.site = e.Range()
		out, err := f.Call(args)
		if err != nil {
			if errors.Is(err, errOverBudget) {
				return cty.DynamicVal
			}
			return m.fail()
		}
		return out
	}
	if _, native := expr.(hclsyntax.Expression); !native {
		return m.evalJSON(expr, ctx, depth)
	}
	// What is left takes no operands (references, the anonymous item of a
	// splat) or is a kind this evaluator does not know: its result is
	// checked instead.
	out, diags := expr.Value(ctx)
	if diags.HasErrors() {
		return m.fail()
	}
	switch expr.(type) {
	case *hclsyntax.ScopeTraversalExpr, *hclsyntax.AnonSymbolExpr:
		return out // a value already checked when it was made
	}
	if _, _, ok := m.measure(out, expr.Range()); !ok {
		return cty.DynamicVal
	}
	return out
}

// lookupFunction finds a function in a context or its parents; own: in
// the context itself.
func lookupFunction(ctx *hcl.EvalContext, name string) (f function.Function, own, ok bool) {
	for c, first := ctx, true; c != nil; c, first = c.Parent(), false {
		if f, ok := c.Functions[name]; ok {
			return f, first, true
		}
	}
	return function.Function{}, false, false
}

// fail is the value of an expression Terraform would reject. try() and
// can() count these to tell an error from an unknown value.
func (m *module) fail() cty.Value {
	m.failed++
	return cty.DynamicVal
}

// operand evaluates an operand of an expression handed to HCL, as HCL
// would: without position marks.
func (m *module) operand(expr hcl.Expression, ctx *hcl.EvalContext) hclsyntax.Expression {
	m.plain++
	defer func() { m.plain-- }()
	return &hclsyntax.LiteralValueExpr{Val: m.eval(expr, ctx, 0), SrcRange: expr.Range()}
}

// withOperands lets HCL apply an operator to evaluated operands.
func (m *module) withOperands(expr hclsyntax.Expression, ctx *hcl.EvalContext) cty.Value {
	out, diags := expr.Value(ctx)
	if diags.HasErrors() {
		return m.fail()
	}
	return out
}

// evalTry is Terraform's try() and can(): the first argument that
// evaluates without an error (an unknown one makes the result unknown).
func (m *module) evalTry(e *hclsyntax.FunctionCallExpr, ctx *hcl.EvalContext) cty.Value {
	m.plain++
	defer func() { m.plain-- }()
	before := m.failed
	for _, a := range e.Args {
		m.failed = before
		v := m.eval(a, ctx, 0)
		if m.failed != before {
			continue
		}
		if e.Name == "can" {
			if !v.IsWhollyKnown() {
				return cty.UnknownVal(cty.Bool)
			}
			return cty.True
		}
		if !v.IsWhollyKnown() {
			return cty.DynamicVal
		}
		return v
	}
	m.failed = before
	if e.Name == "can" && len(e.Args) == 1 {
		return cty.False
	}
	return m.fail()
}

// evalTemplate concatenates a template's parts, checking the length of
// the result before building it.
func (m *module) evalTemplate(e *hclsyntax.TemplateExpr, ctx *hcl.EvalContext) cty.Value {
	m.plain++
	defer func() { m.plain-- }()
	parts := make([]string, 0, len(e.Parts))
	marks := cty.ValueMarks{}
	known, total, literal := true, 0, true
	for _, p := range e.Parts {
		if _, ok := p.(*hclsyntax.LiteralValueExpr); !ok {
			literal = false
		}
		v := m.eval(p, ctx, 0)
		if v.IsNull() {
			return m.fail()
		}
		v, pm := v.Unmark()
		maps.Copy(marks, pm)
		if !v.IsKnown() {
			known = false
			continue
		}
		s, err := convert.Convert(v, cty.String)
		if err != nil {
			return m.fail()
		}
		parts = append(parts, s.AsString())
		total += len(s.AsString())
		if total > m.limits.MaxString {
			return m.over("the length of a string", m.limits.MaxString, e.SrcRange)
		}
	}
	if !known {
		return cty.UnknownVal(cty.String).WithMarks(marks)
	}
	if !literal && !m.charge(1+total/64, e.SrcRange) {
		return cty.DynamicVal
	}
	return cty.StringVal(strings.Join(parts, "")).WithMarks(marks)
}

// evalTemplateJoin joins the strings a template's for directive makes.
func (m *module) evalTemplateJoin(e *hclsyntax.TemplateJoinExpr, ctx *hcl.EvalContext) cty.Value {
	m.plain++
	defer func() { m.plain-- }()
	tuple := m.eval(e.Tuple, ctx, 0)
	if tuple.Type() == cty.DynamicPseudoType || !tuple.IsKnown() {
		return cty.UnknownVal(cty.String)
	}
	tuple, marks := tuple.Unmark()
	if !tuple.CanIterateElements() {
		return m.fail()
	}
	all := []cty.ValueMarks{marks}
	var parts []string
	total := 0
	for it := tuple.ElementIterator(); it.Next(); {
		_, v := it.Element()
		if v.IsNull() {
			return m.fail()
		}
		if v.Type() == cty.DynamicPseudoType || !v.IsKnown() {
			return cty.UnknownVal(cty.String).WithMarks(marks)
		}
		s, err := convert.Convert(v, cty.String)
		if err != nil {
			return m.fail()
		}
		s, sm := s.Unmark()
		all = append(all, sm)
		parts = append(parts, s.AsString())
		total += len(s.AsString())
		if total > m.limits.MaxString {
			return m.over("the length of a string", m.limits.MaxString, e.Range())
		}
	}
	if !m.charge(1+total/64, e.Range()) {
		return cty.DynamicVal
	}
	return cty.StringVal(strings.Join(parts, "")).WithMarks(all...)
}

// evalFor is a for-expression, with HCL's semantics, one iteration of the
// module's work budget per element and the collection limit on its result.
func (m *module) evalFor(e *hclsyntax.ForExpr, ctx *hcl.EvalContext) cty.Value {
	m.plain++
	defer func() { m.plain-- }()
	coll := m.eval(e.CollExpr, ctx, 0)
	if coll.IsNull() {
		return m.fail()
	}
	if coll.Type() == cty.DynamicPseudoType {
		return cty.DynamicVal
	}
	coll, collMarks := coll.Unmark()
	marks := []cty.ValueMarks{collMarks}
	if !coll.CanIterateElements() {
		return m.fail()
	}
	if !coll.IsKnown() {
		return cty.DynamicVal.WithMarks(marks...)
	}
	vals := map[string]cty.Value{}
	groups := map[string][]cty.Value{}
	var tuple []cty.Value
	known := true
	total := size{nodes: 1}
	add := func(v cty.Value) bool {
		sz, ok := m.sizeOf(e.ValExpr.Range(), v)
		total.nodes, total.bytes = total.nodes+sz.nodes, total.bytes+sz.bytes
		if ok && total.nodes > m.limits.MaxNodes {
			m.over("the size of a value", m.limits.MaxNodes, e.SrcRange)
			return false
		}
		return ok
	}
	for it := coll.ElementIterator(); it.Next(); {
		if !m.charge(1, e.SrcRange) {
			return cty.DynamicVal
		}
		k, v := it.Element()
		child := ctx.NewChild()
		child.Variables = map[string]cty.Value{e.ValVar: v}
		if e.KeyVar != "" {
			child.Variables[e.KeyVar] = k
		}
		if e.CondExpr != nil {
			c := m.eval(e.CondExpr, child, 0)
			if c.IsNull() {
				return m.fail()
			}
			c, cm := c.Unmark()
			marks = append(marks, cm)
			c, err := convert.Convert(c, cty.Bool)
			if err != nil {
				return m.fail()
			}
			if !c.IsKnown() {
				known = false
				continue
			}
			if c.False() {
				continue
			}
		}
		if e.KeyExpr == nil {
			val := m.eval(e.ValExpr, child, 0)
			if !add(val) {
				return cty.DynamicVal
			}
			tuple = append(tuple, val)
			if len(tuple) > m.limits.MaxCollection {
				return m.over("the number of elements of a collection", m.limits.MaxCollection, e.SrcRange)
			}
			continue
		}
		key := m.eval(e.KeyExpr, child, 0)
		if key.IsNull() {
			return m.fail()
		}
		key, km := key.Unmark()
		marks = append(marks, km)
		if !key.IsKnown() {
			known = false
			continue
		}
		key, err := convert.Convert(key, cty.String)
		if err != nil {
			return m.fail()
		}
		key, _ = key.Unmark()
		val := m.eval(e.ValExpr, child, 0)
		if !add(val) {
			return cty.DynamicVal
		}
		ks := key.AsString()
		total.bytes += len(ks)
		if e.Group {
			groups[ks] = append(groups[ks], val)
		} else if _, dup := vals[ks]; dup {
			return m.fail()
		} else {
			vals[ks] = val
		}
		if len(vals)+len(groups) > m.limits.MaxCollection {
			return m.over("the number of elements of a collection", m.limits.MaxCollection, e.SrcRange)
		}
	}
	if !known {
		return cty.DynamicVal.WithMarks(marks...)
	}
	var out cty.Value
	switch {
	case e.KeyExpr == nil:
		out = cty.TupleVal(tuple)
	case e.Group:
		for k, g := range groups {
			vals[k] = cty.TupleVal(g)
		}
		out = cty.ObjectVal(vals)
	default:
		out = cty.ObjectVal(vals)
	}
	if e.Group {
		total.nodes += len(groups) // the tuples grouping the values
	}
	m.sized = sized{e.SrcRange, true, total}
	return out.WithMarks(marks...)
}

// evalJSON evaluates an expression of a .tf.json file: objects and arrays
// keep their entries' positions; a string is a template, evaluated here
// rather than by HCL's JSON reader (which would evaluate it unbounded).
func (m *module) evalJSON(expr hcl.Expression, ctx *hcl.EvalContext, depth int) cty.Value {
	if _, diags := hcl.ExprMap(expr); !diags.HasErrors() {
		return m.evalObject(expr, ctx, depth)
	}
	if list, diags := hcl.ExprList(expr); !diags.HasErrors() {
		return m.evalTuple(list, ctx, depth, expr.Range())
	}
	lit, diags := expr.Value(nil) // nil context: the literal, uninterpreted
	if diags.HasErrors() {
		return m.fail()
	}
	if ctx == nil || lit.Type() != cty.String || lit.IsNull() {
		return m.checkNumber(lit, expr.Range())
	}
	// As HCL's JSON reader does: the string's content is a template
	// starting after the opening quote.
	r := expr.Range()
	tmpl, diags := hclsyntax.ParseTemplate([]byte(lit.AsString()), r.Filename,
		hcl.Pos{Line: r.Start.Line, Byte: r.Start.Byte + 1, Column: r.Start.Column + 1})
	if diags.HasErrors() {
		return m.fail()
	}
	m.plain++
	defer func() { m.plain-- }()
	return m.eval(tmpl, ctx, 0)
}

func (m *module) evalObject(expr hcl.Expression, ctx *hcl.EvalContext, depth int) cty.Value {
	pairs, diags := hcl.ExprMap(expr)
	if diags.HasErrors() {
		return m.fail()
	}
	if len(pairs) > m.limits.MaxCollection {
		return m.over("the number of elements of a collection", m.limits.MaxCollection, expr.Range())
	}
	attrs := map[string]cty.Value{}
	total := size{nodes: 1}
	secretKey := false
	for _, p := range pairs {
		k := m.evalKey(p.Key, ctx)
		if k == cty.NilVal {
			return m.fail()
		}
		k, km := k.Unmark()
		secretKey = secretKey || isSensitive(km)
		k, err := convert.Convert(k, cty.String)
		if err != nil || k.IsNull() {
			return m.fail()
		}
		if !k.IsKnown() {
			return cty.DynamicVal
		}
		v := m.eval(p.Value, ctx, depth+1)
		if !m.addSize(&total, p.Value, v, expr.Range()) {
			return cty.DynamicVal
		}
		total.bytes += len(k.AsString())
		if m.plain == 0 {
			v = v.Mark(&origin{pos: m.pos(p.Key.Range()), expr: m.exprText(p.Value), depth: depth + 1})
		}
		attrs[k.AsString()] = v
	}
	m.sized = sized{expr.Range(), true, total}
	if secretKey { // a key from a sensitive value: keys(obj) must stay secret too
		return markSensitive(cty.ObjectVal(attrs))
	}
	return cty.ObjectVal(attrs)
}

// evalKey evaluates an object key: a bare name is itself, anything else
// an expression (cty.NilVal: an error).
func (m *module) evalKey(key hcl.Expression, ctx *hcl.EvalContext) cty.Value {
	ke, ok := key.(*hclsyntax.ObjectConsKeyExpr)
	if !ok {
		if _, native := key.(hclsyntax.Expression); native {
			v, diags := key.Value(ctx)
			if diags.HasErrors() {
				return cty.NilVal
			}
			return v
		}
		m.plain++
		defer func() { m.plain-- }()
		return m.evalJSON(key, ctx, 0)
	}
	if !ke.ForceNonLiteral {
		if name := hcl.ExprAsKeyword(ke.Wrapped); name != "" {
			return cty.StringVal(name)
		}
	}
	m.plain++
	defer func() { m.plain-- }()
	return m.eval(ke.Wrapped, ctx, 0)
}

func (m *module) evalTuple(exprs []hcl.Expression, ctx *hcl.EvalContext, depth int, r hcl.Range) cty.Value {
	if len(exprs) > m.limits.MaxCollection {
		return m.over("the number of elements of a collection", m.limits.MaxCollection, r)
	}
	vals := make([]cty.Value, len(exprs))
	total := size{nodes: 1}
	for i, e := range exprs {
		vals[i] = m.eval(e, ctx, depth+1)
		if !m.addSize(&total, e, vals[i], r) {
			return cty.DynamicVal
		}
		if m.plain == 0 {
			vals[i] = vals[i].Mark(&origin{pos: m.pos(e.Range()), expr: m.exprText(e), depth: depth + 1})
		}
	}
	m.sized = sized{r, true, total}
	return cty.TupleVal(vals)
}

// evalAttr evaluates a definition (variable value, local) and marks it with
// its position; a multi-line template also records where each line is.
func (m *module) evalAttr(expr hcl.Expression, ctx *hcl.EvalContext) cty.Value {
	return m.evalDefinition(expr, ctx, false)
}

// evalDefinition is evalAttr; input: expr is a module call's argument.
func (m *module) evalDefinition(expr hcl.Expression, ctx *hcl.EvalContext, input bool) cty.Value {
	v := m.eval(expr, ctx, 0)
	o := &origin{pos: m.pos(expr.Range()), expr: m.exprText(expr), input: input}
	if te, ok := expr.(*hclsyntax.TemplateExpr); ok {
		if plain, _ := v.Unmark(); plain.IsKnown() && !plain.IsNull() && plain.Type() == cty.String && strings.Contains(plain.AsString(), "\n") {
			b := m.newText()
			m.textOf(te, ctx, b)
			o.lines = b.table()
		}
	}
	return v.Mark(o)
}

// ---- variables and locals ----

// resolve picks the definition of a name as seen from a file: the only
// one, else the file's own (a directory holding several modules' files).
func resolve[T any](defs []T, src *source, srcOf func(T) *source) (T, bool) {
	var zero T
	if len(defs) == 1 {
		return defs[0], true
	}
	for _, d := range defs {
		if srcOf(d) == src {
			return d, true
		}
	}
	return zero, false
}

func (m *module) variableValue(v *variable) cty.Value {
	if v.value.state == 2 {
		return v.value.v
	}
	ty := cty.DynamicPseudoType
	var defaults *typeexpr.Defaults
	if a, ok := v.attrs["type"]; ok {
		if t, d, diags := typeexpr.TypeConstraintWithDefaults(a.Expr); !diags.HasErrors() {
			ty, defaults = t, d
		}
	}
	bare := &hcl.EvalContext{} // tfvars and defaults take no references and no functions
	val := cty.DynamicVal
	if in, ok := m.inputs[v.name]; ok {
		val = in // a called module's argument (tfvars are the root module's)
	} else if as, ok := m.assigned[v.name]; ok {
		val = m.evalAttr(as.attr.Expr, bare)
	} else if a, ok := v.attrs["default"]; ok {
		val = m.evalAttr(a.Expr, bare)
	}
	val = convertTo(val, ty, defaults)
	if declaredSensitive(v) {
		val = markSensitive(val)
	}
	v.value = valueCache{state: 2, v: val}
	return val
}

// convertTo applies a variable's type constraint as Terraform does; a
// value that does not convert is unknown.
func convertTo(val cty.Value, ty cty.Type, defaults *typeexpr.Defaults) (out cty.Value) {
	defer func() {
		if recover() != nil {
			out = cty.UnknownVal(ty)
		}
	}()
	if defaults != nil && val.IsWhollyKnown() {
		val = defaults.Apply(val)
	}
	if ty == cty.DynamicPseudoType {
		return val
	}
	c, err := convert.Convert(val, ty)
	if err != nil {
		return cty.UnknownVal(ty)
	}
	return c
}

func (m *module) localValue(l *local) cty.Value {
	switch l.value.state {
	case 1:
		return cty.DynamicVal // a cycle: Terraform rejects it
	case 2:
		return l.value.v
	}
	l.value.state = 1
	if m.budget.depth >= m.limits.MaxDepth { // a chain of locals
		v := m.over("the nesting of expressions", m.limits.MaxDepth, l.attr.Expr.Range())
		l.value = valueCache{state: 2, v: v}
		return v
	}
	if m.budget.depth == 0 {
		m.budget.start = m.budget.work
	}
	m.budget.depth++
	defer func() { m.budget.depth-- }()
	for _, t := range l.attr.Expr.Variables() {
		if t.RootName() != "local" || len(t) < 2 {
			continue
		}
		if a, ok := t[1].(hcl.TraverseAttr); ok {
			if dep, ok := resolve(m.locals[a.Name], l.src, func(d *local) *source { return d.src }); ok {
				m.localValue(dep)
			}
		}
	}
	v := m.evalAttr(l.attr.Expr, m.localCtx(l))
	l.value = valueCache{state: 2, v: v}
	return v
}

// localCtx is the context a local is evaluated in: its file's, with just
// the locals it refers to. Building the whole context for every local
// would cost the square of their number (10,000 locals: 10^8 entries).
func (m *module) localCtx(l *local) *hcl.EvalContext {
	base, ok := m.localBase[l.src]
	if !ok {
		base = m.buildCtx(l.src)
		m.localBase[l.src] = base
	}
	refs := map[string]cty.Value{}
	for _, t := range l.attr.Expr.Variables() {
		if t.RootName() != "local" {
			continue
		}
		if len(t) < 2 {
			return m.buildCtx(l.src) // the whole local object
		}
		a, ok := t[1].(hcl.TraverseAttr)
		if !ok {
			return m.buildCtx(l.src)
		}
		refs[a.Name] = cty.DynamicVal
		if d, ok := resolve(m.locals[a.Name], l.src, func(d *local) *source { return d.src }); ok && d.value.state == 2 {
			refs[a.Name] = d.value.v
		}
	}
	child := base.NewChild()
	child.Variables = map[string]cty.Value{"local": cty.ObjectVal(refs)}
	child.Functions = base.Functions // the module's own: see eval
	return child
}

func (m *module) evalLocals() {
	m.localBase = map[*source]*hcl.EvalContext{} // variables and resources may have changed
	for _, name := range slices.Sorted(maps.Keys(m.locals)) {
		for _, l := range m.locals[name] {
			m.localValue(l)
		}
	}
}

// ---- evaluation contexts ----

// ctx returns the evaluation context of a file (after setup).
func (m *module) ctx(s *source) *hcl.EvalContext {
	if c, ok := m.ctxs[s]; ok {
		return c
	}
	c := m.buildCtx(s)
	m.ctxs[s] = c
	return c
}

func (m *module) buildCtx(s *source) *hcl.EvalContext {
	vars := map[string]cty.Value{}
	varVals, localVals := map[string]cty.Value{}, map[string]cty.Value{}
	for name, defs := range m.variables {
		varVals[name] = cty.DynamicVal
		if d, ok := resolve(defs, s, func(d *variable) *source { return d.src }); ok {
			varVals[name] = m.variableValue(d)
		}
	}
	for name, defs := range m.locals {
		localVals[name] = cty.DynamicVal
		if d, ok := resolve(defs, s, func(d *local) *source { return d.src }); ok && d.value.state == 2 {
			localVals[name] = d.value.v
		}
	}
	modules := map[string]cty.Value{}
	for _, t := range m.traversals {
		if len(t) < 2 {
			continue
		}
		a, ok := t[1].(hcl.TraverseAttr)
		if !ok {
			continue
		}
		switch t.RootName() {
		case "var":
			if _, ok := varVals[a.Name]; !ok {
				varVals[a.Name] = cty.DynamicVal // undeclared: Terraform would reject it
			}
		case "local":
			if _, ok := localVals[a.Name]; !ok {
				localVals[a.Name] = cty.DynamicVal
			}
		case "module":
			modules[a.Name] = cty.DynamicVal
		}
	}
	vars["var"] = cty.ObjectVal(varVals)
	vars["local"] = cty.ObjectVal(localVals)
	vars["path"] = cty.ObjectVal(map[string]cty.Value{
		"module": cty.StringVal("."), "root": cty.StringVal("."), "cwd": cty.UnknownVal(cty.String),
	})
	vars["terraform"] = cty.ObjectVal(map[string]cty.Value{"workspace": cty.UnknownVal(cty.String)})
	for _, t := range m.traversals {
		root := t.RootName()
		if _, done := vars[root]; done || root == "module" || root == "count" || root == "each" || root == "self" {
			continue
		}
		vars[root] = cty.DynamicVal // data sources, resources of other types
	}
	for typ, byName := range m.passthrough {
		obj := map[string]cty.Value{}
		for _, t := range m.traversals {
			if t.RootName() == typ && len(t) > 1 {
				if a, ok := t[1].(hcl.TraverseAttr); ok {
					obj[a.Name] = cty.DynamicVal
				}
			}
		}
		for name, v := range byName {
			obj[name] = v
		}
		vars[typ] = cty.ObjectVal(obj)
	}
	for typ, byName := range m.linkables {
		if typ == "module" {
			continue
		}
		obj := map[string]cty.Value{}
		for _, t := range m.traversals {
			if t.RootName() == typ && len(t) > 1 {
				if a, ok := t[1].(hcl.TraverseAttr); ok {
					obj[a.Name] = cty.DynamicVal
				}
			}
		}
		for name, set := range byName {
			if set.src == s || m.addresses(typ, name) == 1 {
				obj[name] = set.value
			}
		}
		vars[typ] = cty.ObjectVal(obj)
	}
	for name, set := range m.linkables["module"] {
		if set.src == s || m.addresses("module", name) == 1 {
			modules[name] = set.value
		}
	}
	vars["module"] = cty.ObjectVal(modules)
	return &hcl.EvalContext{Variables: vars, Functions: m.functions(s)}
}

// addresses counts the declarations of one resource or module address,
// from a table built once: counting them per reference cost the cube of
// the number of resources.
func (m *module) addresses(typ, name string) int {
	if m.addrCount == nil {
		m.addrCount = map[[2]string]int{}
		for _, c := range m.calls {
			m.addrCount[[2]string{"module", c.name}]++
		}
		for _, r := range m.resources {
			m.addrCount[[2]string{r.typ, r.name}]++
		}
	}
	return m.addrCount[[2]string{typ, name}]
}

// functions are Terraform's functions plus, for every other function the
// module calls, one whose result is unknown. Built once per module.
func (m *module) functions(*source) map[string]function.Function {
	if m.funcs != nil {
		return m.funcs
	}
	fs := m.terraformFuncs()
	for name, f := range fs {
		fs[name] = m.guard(name, f) // templatefile sees the guarded map too
	}
	for _, c := range m.calledFunctions() {
		if _, ok := fs[c]; !ok {
			fs[c] = unknownFunc
		}
	}
	m.funcs = fs
	return fs
}

func (m *module) calledFunctions() []string {
	var names []string
	for _, s := range m.sources {
		if s.json {
			continue
		}
		if body, ok := s.file.Body.(*hclsyntax.Body); ok {
			_ = hclsyntax.VisitAll(body, func(n hclsyntax.Node) hcl.Diagnostics {
				if c, ok := n.(*hclsyntax.FunctionCallExpr); ok {
					names = append(names, c.Name)
				}
				return nil
			})
		}
	}
	slices.Sort(names)
	return slices.Compact(names)
}

// ---- count and for_each ----

// instance is one expansion of a resource or module block.
type instance struct {
	addr string
	key  cty.Value // cty.NilVal without count/for_each
	each cty.Value // each.value for for_each
	// unknown: count/for_each is unknown; this stands for any number.
	unknown bool
}

// expand returns a block's instances under count or for_each.
func (m *module) expand(base string, attrs hcl.Attributes, ctx *hcl.EvalContext) []instance {
	base = m.prefix + base
	if a, ok := attrs["count"]; ok {
		v, _ := m.eval(a.Expr, ctx, 0).UnmarkDeep()
		n, err := convert.Convert(v, cty.Number)
		if err != nil || !n.IsKnown() || n.IsNull() {
			return []instance{{addr: base, key: cty.UnknownVal(cty.Number), unknown: true}}
		}
		bf := n.AsBigFloat()
		if !bf.IsInt() || bf.Sign() < 0 || bf.Cmp(big.NewFloat(maxInstances)) > 0 {
			return []instance{{addr: base, key: cty.UnknownVal(cty.Number), unknown: true}}
		}
		count, _ := bf.Int64()
		out := make([]instance, count)
		for i := range out {
			out[i] = instance{addr: fmt.Sprintf("%s[%d]", base, i), key: cty.NumberIntVal(int64(i))}
		}
		return out
	}
	if a, ok := attrs["for_each"]; ok {
		v, marks := m.eval(a.Expr, ctx, 0).Unmark()
		iterable := v.Type().IsMapType() || v.Type().IsObjectType() || v.Type().IsSetType()
		if !v.IsWhollyKnown() && (!v.IsKnown() || v.Type().IsSetType()) || v.IsNull() || !v.CanIterateElements() ||
			!iterable || v.LengthInt() > maxInstances {
			return []instance{{addr: base, key: cty.UnknownVal(cty.String), each: cty.DynamicVal, unknown: true}}
		}
		var out []instance
		for it := v.ElementIterator(); it.Next(); {
			k, e := it.Element()
			k, km := k.Unmark()
			// Terraform refuses sensitive for_each values ("Sensitive values
			// ... cannot be used as for_each arguments"): each.key would
			// carry the secret into names that are printed, so the
			// instances are unknown.
			if !k.IsKnown() || k.Type() != cty.String || isSensitive(km) || isSensitive(marks) {
				return []instance{{addr: base, key: cty.UnknownVal(cty.String), each: cty.DynamicVal, unknown: true}}
			}
			if v.Type().IsSetType() {
				e = k
			}
			out = append(out, instance{addr: fmt.Sprintf("%s[%q]", base, k.AsString()), key: k, each: e.WithMarks(marks)})
		}
		return out
	}
	return []instance{{addr: base}}
}

// instanceCtx adds count.index or each.key/each.value.
func instanceCtx(ctx *hcl.EvalContext, in instance) *hcl.EvalContext {
	if in.key == cty.NilVal {
		return ctx
	}
	child := ctx.NewChild()
	child.Variables = map[string]cty.Value{}
	if in.key.Type() == cty.Number {
		child.Variables["count"] = cty.ObjectVal(map[string]cty.Value{"index": in.key})
	} else {
		each := in.each
		if each == cty.NilVal {
			each = cty.DynamicVal
		}
		child.Variables["each"] = cty.ObjectVal(map[string]cty.Value{"key": in.key, "value": each})
	}
	return child
}

// instanceSet is a linkable block's value for references.
type instanceSet struct {
	src   *source
	value cty.Value
}

// linkAttr reports attributes that identify a cluster (ARNs, ids,
// bootstrap servers): their value is a reference to the cluster's group.
func linkAttr(name string) bool {
	return name == "arn" || name == "id" || name == "cluster_arn" || name == "rest_endpoint" ||
		name == "bootstrap_endpoint" || strings.HasPrefix(name, "bootstrap_brokers") ||
		strings.HasPrefix(name, "zookeeper_connect_string")
}

var standardAttrs = []string{
	"arn", "id", "bootstrap_brokers", "bootstrap_brokers_tls", "bootstrap_brokers_sasl_scram",
	"bootstrap_brokers_sasl_iam", "bootstrap_brokers_public_tls", "bootstrap_brokers_public_sasl_scram",
	"bootstrap_brokers_public_sasl_iam", "zookeeper_connect_string", "zookeeper_connect_string_tls",
	"rest_endpoint", "bootstrap_endpoint", "latest_revision", "current_version", "cluster_name", "name",
}

// linkValue builds the value references to one instance see.
func (m *module) linkValue(typ, name, group string) cty.Value {
	attrs := map[string]cty.Value{}
	if m.refAttrs == nil {
		// The attribute names the references to each block use, once: an
		// object per instance with every name any reference uses cost
		// the square of the number of blocks.
		m.refAttrs = map[[2]string][]string{}
		for _, t := range m.traversals {
			if len(t) < 2 {
				continue
			}
			if block, ok := t[1].(hcl.TraverseAttr); ok {
				key := [2]string{t.RootName(), block.Name}
				for _, step := range t[2:] {
					if a, ok := step.(hcl.TraverseAttr); ok {
						m.refAttrs[key] = append(m.refAttrs[key], a.Name)
					}
				}
			}
		}
	}
	for _, n := range slices.Concat(standardAttrs, m.refAttrs[[2]string{typ, name}]) {
		attrs[n] = cty.DynamicVal
		if linkAttr(n) {
			attrs[n] = cty.StringVal(refPrefix + group)
		}
	}
	return cty.ObjectVal(attrs)
}

// setValue builds the value of a block from its instances.
func (m *module) setValue(typ, name string, insts []instance, groupOf func(instance) string) cty.Value {
	if len(insts) == 1 && insts[0].key == cty.NilVal {
		return m.linkValue(typ, name, groupOf(insts[0]))
	}
	if len(insts) == 1 && insts[0].unknown {
		if insts[0].key.Type() == cty.Number {
			return cty.TupleVal([]cty.Value{m.linkValue(typ, name, groupOf(insts[0]))})
		}
		return cty.DynamicVal
	}
	if len(insts) == 0 {
		return cty.EmptyTupleVal
	}
	if insts[0].key.Type() == cty.Number {
		vals := make([]cty.Value, len(insts))
		for i, in := range insts {
			vals[i] = m.linkValue(typ, name, groupOf(in))
		}
		return cty.TupleVal(vals)
	}
	obj := map[string]cty.Value{}
	for _, in := range insts {
		obj[in.key.AsString()] = m.linkValue(typ, name, groupOf(in))
	}
	return cty.ObjectVal(obj)
}

// refsIn finds the groups a value refers to (deeply).
func refsIn(v cty.Value) []string {
	var out []string
	v, _ = v.UnmarkDeep()
	_ = cty.Walk(v, func(_ cty.Path, v cty.Value) (bool, error) {
		v, _ = v.Unmark()
		if v.IsKnown() && !v.IsNull() && v.Type() == cty.String && strings.HasPrefix(v.AsString(), refPrefix) {
			out = append(out, strings.TrimPrefix(v.AsString(), refPrefix))
		}
		return true, nil
	})
	slices.Sort(out)
	return slices.Compact(out)
}

// dir is the module directory as shown in positions.
func (m *module) dir() string {
	names := slices.Sorted(maps.Keys(m.sources))
	if len(names) == 0 {
		return "."
	}
	return path.Dir(names[0])
}
