package plan

import (
	"time"
	"unicode/utf8"

	"github.com/open-policy-agent/opa/v1/ast"
)

var now = time.Now

func valueOf(t *ast.Term) ast.Value {
	if t == nil {
		return nil
	}
	return t.Value
}

// equal is OPA's value equality (ast.Compare == 0, as the equal builtin
// and the Wasm backend's EqualStmt): 1 and 1.0 are equal.
func equal(a, b *ast.Term) bool {
	if a == b {
		return true
	}
	_, lazyA := a.Value.(Lazy)
	_, lazyB := b.Value.(Lazy)
	if lazyA || lazyB {
		if kindDiffers(a.Value, b.Value) || kindDiffers(b.Value, a.Value) {
			return false // values of two kinds are never equal: no whole value needed
		}
		a, b = Whole(a), Whole(b)
	}
	return a.Value.Compare(b.Value) == 0
}

// kindDiffers says whether a is a Lazy and b a value of another kind
// (an object against anything but an object, an array against anything
// but an array).
func kindDiffers(a, b ast.Value) bool {
	l, ok := a.(Lazy)
	if !ok {
		return false
	}
	switch b := b.(type) {
	case Lazy:
		return l.Object() != b.Object()
	case ast.Object:
		return !l.Object()
	case *ast.Array:
		return l.Object()
	}
	return true
}

// dot is src[key]: an object's value, an array's element at an integer
// index, a set's element; nil (undefined) otherwise. constKey says key is
// one of the program's constants (ConstGetter).
func dot(src, key *ast.Term, constKey bool) *ast.Term {
	if src == nil || key == nil {
		return nil
	}
	switch v := src.Value.(type) {
	case Lazy:
		if c, ok := v.(ConstGetter); ok && constKey {
			return c.GetConst(key)
		}
		return v.Get(key)
	case ast.Object:
		return v.Get(Whole(key))
	case *ast.Array:
		n, ok := key.Value.(ast.Number)
		if !ok {
			return nil
		}
		i, ok := n.Int()
		if !ok || i < 0 || i >= v.Len() {
			return nil
		}
		return v.Elem(i)
	case ast.Set:
		if key = Whole(key); v.Contains(key) {
			return key
		}
	}
	return nil
}

// length is the number of elements of a collection or runes of a string
// (count's definition).
func length(t *ast.Term) (int, bool) {
	switch v := valueOf(t).(type) {
	case Lazy:
		return v.Len(), true
	case *ast.Array:
		return v.Len(), true
	case ast.Object:
		return v.Len(), true
	case ast.Set:
		return v.Len(), true
	case ast.String:
		return utf8.RuneCountInString(string(v)), true
	}
	return 0, false
}

// upsert returns base with val at path, copying each object on the way
// (base is shared: input or data); a missing or non-object node becomes an
// object, as the Wasm backend's WithStmt does.
func upsert(base *ast.Term, path []*ast.Term, val *ast.Term) *ast.Term {
	if len(path) == 0 {
		return Whole(val) // it goes into an object
	}
	obj := ast.NewObject()
	if old, ok := valueOf(Whole(base)).(ast.Object); ok {
		old.Foreach(func(k, v *ast.Term) { obj.Insert(k, v) })
	}
	obj.Insert(path[0], upsert(obj.Get(path[0]), path[1:], val))
	return ast.NewTerm(obj)
}
