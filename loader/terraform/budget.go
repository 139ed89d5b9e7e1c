package terraform

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/kafkalint/kafkalint/loader/doc"
)

// Limits bound what evaluating one module may cost. A linted repository is
// not trusted: a 1 KB file can ask for a string of 2^40 bytes (locals that
// double a string), a billion for-expression iterations or a
// setproduct of a billion tuples. Terraform evaluates such things lazily or
// never at plan time; a linter must not try. Past a limit the value is
// unknown (rules never fire on unknown values) and the module gets one
// errors[] entry naming the limit and where it was hit.
//
// A zero field means the default (DefaultLimits).
type Limits struct {
	// MaxString is the length in bytes of one string value.
	MaxString int
	// MaxCollection is the number of elements of one list, set, map,
	// tuple or object.
	MaxCollection int
	// MaxNodes is the size of one value counted as a tree: every element
	// of every nested collection, a shared part counted each time it
	// appears ([local.a, local.a] counts local.a twice), because
	// converting, encoding or flattening a value visits it that way.
	MaxNodes int
	// MaxWork is the evaluation work of one module: for-expression
	// iterations, value nodes inspected (function arguments and results,
	// elements of constructed values), elements range() makes and every
	// 64 bytes of strings that templates and functions build.
	MaxWork int
	// MaxDepth is the nesting of evaluation: expressions within
	// expressions, and locals that refer to locals.
	MaxDepth int
	// MaxNesting is the bracket nesting ( [ { of a file's text, checked
	// before the file is parsed (HCL's parser is recursive: 50,000 levels
	// exhaust memory).
	MaxNesting int
	// MaxTemplateLines is the number of lines of a heredoc (several in a
	// file: the square root of the sum of their squares), and of a
	// templatefile() template, checked before parsing: HCL's parser takes
	// time quadratic in them.
	MaxTemplateLines int
}

// DefaultLimits are far above what a Kafka module needs and far below
// what exhausts a CI runner.
var DefaultLimits = Limits{
	MaxString:     1 << 20,
	MaxCollection: 10_000,
	MaxNodes:      100_000,
	MaxWork:       200_000,
	MaxDepth:      1_000,
	MaxNesting:    500,
	// 3,000 lines parse in about half a second; a server.properties
	// heredoc has a few dozen.
	MaxTemplateLines: 3_000,
}

func (l Limits) withDefaults() Limits {
	d := DefaultLimits
	for _, f := range []struct{ v, def *int }{
		{&l.MaxString, &d.MaxString}, {&l.MaxCollection, &d.MaxCollection}, {&l.MaxNodes, &d.MaxNodes},
		{&l.MaxWork, &d.MaxWork}, {&l.MaxDepth, &d.MaxDepth}, {&l.MaxNesting, &d.MaxNesting},
		{&l.MaxTemplateLines, &d.MaxTemplateLines},
	} {
		if *f.v <= 0 {
			*f.v = *f.def
		}
	}
	return l
}

// maxExponent bounds the magnitude of numbers (about 10^±1000): a number
// such as 1e999999999 is small to store but a billion digits long as a
// string, and Terraform's numbers are converted to strings everywhere.
const maxExponent = 3400 // binary exponent

// budget is what one module has spent.
type budget struct {
	work   int
	start  int // work when the current top-level evaluation started
	depth  int
	notice *doc.Error // the first limit hit; nil while within every limit
}

// errOverBudget is the error of a function call refused before it ran.
var errOverBudget = errors.New("over the evaluation budget")

// over records that a limit was hit at r and returns the unknown value
// that stands for the result. Only the first limit hit is reported: one
// entry per module says evaluation gave up, and where.
func (m *module) over(what string, limit int, r hcl.Range) cty.Value {
	if m.budget.notice == nil {
		m.budget.notice = &doc.Error{
			File: r.Filename, Line: max(r.Start.Line, 1), Column: r.Start.Column,
			Message: fmt.Sprintf("Terraform evaluation gave up: %s exceeds the limit of %d; values computed from it are unknown", what, limit),
		}
	}
	return cty.DynamicVal
}

// afterWork is what each evaluation of an attribute or local may still
// spend once the module's work is spent (up to MaxWork more in all): small
// literal values elsewhere in the module still load after one expression
// gave up, and the total stays bounded.
const afterWork = 1_000

// charge spends n units of work; false once the module's budget is spent.
func (m *module) charge(n int, r hcl.Range) bool {
	b := &m.budget
	b.work += n
	if b.work <= m.limits.MaxWork ||
		b.work-max(b.start, m.limits.MaxWork) <= afterWork && b.work <= 2*m.limits.MaxWork {
		return true
	}
	m.over("the module's evaluation work", m.limits.MaxWork, r)
	return false
}

// measure checks a value against the size limits and charges the nodes it
// visits. It stops at the first limit, so it costs at most MaxNodes steps.
// bytes is the total length of the strings in v (each shared part counted
// each time it appears), for functions that would write them all out.
func (m *module) measure(v cty.Value, r hcl.Range) (nodes, bytes int, ok bool) {
	var walk func(v cty.Value) bool
	walk = func(v cty.Value) bool {
		v, _ = v.Unmark()
		nodes++
		if nodes > m.limits.MaxNodes {
			m.over("the size of a value", m.limits.MaxNodes, r)
			return false
		}
		if !v.IsKnown() || v.IsNull() {
			return true
		}
		ty := v.Type()
		switch {
		case ty == cty.String:
			n := len(v.AsString())
			if n > m.limits.MaxString {
				m.over("the length of a string", m.limits.MaxString, r)
				return false
			}
			bytes += n
		case ty == cty.Number:
			if !numberOK(v) {
				m.over("the magnitude of a number (binary exponent)", maxExponent, r)
				return false
			}
			bytes += 8
		case ty.IsCollectionType() || ty.IsTupleType() || ty.IsObjectType():
			if n := v.LengthInt(); n > m.limits.MaxCollection {
				m.over("the number of elements of a collection", m.limits.MaxCollection, r)
				return false
			}
			for it := v.ElementIterator(); it.Next(); {
				k, e := it.Element()
				if ty.IsMapType() || ty.IsObjectType() {
					bytes += len(k.AsString())
				}
				if !walk(e) {
					return false
				}
			}
		default:
			bytes++
		}
		return true
	}
	if !walk(v) {
		return nodes, bytes, false
	}
	return nodes, bytes, m.charge(nodes, r)
}

// size is a value's size as measure counts it.
type size struct{ nodes, bytes int }

// sized is the size of the value the last constructor evaluated (a tuple,
// object or for-expression) made, by the constructor's range: its parent
// adds it up rather than walking the value again, which would cost the
// square of the nesting.
type sized struct {
	at hcl.Range
	ok bool
	size
}

// sizeOf is the size of v, the value of the expression at r just
// evaluated.
func (m *module) sizeOf(r hcl.Range, v cty.Value) (size, bool) {
	if m.sized.ok && m.sized.at == r {
		return m.sized.size, true
	}
	n, b, ok := m.measure(v, r)
	return size{n, b}, ok
}

// addSize adds an element's size to its constructor's, within MaxNodes.
func (m *module) addSize(total *size, expr hcl.Expression, v cty.Value, r hcl.Range) bool {
	sz, ok := m.sizeOf(expr.Range(), v)
	if !ok {
		return false
	}
	total.nodes, total.bytes = total.nodes+sz.nodes, total.bytes+sz.bytes
	if total.nodes > m.limits.MaxNodes {
		m.over("the size of a value", m.limits.MaxNodes, r)
		return false
	}
	return true
}

// numberOK reports a known number of sane magnitude.
func numberOK(v cty.Value) bool {
	bf := v.AsBigFloat()
	if bf.IsInf() || bf.Sign() == 0 {
		return true
	}
	exp := bf.MantExp(nil)
	return exp <= maxExponent && exp >= -maxExponent
}

// checkNumber turns a number of absurd magnitude into unknown.
func (m *module) checkNumber(v cty.Value, r hcl.Range) cty.Value {
	plain, _ := v.Unmark()
	if plain.IsKnown() && !plain.IsNull() && plain.Type() == cty.Number && !numberOK(plain) {
		return m.over("the magnitude of a number (binary exponent)", maxExponent, r)
	}
	return v
}

// ---- before parsing ----

// nestingError refuses native-syntax text nested deeper than the limit.
// Brackets are counted over the raw text, those in strings and comments
// included: a legitimate file is nowhere near the limit, and a count that
// needs no parsing cannot itself be attacked.
func nestingError(name string, data []byte, limit int) *doc.Error {
	depth, line := 0, 1
	for _, c := range data {
		switch c {
		case '\n':
			line++
		case '(', '[', '{':
			depth++
			if depth > limit {
				return &doc.Error{File: name, Line: line, Message: fmt.Sprintf("nesting deeper than %d levels; the file is not read", limit)}
			}
		case ')', ']', '}':
			depth = max(depth-1, 0)
		}
	}
	return nil
}

// heredocError refuses a file whose heredocs are too long: HCL's parser
// joins the lines of a heredoc in time (and garbage) quadratic in their
// number (20,000 lines, 80 KB, took a minute). The squares of the heredocs'
// line counts may add up to limit²: one heredoc of limit lines, or more
// shorter ones. A heredoc is <<ID or <<-ID at the end of a line, up to a
// line holding just ID; one that is never closed is not counted (HCL
// rejects the file anyway).
func heredocError(name string, data []byte, limit int) *doc.Error {
	lines := bytes.Split(data, []byte("\n"))
	total := 0 // the sum of the squares
	for i := 0; i < len(lines); i++ {
		open := bytes.LastIndex(lines[i], []byte("<<"))
		if open < 0 {
			continue
		}
		id := bytes.TrimPrefix(bytes.TrimRight(lines[i][open+2:], " \t\r"), []byte("-"))
		if !heredocID(id) {
			continue
		}
		for j := i + 1; j < len(lines); j++ {
			if bytes.Equal(bytes.TrimSpace(lines[j]), id) {
				total += (j - i - 1) * (j - i - 1)
				if total > limit*limit {
					return &doc.Error{File: name, Line: i + 1, Message: fmt.Sprintf("heredocs too long to parse (one of at most %d lines, or several shorter); the file is not read", limit)}
				}
				i = j
				break
			}
		}
	}
	return nil
}

func heredocID(id []byte) bool {
	if len(id) == 0 {
		return false
	}
	for k, c := range id {
		letter := c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
		if !letter && (k == 0 || c != '-' && (c < '0' || c > '9')) {
			return false
		}
	}
	return true
}

// jsonError scans a JSON file before HCL parses it: nesting deeper than
// the limit refuses the file; a key repeated in one object is an error, as
// in Terraform (HCL's JSON reader silently keeps one of them). Syntax
// errors are left to HCL, which reports them with its own message.
// encoding/json's tokenizer is iterative, so the scan itself is linear.
func jsonError(name string, data []byte, limit int) (refuse *doc.Error, dups []*doc.Error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	type frame struct {
		object bool
		keys   map[string]int // key → line
		expect bool           // an object expects a key next
	}
	var stack []*frame
	line, counted := 1, 0
	lineAt := func(off int64) int {
		for ; counted < int(off) && counted < len(data); counted++ {
			if data[counted] == '\n' {
				line++
			}
		}
		return line
	}
	for {
		start := dec.InputOffset()
		tok, err := dec.Token()
		if err == io.EOF || err != nil {
			return nil, dups
		}
		top := (*frame)(nil)
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		switch t := tok.(type) {
		case json.Delim:
			switch t {
			case '{', '[':
				if top != nil && top.object {
					top.expect = true
				}
				if len(stack) >= limit {
					return &doc.Error{File: name, Line: lineAt(start + 1), Message: fmt.Sprintf("nesting deeper than %d levels; the file is not read", limit)}, nil
				}
				stack = append(stack, &frame{object: t == '{', keys: map[string]int{}, expect: t == '{'})
			default:
				stack = stack[:len(stack)-1]
				if len(stack) > 0 && stack[len(stack)-1].object {
					stack[len(stack)-1].expect = true
				}
			}
		case string:
			if top != nil && top.object && top.expect {
				top.expect = false
				// The key ends at the decoder's offset; its line is that of
				// its closing quote (keys hold no raw newlines).
				l := lineAt(dec.InputOffset())
				if prev, ok := top.keys[t]; ok {
					dups = append(dups, &doc.Error{File: name, Line: l, Message: fmt.Sprintf("duplicate key %q in a JSON object (first at line %d); Terraform rejects the file", t, prev)})
					continue
				}
				top.keys[t] = l
				continue
			}
			if top != nil && top.object {
				top.expect = true
			}
		default:
			if top != nil && top.object {
				top.expect = true
			}
		}
	}
}

// ---- functions ----

// guard wraps a function with the limits: the arguments are measured
// first, functions whose result can be far larger than their arguments
// (padding, repetition, products) have its size predicted before they
// run, and the result is measured after. Over a limit the call is refused
// (errOverBudget: the caller makes its value unknown).
func (m *module) guard(name string, f function.Function) function.Function {
	return function.New(&function.Spec{
		Description: f.Description(),
		Params:      f.Params(),
		VarParam:    f.VarParam(),
		Type:        f.ReturnTypeForValues,
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			site := m.site
			nodes, bytes := 0, 0
			for _, a := range args {
				n, b, ok := m.measure(a, site)
				if !ok {
					return cty.NilVal, errOverBudget
				}
				nodes, bytes = nodes+n, bytes+b
			}
			if nodes > m.limits.MaxNodes {
				m.over("the size of a value", m.limits.MaxNodes, site)
				return cty.NilVal, errOverBudget
			}
			if what, limit, size := m.predict(name, args, nodes, bytes); size > limit {
				m.over(what, limit, site)
				return cty.NilVal, errOverBudget
			}
			out, err := f.Call(args)
			if err != nil {
				return out, err
			}
			// Strings a function makes are new memory each call (a
			// for-expression padding a string a thousand times holds a
			// thousand copies): their bytes count as work, as a
			// template's do.
			_, outBytes, ok := m.measure(out, site)
			if !ok || !m.charge(outBytes/64, site) {
				return cty.NilVal, errOverBudget
			}
			return out, nil
		},
	})
}

// predict bounds the size of a function's result from its arguments, for
// the functions whose result can be much larger than what they are given.
// size is compared with limit; 0 when nothing is predicted.
func (m *module) predict(name string, args []cty.Value, nodes, bytes int) (what string, limit, size int) {
	str, col := "the length of a string", "the number of elements of a collection"
	known := func(v cty.Value) (cty.Value, bool) {
		v, _ = v.UnmarkDeep()
		return v, v.IsWhollyKnown() && !v.IsNull()
	}
	intArg := func(v cty.Value) int {
		if v, ok := known(v); ok && v.Type() == cty.Number {
			if n, acc := v.AsBigFloat().Int64(); acc == big.Exact || n > 0 {
				return int(min(max(n, -1), int64(m.limits.MaxString)+1))
			}
		}
		return 0
	}
	length := func(v cty.Value) int {
		if v, ok := known(v); ok && v.CanIterateElements() {
			return v.LengthInt()
		}
		return 0
	}
	switch name {
	case "format", "formatlist":
		if len(args) == 0 {
			return
		}
		spec, ok := known(args[0])
		if !ok || spec.Type() != cty.String {
			return
		}
		per := len(spec.AsString()) + formatWidths(spec.AsString(), m.limits.MaxString)
		rows := 1
		if name == "formatlist" {
			for _, a := range args[1:] {
				rows = max(rows, length(a))
			}
		}
		return str, m.limits.MaxString, per*rows + bytes
	case "indent":
		if len(args) == 2 {
			if s, ok := known(args[1]); ok && s.Type() == cty.String {
				lines := strings.Count(s.AsString(), "\n") + 1
				return str, m.limits.MaxString, intArg(args[0])*lines + len(s.AsString())
			}
		}
	case "join":
		if len(args) > 0 {
			if sep, ok := known(args[0]); ok && sep.Type() == cty.String {
				n := 0
				for _, a := range args[1:] {
					n += length(a)
				}
				return str, m.limits.MaxString, len(sep.AsString())*n + bytes
			}
		}
	case "jsonencode":
		return str, m.limits.MaxString, bytes + 8*nodes
	case "replace":
		if len(args) == 3 {
			s, ok1 := known(args[0])
			sub, ok2 := known(args[1])
			repl, ok3 := known(args[2])
			if ok1 && ok2 && ok3 {
				return str, m.limits.MaxString, replacedLength(s.AsString(), sub.AsString(), repl.AsString())
			}
		}
	case "split":
		if len(args) == 2 {
			sep, ok1 := known(args[0])
			s, ok2 := known(args[1])
			if ok1 && ok2 {
				n := strings.Count(s.AsString(), sep.AsString()) + 1
				return col, m.limits.MaxCollection, n
			}
		}
	case "setproduct":
		product := 1
		for _, a := range args {
			product *= max(length(a), 1)
			if product > m.limits.MaxCollection {
				break
			}
		}
		return col, m.limits.MaxCollection, product
	case "regexall":
		if len(args) == 2 {
			pattern, ok1 := known(args[0])
			s, ok2 := known(args[1])
			if ok1 && ok2 {
				if re, err := regexp.Compile(pattern.AsString()); err == nil {
					// Counting stops just past the limit.
					return col, m.limits.MaxCollection, len(re.FindAllStringIndex(s.AsString(), m.limits.MaxCollection+1))
				}
			}
		}
	case "jsondecode", "csvdecode":
		// Every element of the result is written with a separator.
		if len(args) == 1 {
			if s, ok := known(args[0]); ok && s.Type() == cty.String {
				text := s.AsString()
				n := 1 + strings.Count(text, ",") + strings.Count(text, "\n") + strings.Count(text, ":")
				return "the size of a value", m.limits.MaxNodes, n
			}
		}
	case "chunklist":
		if len(args) == 2 && intArg(args[1]) == 0 {
			return // chunklist(l, 0) is l whole
		}
	}
	return "", 0, 0
}

// formatWidths sums the widths and precisions a format string asks for
// (%2000000000s pads to two billion bytes), capped just above limit.
func formatWidths(spec string, limit int) int {
	total := 0
	for i := 0; i < len(spec); i++ {
		if spec[i] != '%' {
			continue
		}
		for i++; i < len(spec); i++ {
			c := spec[i]
			if c >= '0' && c <= '9' {
				n := 0
				for ; i < len(spec) && spec[i] >= '0' && spec[i] <= '9'; i++ {
					n = min(n*10+int(spec[i]-'0'), limit+1)
				}
				total = min(total+n, limit+1)
				i--
				continue
			}
			if c == '[' || c == ']' || c == '.' || strings.IndexByte("+-# ", c) >= 0 {
				continue
			}
			break // the verb (or %%)
		}
	}
	return total
}

// replacedLength is the length of replace(s, sub, repl) for a plain
// substring.
func replacedLength(s, sub, repl string) int {
	if len(sub) > 1 && sub[0] == '/' && sub[len(sub)-1] == '/' {
		return 0 // checked match by match (replaceFunc)
	}
	if sub == "" {
		return len(s) + (utf8.RuneCountInString(s)+1)*len(repl)
	}
	return len(s) + strings.Count(s, sub)*(len(repl)-len(sub))
}
