package terraform

import (
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	"github.com/zclconf/go-cty/cty/function/stdlib"

	"github.com/kafkalint/kafkalint/loader/doc"
	"github.com/kafkalint/kafkalint/loader/properties"
)

// This file is the bridge from HCL to Kafka properties: it renders an
// expression that builds a server.properties text (a heredoc, a quoted
// string, join/format over a map, templatefile) into that text, remembers
// for every line where it was written, and parses it with the properties
// reader. Parts that cannot be resolved become placeholders, so their keys
// or values are unknown rather than guessed.

// textBuilder assembles a text from the pieces of an expression.
type textBuilder struct {
	m       *module
	b       strings.Builder
	lines   []linePos // one per line of the text
	started bool      // the current line has a non-blank character
	unknown []string  // placeholder i stands for the expression text unknown[i]
	// gaveUp: the text went over the module's limits (its length, or the
	// work of rendering it); it stands for an unknown text.
	gaveUp bool
}

// linePos is where a line of the text was written: the position of its
// first non-blank character.
type linePos struct {
	pos doc.Location
	set bool
	// own: the line is a whole line of the source (a heredoc line), so a
	// comment there is a comment of the source file.
	own bool
	// sensitive: part of the line comes from a sensitive variable.
	sensitive bool
}

var placeholderRE = regexp.MustCompile(`\$\{kafkalint_unknown_(\d+)\}`)

func (m *module) newText() *textBuilder {
	return &textBuilder{m: m, lines: []linePos{{}}}
}

// write appends s; at moves to the piece line and column of the character
// and returns its position.
func (b *textBuilder) write(s string, at func(line, col int) (doc.Location, bool)) {
	if b.gaveUp {
		return
	}
	if limit := b.m.limits.MaxString; b.b.Len()+len(s) > limit {
		// Rendered piece by piece (each within the limit), the text as a
		// whole is held to it too.
		p, _ := at(0, 0)
		b.m.over("the length of a string", limit, hcl.Range{Filename: p.File, Start: hcl.Pos{Line: p.Line, Column: p.Column}})
		b.gaveUp = true
		return
	}
	line, col := 0, 0
	for _, r := range s {
		if r == '\n' {
			b.b.WriteByte('\n')
			b.lines = append(b.lines, linePos{})
			b.started = false
			line, col = line+1, 0
			continue
		}
		// Blanks as the properties reader counts them (Java's Properties:
		// space, tab, form feed).
		if !b.started && r != ' ' && r != '\t' && r != '\f' {
			p, own := at(line, col)
			b.lines[len(b.lines)-1] = linePos{pos: p, set: true, own: own, sensitive: b.lines[len(b.lines)-1].sensitive}
			b.started = true
		}
		b.b.WriteRune(r)
		col++
	}
}

// addLiteral appends literal template text. In a heredoc each line of the
// text is a line of the source; in a quoted string "\n" escapes keep every
// line on the string's line.
func (b *textBuilder) addLiteral(lit string, r hcl.Range) {
	src := b.m.sources[r.Filename]
	aligned := src != nil && strings.Count(lit, "\n") == r.End.Line-r.Start.Line
	b.write(lit, func(line, col int) (doc.Location, bool) {
		if !aligned {
			return doc.Location{File: r.Filename, Line: r.Start.Line, Column: r.Start.Column}, false
		}
		l := r.Start.Line + line
		if line == 0 {
			return doc.Location{File: r.Filename, Line: l, Column: r.Start.Column + col}, r.Start.Column+col == src.firstColumn(l)
		}
		return doc.Location{File: r.Filename, Line: l, Column: src.firstColumn(l)}, true
	})
}

// addValue appends an evaluated string, located by its origin: line by line
// when the origin is a multi-line template, else at the origin (or at
// fallback when the value has none).
func (b *textBuilder) addValue(s string, o *origin, fallback doc.Location) {
	if o == nil {
		b.write(s, func(int, int) (doc.Location, bool) { return fallback, false })
		return
	}
	if o.lines == nil {
		b.write(s, func(int, int) (doc.Location, bool) { return o.pos, false })
		return
	}
	// Align the value's lines with the template's: a function such as
	// trimspace may have dropped lines, but never reorders them.
	valueLines := strings.Split(s, "\n")
	at := make([]linePos, len(valueLines))
	next := 0
	for i, vl := range valueLines {
		at[i] = linePos{pos: o.pos}
		t := strings.TrimSpace(vl)
		if t == "" {
			continue
		}
		for j := next; j < len(o.lines.text); j++ {
			if strings.TrimSpace(o.lines.text[j]) == t && o.lines.pos[j].Line > 0 {
				at[i] = linePos{pos: o.lines.pos[j], own: true}
				next = j + 1
				break
			}
		}
	}
	b.write(s, func(line, _ int) (doc.Location, bool) { return at[line].pos, at[line].own })
}

// addMarked is addValue for a value that may be sensitive: every line it
// writes to is then sensitive.
func (b *textBuilder) addMarked(s string, o *origin, fallback doc.Location, sensitive bool) {
	first := len(b.lines) - 1
	b.addValue(s, o, fallback)
	if sensitive {
		for i := first; i < len(b.lines); i++ {
			b.lines[i].sensitive = true
		}
	}
}

// addUnknown appends a placeholder for an expression that cannot be
// resolved.
func (b *textBuilder) addUnknown(expr string, p doc.Location) {
	expr = strings.Join(strings.Fields(expr), " ")
	token := fmt.Sprintf("${kafkalint_unknown_%d}", len(b.unknown))
	b.unknown = append(b.unknown, expr)
	b.write(token, func(int, int) (doc.Location, bool) { return p, false })
}

func (b *textBuilder) table() *lineTable {
	t := &lineTable{text: strings.Split(b.b.String(), "\n")}
	for _, l := range b.lines {
		p := l.pos
		if !l.set || !l.own {
			p = doc.Location{}
		}
		t.pos = append(t.pos, p)
	}
	return t
}

// textOf renders an expression into b.
func (m *module) textOf(expr hcl.Expression, ctx *hcl.EvalContext, b *textBuilder) {
	switch e := expr.(type) {
	case *hclsyntax.TemplateExpr:
		for _, p := range e.Parts {
			if lit, ok := p.(*hclsyntax.LiteralValueExpr); ok && lit.Val.IsKnown() && lit.Val.Type() == cty.String {
				b.addLiteral(lit.Val.AsString(), lit.SrcRange)
				continue
			}
			m.textOf(p, ctx, b)
		}
		return
	case *hclsyntax.TemplateWrapExpr:
		m.textOf(e.Wrapped, ctx, b)
		return
	case *hclsyntax.ParenthesesExpr:
		m.textOf(e.Expression, ctx, b)
		return
	case *hclsyntax.ScopeTraversalExpr:
		// A resource attribute that passes a text through
		// (random_id.x.keepers.server_properties): the text as written
		// there, each line where it is written. One level, as passValues.
		if x, xctx, ok := m.passExpr(e.Traversal); ok && !m.passing {
			m.passing = true
			defer func() { m.passing = false }()
			m.textOf(x, xctx, b)
			return
		}
	case *hclsyntax.ConditionalExpr:
		c, _ := m.eval(e.Condition, ctx, 0).Unmark()
		if c, err := convert.Convert(c, cty.Bool); err == nil && c.IsKnown() && !c.IsNull() {
			if c.True() {
				m.textOf(e.TrueResult, ctx, b)
			} else {
				m.textOf(e.FalseResult, ctx, b)
			}
			return
		}
	case *hclsyntax.FunctionCallExpr:
		if e.Name == "join" && len(e.Args) == 2 && !e.ExpandFinal {
			sep, _ := m.eval(e.Args[0], ctx, 0).Unmark()
			if sep.IsKnown() && !sep.IsNull() && sep.Type() == cty.String && m.joinText(sep.AsString(), e.Args[1], ctx, b) {
				return
			}
		}
	}
	v := m.eval(expr, ctx, 0)
	if _, native := expr.(hclsyntax.Expression); !native && strings.HasPrefix(m.exprText(expr), `"`) {
		// A JSON string is a template: its text is written here, whatever
		// values it interpolates (but it is sensitive if one of them is).
		plain, marks := v.UnmarkDeep()
		v = plain
		if isSensitive(marks) {
			v = v.Mark(sensitiveMark)
		}
	}
	m.valueText(v, expr, b)
}

// passExpr finds the expression a reference to a pass-through resource
// attribute (passValues) names, through object constructors, and the
// context it is evaluated in.
func (m *module) passExpr(t hcl.Traversal) (hcl.Expression, *hcl.EvalContext, bool) {
	if len(t) < 3 {
		return nil, nil, false
	}
	name, ok1 := t[1].(hcl.TraverseAttr)
	attr, ok2 := t[2].(hcl.TraverseAttr)
	if !ok1 || !ok2 || m.passthrough[t.RootName()][name.Name] == cty.NilVal {
		return nil, nil, false
	}
	for _, r := range m.resources {
		if r.typ != t.RootName() || r.name != name.Name {
			continue
		}
		a, ok := r.attrs[attr.Name]
		if !ok {
			return nil, nil, false
		}
		expr, ctx := a.Expr, m.ctx(r.src)
		for _, step := range t[3:] {
			var key string
			switch s := step.(type) {
			case hcl.TraverseAttr:
				key = s.Name
			case hcl.TraverseIndex:
				if s.Key.Type() != cty.String || !s.Key.IsKnown() {
					return nil, nil, false
				}
				key = s.Key.AsString()
			default:
				return nil, nil, false
			}
			obj, ok := expr.(*hclsyntax.ObjectConsExpr)
			if !ok {
				return nil, nil, false
			}
			found := false
			for _, item := range obj.Items {
				if k, _ := m.eval(item.KeyExpr, ctx, 0).Unmark(); k.IsKnown() && k.Type() == cty.String && k.AsString() == key {
					expr, found = item.ValueExpr, true
				}
			}
			if !found {
				return nil, nil, false
			}
		}
		return expr, ctx, true
	}
	return nil, nil, false
}

// joinText renders join(sep, list) element by element, so each element
// keeps its own position. It reports false when the list is not a list it
// can walk (the caller then evaluates the call as a whole).
func (m *module) joinText(sep string, list hcl.Expression, ctx *hcl.EvalContext, b *textBuilder) bool {
	first := true
	sepPos := m.pos(list.Range())
	emit := func(f func()) {
		if !m.charge(1, list.Range()) {
			b.gaveUp = true
			return
		}
		if !first {
			b.addValue(sep, nil, sepPos)
		}
		first = false
		f()
	}
	switch l := list.(type) {
	case *hclsyntax.TupleConsExpr:
		for _, x := range l.Exprs {
			emit(func() { m.textOf(x, ctx, b) })
		}
		return true
	case *hclsyntax.ForExpr:
		if l.KeyExpr != nil || l.Group {
			return false
		}
		coll, _ := m.eval(l.CollExpr, ctx, 0).Unmark()
		if !coll.IsKnown() || coll.IsNull() || !coll.CanIterateElements() {
			return false
		}
		for it := coll.ElementIterator(); it.Next(); {
			k, v := it.Element()
			child := ctx.NewChild()
			child.Variables = map[string]cty.Value{l.ValVar: v}
			if l.KeyVar != "" {
				child.Variables[l.KeyVar] = k
			}
			if l.CondExpr != nil {
				c, _ := m.eval(l.CondExpr, child, 0).UnmarkDeep()
				c, err := convert.Convert(c, cty.Bool)
				if err != nil || !c.IsKnown() || c.IsNull() {
					emit(func() { b.addUnknown(m.exprText(l.ValExpr), m.pos(l.ValExpr.Range())) })
					continue
				}
				if c.False() {
					continue
				}
			}
			emit(func() { m.elementText(l.ValExpr, child, b) })
		}
		return true
	}
	lv, _ := m.eval(list, ctx, 0).Unmark()
	if !lv.IsKnown() || lv.IsNull() || !lv.CanIterateElements() {
		return false
	}
	for it := lv.ElementIterator(); it.Next(); {
		_, e := it.Element()
		emit(func() { m.valueText(e, list, b) })
	}
	return true
}

// elementText renders one element of a for-expression. For the common
// format("%s = %s", k, v) it keeps the key when only the value is unknown.
func (m *module) elementText(expr hcl.Expression, ctx *hcl.EvalContext, b *textBuilder) {
	v := m.eval(expr, ctx, 0)
	if plain, _ := v.Unmark(); plain.IsKnown() {
		m.valueText(v, expr, b)
		return
	}
	call, ok := expr.(*hclsyntax.FunctionCallExpr)
	if !ok || call.Name != "format" || call.ExpandFinal || len(call.Args) < 1 {
		m.valueText(v, expr, b)
		return
	}
	args := make([]cty.Value, len(call.Args))
	var o *origin
	sensitive := false
	for i, a := range call.Args {
		av, marks := m.eval(a, ctx, 0).UnmarkDeep()
		sensitive = sensitive || isSensitive(marks)
		if ao := originOf(marks); ao != nil && (o == nil || ao.depth > o.depth) {
			o = ao
		}
		if !av.IsKnown() {
			text := m.exprText(a)
			if ao := originOf(marks); ao != nil && ao.expr != "" {
				text = ao.expr
			}
			p := m.pos(a.Range())
			if ao := originOf(marks); ao != nil {
				p = ao.pos
			}
			av = cty.StringVal(b.reserve(text, p))
		}
		args[i] = av
	}
	if o != nil && o.depth == 0 && o.lines == nil {
		o = nil // a whole variable: the key is written in the format string
	}
	out, err := stdlib.Format(args[0], args[1:]...)
	if err != nil || !out.IsKnown() {
		m.valueText(v, expr, b)
		return
	}
	fallback := m.pos(expr.Range())
	b.addMarked(out.AsString(), o, fallback, sensitive)
}

// reserve registers a placeholder without writing it.
func (b *textBuilder) reserve(expr string, _ doc.Location) string {
	expr = strings.Join(strings.Fields(expr), " ")
	token := fmt.Sprintf("${kafkalint_unknown_%d}", len(b.unknown))
	b.unknown = append(b.unknown, expr)
	return token
}

// valueText renders an evaluated value. It is located where the value was
// written when that is certain: an entry of a map or list (the key of a
// format("%s = %s", k, v) line comes from the entry), or a multi-line text
// defined elsewhere and passed through (matched line by line); otherwise at
// the expression.
func (m *module) valueText(v cty.Value, expr hcl.Expression, b *textBuilder) {
	plain, marks := v.UnmarkDeep()
	o := originOf(marks)
	if o != nil && o.depth == 0 && o.lines == nil {
		o = nil
	}
	fallback := m.pos(expr.Range())
	unknown := func() {
		text, p := m.exprText(expr), fallback
		if o != nil {
			p = o.pos
			if o.expr != "" {
				text = o.expr
			}
		}
		b.addUnknown(text, p)
	}
	if !plain.IsKnown() || plain.IsNull() {
		unknown()
		return
	}
	s, err := convert.Convert(plain, cty.String)
	if err != nil || !s.IsKnown() || s.IsNull() || strings.Contains(s.AsString(), refPrefix) {
		unknown()
		return
	}
	b.addMarked(s.AsString(), o, fallback, isSensitive(marks))
}

// parse reads the text as Java properties and locates every key.
// Comments are listed by the file their lines are written in.
func (b *textBuilder) parse(what string, fallback doc.Location) (Properties, map[string][]doc.Comment, *doc.Error) {
	props := Properties{Entries: []doc.Setting{}}
	if b.gaveUp {
		props.Incomplete = true
		props.Unresolved = []string{"(text over the evaluation limits)"}
		return props, nil, nil
	}
	text := b.b.String()
	posOf := func(line int) linePos {
		if line >= 1 && line <= len(b.lines) && b.lines[line-1].set {
			return b.lines[line-1]
		}
		return linePos{pos: fallback}
	}
	pf, err := properties.Parse([]byte(text))
	if err != nil {
		line, msg := 0, err.Error()
		var pe *doc.Error
		if errors.As(err, &pe) {
			line, msg = pe.Line, pe.Message
		}
		p := posOf(line).pos
		return props, nil, &doc.Error{File: p.File, Line: p.Line, Message: fmt.Sprintf("invalid %s: %s", what, msg)}
	}
	resolve := func(s string) (string, bool) {
		found := false
		out := placeholderRE.ReplaceAllStringFunc(s, func(tok string) string {
			found = true
			var i int
			if _, err := fmt.Sscanf(tok, "${kafkalint_unknown_%d}", &i); err == nil && i >= 0 && i < len(b.unknown) {
				return "${" + b.unknown[i] + "}"
			}
			return tok
		})
		return out, found
	}
	index := map[string]int{}
	earlier := map[string][]doc.Location{}
	for _, e := range pf.Entries {
		lp := posOf(e.Line)
		p := lp.pos
		if lp.own {
			p.Column += e.Column - 1 - leadingBlanks(text, e.Line)
		}
		if key, unknown := resolve(e.Key); unknown {
			props.Incomplete = true
			props.Unresolved = append(props.Unresolved, key)
			continue
		}
		value, unknown := resolve(e.Value)
		prop := doc.Setting{Key: e.Key, Value: value, Loc: p, Unknown: unknown, Sensitive: b.sensitiveEntry(e)}
		if unknown {
			prop.Expr = value
		}
		if i, ok := index[e.Key]; ok {
			// Every duplicate shares one array of earlier positions (a
			// full slice expression, so appends never show through): a
			// copy per duplicate would be quadratic in the repetitions.
			earlier[e.Key] = append(earlier[e.Key], props.Entries[i].Loc)
			prev := earlier[e.Key]
			props.Duplicates = append(props.Duplicates, doc.Duplicate{Key: e.Key, Loc: p, Previous: prev[:len(prev):len(prev)]})
			props.Entries[i] = prop
			continue
		}
		index[e.Key] = len(props.Entries)
		props.Entries = append(props.Entries, prop)
	}
	comments := map[string][]doc.Comment{}
	for _, c := range pf.Comments {
		if lp := posOf(c.Line); lp.set && lp.own {
			comments[lp.pos.File] = append(comments[lp.pos.File], doc.Comment{Line: lp.pos.Line, Text: strings.TrimSpace(c.Text)})
		}
	}
	return props, comments, nil
}

// sensitiveEntry reports whether an entry of the parsed text holds a
// sensitive value: one of its lines (a value may continue over several)
// was written from one.
func (b *textBuilder) sensitiveEntry(e properties.Entry) bool {
	for l := max(e.Line, 1); l <= min(max(e.EndLine, e.Line), len(b.lines)); l++ {
		if b.lines[l-1].sensitive {
			return true
		}
	}
	return false
}

// leadingBlanks counts the blanks before the first character of a line of
// the text (the properties reader's column counts them too).
func leadingBlanks(text string, line int) int {
	lines := strings.SplitN(text, "\n", line+1)
	if line < 1 || line > len(lines) {
		return 0
	}
	l := lines[line-1]
	return len(l) - len(strings.TrimLeft(l, " \t\f"))
}
