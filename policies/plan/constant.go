package plan

import (
	"reflect"

	"github.com/open-policy-agent/opa/v1/ir"
)

// Constant rules: a rule without arguments whose value depends on neither
// input nor data (a table of messages, the keys of each aspect, Kafka's
// defaults) has the same value in every evaluation, so the program keeps it
// once computed instead of building it again for every cluster. Only
// values computed outside `with` scopes are kept or used, since a `with`
// may replace a rule.

// constants marks the functions of (input, data) that are constant: no
// statement reads input or data, except to pass them on to a constant
// function, every function called is constant, and no builtin is called.
// Builtins are left out whole: some read the clock without being marked
// non-deterministic (crypto.x509.parse_and_verify_certificates), a
// process may register its own, and the built-in rules' constants call
// none (tables and texts written out).
func constants(funcs []*ir.Func, byName map[string]*function) {
	irOf := map[string]*ir.Func{}
	for _, f := range funcs {
		irOf[f.Name] = f
	}
	state := map[string]uint8{} // 1 being decided, 2 constant, 3 not
	var decide func(name string) bool
	decide = func(name string) bool {
		switch state[name] {
		case 1, 3: // a cycle (Rego has none) or not constant
			return false
		case 2:
			return true
		}
		state[name] = 1
		f := irOf[name]
		ok := f != nil && len(f.Params) == 2 && constantBody(f, func(call *ir.CallStmt) bool {
			_, isFunc := byName[call.Func]
			return isFunc && decide(call.Func)
		})
		state[name] = 3
		if ok {
			state[name] = 2
		}
		return ok
	}
	for _, f := range funcs {
		byName[f.Name].constant = decide(f.Name)
	}
}

// constantBody says whether f's statements use input and data only to pass
// them on to functions, and every call passes callOK (which admits
// functions only).
func constantBody(f *ir.Func, callOK func(*ir.CallStmt) bool) bool {
	input, data := f.Params[0], f.Params[1]
	ok := true
	for _, b := range f.Blocks {
		walkStmts(b.Stmts, func(s ir.Stmt) {
			if !ok {
				return // decided: the rest need no look
			}
			switch s := s.(type) {
			case *ir.CallStmt:
				if !callOK(s) {
					ok = false
					return
				}
				args := s.Args
				if len(args) >= 2 && isLocal(args[0], input) && isLocal(args[1], data) {
					args = args[2:] // a rule's call passes input and data on
				}
				for _, a := range args {
					if usesLocal(reflect.ValueOf(a), input, data) {
						ok = false
					}
				}
				if s.Result == input || s.Result == data {
					ok = false
				}
			case *ir.CallDynamicStmt, *ir.WithStmt:
				ok = false
			default:
				if usesLocal(reflect.ValueOf(s), input, data) {
					ok = false
				}
			}
		})
	}
	return ok
}

// isLocal says whether an operand names local l (earlyexit.go's localOf).
func isLocal(o ir.Operand, l ir.Local) bool {
	v, ok := localOf(o)
	return ok && v == l
}

// usesLocal says whether a statement's own fields (not its blocks, which
// the walk visits) name either local.
func usesLocal(v reflect.Value, a, b ir.Local) bool {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return false
		}
		return usesLocal(v.Elem(), a, b)
	case reflect.Struct:
		if v.Type() == reflect.TypeFor[ir.Block]() || v.Type() == reflect.TypeFor[ir.Location]() {
			return false
		}
		for i := range v.NumField() {
			if usesLocal(v.Field(i), a, b) {
				return true
			}
		}
	case reflect.Slice:
		for i := range v.Len() {
			if usesLocal(v.Index(i), a, b) {
				return true
			}
		}
	default:
		if v.Type() == reflect.TypeFor[ir.Local]() {
			l := ir.Local(v.Int())
			return l == a || l == b
		}
	}
	return false
}
