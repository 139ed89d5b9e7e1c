package main

import (
	"bytes"
	"fmt"
	"reflect"
	"strconv"
)

// printer writes a Go value as a Go composite literal. It knows only what
// the plan and the rules' metadata hold (structs, pointers, slices,
// interfaces of named scalar types, strings, integers, booleans) and is
// an error on anything else, so that a new kind of value in a future OPA's
// IR fails the generator instead of being printed wrong.
//
// It keeps what reflect.DeepEqual sees: a nil slice is left out (or
// printed nil), an empty one is printed as an empty literal; zero fields are
// left out; an unexported field must be zero (a literal cannot set it).
type printer struct {
	buf *bytes.Buffer
}

// localPkg is the package the output is in: its types are not qualified.
const localPkg = "github.com/kafkalint/kafkalint/policies/builtinplan"

func newPrinter(buf *bytes.Buffer) *printer { return &printer{buf: buf} }

func (p *printer) value(x any) error { return p.print(reflect.ValueOf(x), false, "") }

// typeExpr is t in Go syntax, qualified by package name.
func typeExpr(t reflect.Type) (string, error) {
	switch t.Kind() {
	case reflect.Pointer:
		s, err := typeExpr(t.Elem())
		return "*" + s, err
	case reflect.Slice:
		s, err := typeExpr(t.Elem())
		return "[]" + s, err
	}
	if t.Name() == "" {
		return "", fmt.Errorf("unnamed type %s", t)
	}
	if t.PkgPath() == "" || t.PkgPath() == localPkg {
		return t.Name(), nil
	}
	if t.PkgPath() != "github.com/open-policy-agent/opa/v1/ir" {
		return "", fmt.Errorf("type %s of package %s (the output imports only ir)", t, t.PkgPath())
	}
	return "ir." + t.Name(), nil
}

// multiline reports whether v is printed over several lines: lists of
// statements, blocks, functions, plans, strings and rules; and what holds
// one. Everything else (a statement's operands, a location) is on one line.
func multiline(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Slice:
		if v.Len() == 0 {
			return false
		}
		switch v.Type().Elem().Kind() {
		case reflect.Interface, reflect.Pointer:
			return true
		case reflect.Struct:
			return v.Type().Elem().PkgPath() == localPkg
		}
	case reflect.Pointer, reflect.Interface:
		return !v.IsNil() && multiline(v.Elem())
	case reflect.Struct:
		if v.Type().PkgPath() == localPkg {
			return true
		}
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() && multiline(v.Field(i)) {
				return true
			}
		}
	}
	return false
}

// print writes v. elided: v is an element of a slice literal whose type
// names v's, so its type (and & of a pointer) are left out. at names the
// value in errors.
func (p *printer) print(v reflect.Value, elided bool, at string) error {
	t := v.Type()
	switch t.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			p.buf.WriteString("nil")
			return nil
		}
		if t.Elem().Kind() != reflect.Struct {
			return fmt.Errorf("%s: pointer to %s", at, t.Elem())
		}
		if !elided {
			p.buf.WriteString("&")
		}
		return p.print(v.Elem(), elided, at)
	case reflect.Interface:
		if v.IsNil() {
			p.buf.WriteString("nil")
			return nil
		}
		return p.print(v.Elem(), false, at)
	case reflect.Struct:
		return p.structLit(v, elided, at)
	case reflect.Slice:
		if v.IsNil() {
			p.buf.WriteString("nil")
			return nil
		}
		te, err := typeExpr(t)
		if err != nil {
			return fmt.Errorf("%s: %w", at, err)
		}
		p.buf.WriteString(te + "{")
		ml := multiline(v)
		// An element's type can be left out when the slice's type names
		// it: a struct, or a pointer to one (not an interface).
		elide := t.Elem().Kind() == reflect.Struct ||
			(t.Elem().Kind() == reflect.Pointer && t.Elem().Elem().Kind() == reflect.Struct)
		for i := range v.Len() {
			if ml {
				p.buf.WriteString("\n")
			} else if i > 0 {
				p.buf.WriteString(", ")
			}
			if err := p.element(v.Index(i), elide, fmt.Sprintf("%s[%d]", at, i)); err != nil {
				return err
			}
			if ml {
				p.buf.WriteString(",")
			}
		}
		if ml {
			p.buf.WriteString("\n")
		}
		p.buf.WriteString("}")
		return nil
	case reflect.String, reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return p.scalar(v, at)
	}
	return fmt.Errorf("%s: cannot print a %s (%s)", at, t.Kind(), t)
}

// scalar writes a string, boolean or integer; a named type not in a typed
// context (an interface's value) is converted: ir.Local(3).
func (p *printer) scalar(v reflect.Value, at string) error {
	var lit string
	switch v.Kind() {
	case reflect.String:
		lit = strconv.Quote(v.String())
	case reflect.Bool:
		lit = strconv.FormatBool(v.Bool())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		lit = strconv.FormatUint(v.Uint(), 10)
	default:
		lit = strconv.FormatInt(v.Int(), 10)
	}
	if v.Type().Name() == v.Kind().String() { // a predeclared type: the literal's own
		p.buf.WriteString(lit)
		return nil
	}
	te, err := typeExpr(v.Type())
	if err != nil {
		return fmt.Errorf("%s: %w", at, err)
	}
	p.buf.WriteString(te + "(" + lit + ")")
	return nil
}

// structLit writes a struct's non-zero exported fields by name. Fields of
// a named scalar type are printed bare where the field's type gives it.
func (p *printer) structLit(v reflect.Value, elided bool, at string) error {
	t := v.Type()
	if !elided {
		te, err := typeExpr(t)
		if err != nil {
			return fmt.Errorf("%s: %w", at, err)
		}
		p.buf.WriteString(te)
	}
	p.buf.WriteString("{")
	ml := multiline(v)
	first := true
	for i := range v.NumField() {
		f, fv := t.Field(i), v.Field(i)
		if fv.IsZero() {
			continue
		}
		if !f.IsExported() {
			return fmt.Errorf("%s.%s: an unexported field is set (a literal cannot set it)", at, f.Name)
		}
		if f.Tag.Get("json") == "-" {
			return fmt.Errorf("%s.%s: a field the planner's JSON does not hold is set", at, f.Name)
		}
		switch {
		case ml:
			p.buf.WriteString("\n")
		case !first:
			p.buf.WriteString(", ")
		}
		first = false
		p.buf.WriteString(f.Name + ": ")
		if err := p.element(fv, false, at+"."+f.Name); err != nil {
			return err
		}
		if ml {
			p.buf.WriteString(",")
		}
	}
	if ml {
		p.buf.WriteString("\n")
	}
	p.buf.WriteString("}")
	return nil
}

// element writes a slice element or struct field: a scalar bare (the
// slice's or field's type gives its type), anything else in full.
func (p *printer) element(v reflect.Value, elide bool, at string) error {
	if k := v.Kind(); k != reflect.Struct && k != reflect.Pointer && k != reflect.Slice && k != reflect.Interface {
		return p.bare(v, at)
	}
	return p.print(v, elide, at)
}

// bare writes a scalar whose type the context gives, without conversion.
func (p *printer) bare(v reflect.Value, at string) error {
	switch v.Kind() {
	case reflect.String:
		p.buf.WriteString(strconv.Quote(v.String()))
	case reflect.Bool:
		p.buf.WriteString(strconv.FormatBool(v.Bool()))
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		p.buf.WriteString(strconv.FormatInt(v.Int(), 10))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		p.buf.WriteString(strconv.FormatUint(v.Uint(), 10))
	default:
		return fmt.Errorf("%s: cannot print a %s (%s)", at, v.Kind(), v.Type())
	}
	return nil
}
