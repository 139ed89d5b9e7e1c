package terraform

import (
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
)

// origin marks a value with where it was written. Marks travel with values
// through variables, locals, for-expressions and functions (go-cty's
// marks), so a key built by join/format over a map is located at the map
// entry that holds it.
type origin struct {
	pos  Pos
	expr string // the source text of the value's expression
	// depth is 0 for a variable, local or tfvars assignment and grows by
	// one per map or list level; the deepest origin is the most precise.
	depth int
	// lines locates each line of a multi-line string written as a template
	// (a heredoc).
	lines *lineTable
}

// lineTable maps the lines of a text to where each was written.
type lineTable struct {
	text []string
	pos  []Pos
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

func (m *module) pos(r hcl.Range) Pos {
	return Pos{File: r.Filename, Line: r.Start.Line, Column: r.Start.Column}
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
func (m *module) eval(expr hcl.Expression, ctx *hcl.EvalContext, depth int) (v cty.Value) {
	defer func() {
		if r := recover(); r != nil { // a go-cty panic on odd input must not stop the linter
			v = cty.DynamicVal
		}
	}()
	switch e := expr.(type) {
	case *hclsyntax.ParenthesesExpr:
		return m.eval(e.Expression, ctx, depth)
	case *hclsyntax.TemplateWrapExpr:
		return m.eval(e.Wrapped, ctx, depth)
	case *hclsyntax.ObjectConsExpr:
		return m.evalObject(expr, ctx, depth)
	case *hclsyntax.TupleConsExpr:
		exprs := make([]hcl.Expression, len(e.Exprs))
		for i, x := range e.Exprs {
			exprs[i] = x
		}
		return m.evalTuple(exprs, ctx, depth)
	case *hclsyntax.ConditionalExpr:
		c, _ := m.eval(e.Condition, ctx, depth).Unmark()
		c, err := convert.Convert(c, cty.Bool)
		if err != nil || !c.IsKnown() || c.IsNull() {
			return cty.DynamicVal
		}
		if c.True() {
			return m.eval(e.TrueResult, ctx, depth)
		}
		return m.eval(e.FalseResult, ctx, depth)
	case *hclsyntax.FunctionCallExpr:
		if e.ExpandFinal || ctx == nil || ctx.Functions == nil {
			break
		}
		f, ok := ctx.Functions[e.Name]
		if !ok {
			return cty.DynamicVal
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
				return cty.DynamicVal
			}
			arg, err := convert.Convert(m.eval(a, ctx, depth), param.Type)
			if err != nil {
				return cty.DynamicVal
			}
			args[i] = arg
		}
		out, err := f.Call(args)
		if err != nil {
			return cty.DynamicVal
		}
		return out
	}
	if _, native := expr.(hclsyntax.Expression); !native {
		// JSON syntax: objects and arrays keep their entries' positions.
		if _, diags := hcl.ExprMap(expr); !diags.HasErrors() {
			return m.evalObject(expr, ctx, depth)
		}
		if list, diags := hcl.ExprList(expr); !diags.HasErrors() {
			return m.evalTuple(list, ctx, depth)
		}
	}
	out, diags := expr.Value(ctx)
	if diags.HasErrors() {
		return cty.DynamicVal
	}
	return out
}

func (m *module) evalObject(expr hcl.Expression, ctx *hcl.EvalContext, depth int) cty.Value {
	pairs, diags := hcl.ExprMap(expr)
	if diags.HasErrors() {
		return cty.DynamicVal
	}
	attrs := map[string]cty.Value{}
	for _, p := range pairs {
		k, diags := p.Key.Value(ctx)
		if diags.HasErrors() {
			return cty.DynamicVal
		}
		k, _ = k.Unmark()
		k, err := convert.Convert(k, cty.String)
		if err != nil || !k.IsKnown() || k.IsNull() {
			return cty.DynamicVal
		}
		v := m.eval(p.Value, ctx, depth+1)
		attrs[k.AsString()] = v.Mark(&origin{pos: m.pos(p.Key.Range()), expr: m.exprText(p.Value), depth: depth + 1})
	}
	return cty.ObjectVal(attrs)
}

func (m *module) evalTuple(exprs []hcl.Expression, ctx *hcl.EvalContext, depth int) cty.Value {
	vals := make([]cty.Value, len(exprs))
	for i, e := range exprs {
		vals[i] = m.eval(e, ctx, depth+1).Mark(&origin{pos: m.pos(e.Range()), expr: m.exprText(e), depth: depth + 1})
	}
	return cty.TupleVal(vals)
}

// evalAttr evaluates a definition (variable value, local) and marks it with
// its position; a multi-line template also records where each line is.
func (m *module) evalAttr(expr hcl.Expression, ctx *hcl.EvalContext) cty.Value {
	v := m.eval(expr, ctx, 0)
	o := &origin{pos: m.pos(expr.Range()), expr: m.exprText(expr)}
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
	if as, ok := m.assigned[v.name]; ok {
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
	v := m.evalAttr(l.attr.Expr, m.buildCtx(l.src))
	l.value = valueCache{state: 2, v: v}
	return v
}

func (m *module) evalLocals() {
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
			if set.src == s || len(m.sameAddress(typ, name)) == 1 {
				obj[name] = set.value
			}
		}
		vars[typ] = cty.ObjectVal(obj)
	}
	for name, set := range m.linkables["module"] {
		if set.src == s || len(m.sameAddress("module", name)) == 1 {
			modules[name] = set.value
		}
	}
	vars["module"] = cty.ObjectVal(modules)
	return &hcl.EvalContext{Variables: vars, Functions: m.functions(s)}
}

// sameAddress lists the declarations of one resource or module address
// (several only when a directory mixes modules).
func (m *module) sameAddress(typ, name string) []*source {
	var out []*source
	if typ == "module" {
		for _, c := range m.calls {
			if c.name == name {
				out = append(out, c.src)
			}
		}
		return out
	}
	for _, r := range m.resources {
		if r.typ == typ && r.name == name {
			out = append(out, r.src)
		}
	}
	return out
}

// functions are Terraform's functions plus, for every other function the
// module calls, one whose result is unknown. Built once per module.
func (m *module) functions(*source) map[string]function.Function {
	if m.funcs != nil {
		return m.funcs
	}
	fs := m.terraformFuncs()
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
			k, _ = k.Unmark()
			if !k.IsKnown() || k.Type() != cty.String {
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
func (m *module) linkValue(typ, group string) cty.Value {
	attrs := map[string]cty.Value{}
	names := slices.Clone(standardAttrs)
	for _, t := range m.traversals {
		if t.RootName() != typ {
			continue
		}
		for _, step := range t[1:] {
			if a, ok := step.(hcl.TraverseAttr); ok {
				names = append(names, a.Name)
			}
		}
	}
	for _, n := range names {
		attrs[n] = cty.DynamicVal
		if linkAttr(n) {
			attrs[n] = cty.StringVal(refPrefix + group)
		}
	}
	return cty.ObjectVal(attrs)
}

// setValue builds the value of a block from its instances.
func (m *module) setValue(typ string, insts []instance, groupOf func(instance) string) cty.Value {
	if len(insts) == 1 && insts[0].key == cty.NilVal {
		return m.linkValue(typ, groupOf(insts[0]))
	}
	if len(insts) == 1 && insts[0].unknown {
		if insts[0].key.Type() == cty.Number {
			return cty.TupleVal([]cty.Value{m.linkValue(typ, groupOf(insts[0]))})
		}
		return cty.DynamicVal
	}
	if len(insts) == 0 {
		return cty.EmptyTupleVal
	}
	if insts[0].key.Type() == cty.Number {
		vals := make([]cty.Value, len(insts))
		for i, in := range insts {
			vals[i] = m.linkValue(typ, groupOf(in))
		}
		return cty.TupleVal(vals)
	}
	obj := map[string]cty.Value{}
	for _, in := range insts {
		obj[in.key.AsString()] = m.linkValue(typ, groupOf(in))
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
