package plan

import (
	"strconv"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/util"
)

// sprintf is OPA's sprintf for the formats the rules write: verbs %s, %v
// and %d alone (no flags, width or precision) and %%, as many arguments as
// verbs, strings and integers where fmt prints them as such (a string for
// %s and %v, an integer for %d and %v, any other value but a number for %s
// and %v, which OPA prints as its text). OPA's builtin boxes every
// argument and has fmt parse the format: that was 3 % of a .properties
// lint's instructions, most findings' messages being sprintf's. Anything
// else (a float, a missing or extra argument, another verb) is not ok, and
// OPA's builtin runs. FuzzSprintfAsOPA holds it to OPA's.
func sprintf(_ *eval, args []*ast.Term) (*ast.Term, bool) {
	format, ok := args[0].Value.(ast.String)
	if !ok {
		return nil, false
	}
	list, ok := args[1].Value.(*ast.Array)
	if !ok {
		return nil, false
	}
	f := string(format)
	size := len(f) // enough for the common case, written once
	for i := range list.Len() {
		switch v := list.Elem(i).Value.(type) {
		case ast.String:
			size += len(v)
		case ast.Number:
			size += len(v)
		}
	}
	var b strings.Builder
	b.Grow(size)
	n := 0
	for {
		i := strings.IndexByte(f, '%')
		if i < 0 {
			b.WriteString(f)
			break
		}
		b.WriteString(f[:i])
		if i+1 >= len(f) {
			return nil, false
		}
		verb := f[i+1]
		f = f[i+2:]
		if verb == '%' {
			b.WriteByte('%')
			continue
		}
		if n >= list.Len() {
			return nil, false
		}
		v := list.Elem(n).Value
		n++
		switch v := v.(type) {
		case ast.String:
			if verb != 's' && verb != 'v' {
				return nil, false
			}
			b.WriteString(string(v))
		case ast.Number:
			x, ok := integer(v)
			if !ok || verb != 'd' && verb != 'v' {
				return nil, false
			}
			var digits [20]byte
			b.Write(strconv.AppendInt(digits[:0], x, 10))
		case Lazy:
			return nil, false
		default:
			if verb != 's' && verb != 'v' {
				return nil, false
			}
			b.WriteString(v.String())
		}
	}
	if n != list.Len() {
		return nil, false
	}
	return ast.StringTerm(b.String()), true
}

// integer is the int64 OPA's sprintf formats a number as, when it does
// (written without a fraction or an exponent, within int64).
func integer(n ast.Number) (int64, bool) {
	s := string(n)
	if strings.ContainsAny(s, ".eE") {
		return 0, false
	}
	return util.Atoi64(s)
}
