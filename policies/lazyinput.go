package policies

import (
	"reflect"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/kafkalint/kafkalint/loader"
	"github.com/kafkalint/kafkalint/policies/plan"
)

// The compiled engine reads the cluster's input lazily (plan.Lazy): a
// struct, a map with string keys or a slice of structs becomes a value
// that converts an element when a rule first reads it, and converts
// itself whole, as toValue would, only when it is handed to a builtin, a
// comparison or a result. Profiled on bench/compare.sh's trees, converting
// every cluster whole was some 15 % of a lint's CPU time and its largest
// source of garbage, and the rules read few of a setting's fields. Flat
// structs (locations), strings, numbers, lists of scalars and interface
// values (a setting's value) are converted as toValue converts them, by
// the same encoders and with the same converter, so what a rule reads is
// the same value either way; the equivalence tests (lazyinput_test.go)
// compare every example and corpus cluster element by element.

// lazyInput is x's input for the compiled engine, and the converter whose
// err says whether converting a part that was read failed.
func lazyInput(x any) (ast.Value, *converter) {
	c := &converter{}
	if x == nil {
		return ast.NullValue, c
	}
	v := reflect.ValueOf(x) // as toValue: the top-level value is not addressable
	for v.Kind() == reflect.Pointer && !v.IsNil() {
		v = reflect.ValueOf(v.Elem().Interface())
	}
	t, err := lazyEncoderOf(v.Type())(c, v)
	if err != nil {
		c.fail(err)
		return ast.NullValue, c
	}
	return t.Value, c
}

// fail records the first conversion error of a part a rule read; the
// evaluation's findings are then discarded for it, as toValue's error
// would have stopped the evaluation (Engine.EvaluatePrepared).
func (c *converter) fail(err error) {
	if c.err == nil {
		c.err = err
	}
}

var lazyEncoders sync.Map // reflect.Type -> encoder

func lazyEncoderOf(t reflect.Type) encoder { return cachedEncoder(&lazyEncoders, t, newLazyEncoder) }

// lazyStructType says whether t is a struct (or a pointer to one) whose
// values are converted lazily: any struct toValue encodes field by field,
// but a flat one (scalarStruct), which the converter shares whole.
func lazyStructType(t reflect.Type) bool {
	if t.Kind() == reflect.Pointer {
		t = t.Elem() // special(T) covers *T's methods too
	}
	return t.Kind() == reflect.Struct && !special(t) && !scalarStruct(t)
}

func newLazyEncoder(t reflect.Type) encoder {
	if !lazyStructType(t) {
		switch {
		case t.Kind() == reflect.Map && t.Key().Kind() == reflect.String && !special(t) && !special(t.Key()) && lazyStructType(t.Elem()):
		case t.Kind() == reflect.Slice && !special(t) && lazyStructType(t.Elem()):
		default:
			return encoderOf(t)
		}
	}
	switch t.Kind() {
	case reflect.Pointer:
		return pointerEncoder(lazyEncoderOf(t.Elem()))
	case reflect.Map:
		elem := lazyEncoderOf(t.Elem())
		settings := t == reflect.TypeFor[map[string]*loader.Setting]()
		return func(c *converter, v reflect.Value) (*ast.Term, error) {
			if v.IsNil() {
				return nullTerm, nil
			}
			l := &lazyMap{lazyBase: lazyBase{c: c, v: v}, elem: elem}
			if settings {
				l.settings, _ = v.Interface().(map[string]*loader.Setting)
			}
			l.self = l
			return ast.NewTerm(l), nil
		}
	case reflect.Slice:
		elem := lazyEncoderOf(t.Elem())
		return func(c *converter, v reflect.Value) (*ast.Term, error) {
			if v.IsNil() {
				return nullTerm, nil
			}
			l := &lazyArray{lazyBase: lazyBase{c: c, v: v}, elem: elem, elems: make([]*ast.Term, v.Len())}
			l.self = l
			return ast.NewTerm(l), nil
		}
	}
	fields := lazyFieldsOf(t)
	return func(c *converter, v reflect.Value) (*ast.Term, error) {
		l := &lazyStruct{lazyBase: lazyBase{c: c, v: v}, fields: fields}
		l.self = l
		return ast.NewTerm(l), nil
	}
}

// lazyField is a struct field as toValue encodes it, in key order.
type lazyField struct {
	fieldEncoder
	lazy encoder // the field's own value, converted lazily where it can be
}

// lazyFields are a struct type's encoded fields sorted by key (the order
// of an ast object's keys), and each key's position.
type lazyFields struct {
	list  []lazyField
	index map[string]int
	// byConst remembers the position of the plan's constant keys
	// (plan.ConstGetter) by their terms' address: the rules read fields by
	// these, and a read then skips hashing the key (map lookups by key
	// were 2-5 % of a lint's work). A slot is taken once, by the first key
	// that falls in it; a key whose slot another holds is looked up in
	// index. Holding the term keeps its address from being reused.
	byConst [64]atomic.Pointer[constKey]
}

// constKey is a constant key's position (-1: no such field).
type constKey struct {
	key *ast.Term
	i   int
}

// constPosition is position for one of the plan's constant keys.
func (f *lazyFields) constPosition(key *ast.Term, s string) (int, bool) {
	slot := &f.byConst[uint64(uintptr(unsafe.Pointer(key)))*0x9E3779B97F4A7C15>>58]
	if k := slot.Load(); k != nil && k.key == key {
		return k.i, k.i >= 0
	}
	i, ok := f.index[s]
	if !ok {
		i = -1
	}
	slot.CompareAndSwap(nil, &constKey{key: key, i: i})
	return i, ok
}

var lazyFieldCache sync.Map // reflect.Type -> *lazyFields

func lazyFieldsOf(t reflect.Type) *lazyFields {
	if f, ok := lazyFieldCache.Load(t); ok {
		if lf, ok := f.(*lazyFields); ok {
			return lf
		}
	}
	lf := &lazyFields{index: map[string]int{}}
	for _, f := range structFields(t) {
		l := lazyField{fieldEncoder: f}
		if !f.quoted {
			l.lazy = lazyEncoderOf(t.FieldByIndex(f.index).Type)
		}
		lf.list = append(lf.list, l)
	}
	slices.SortFunc(lf.list, func(a, b lazyField) int { return strings.Compare(a.name, b.name) })
	for i, f := range lf.list {
		lf.index[f.name] = i
	}
	if f, loaded := lazyFieldCache.LoadOrStore(t, lf); loaded {
		if first, ok := f.(*lazyFields); ok {
			return first
		}
	}
	return lf
}

// lazyBase is what every lazy value has: the Go value, the conversion it
// belongs to and its whole value once built (from the elements converted
// lazily, so nothing is converted twice).
type lazyBase struct {
	c     *converter
	v     reflect.Value
	whole *ast.Term
	self  plan.Lazy // the value this is the base of, for its ast.Value methods
}

// wholeBy is the whole value, built once by build.
func (l *lazyBase) wholeBy(build func() *ast.Term) *ast.Term {
	if l.whole == nil {
		l.whole = build()
	}
	return l.whole
}

// convert is an element's lazy conversion, with a failure recorded.
func (l *lazyBase) convert(enc encoder, v reflect.Value) *ast.Term {
	t, err := enc(l.c, v)
	if err != nil {
		l.c.fail(err)
		return nullTerm
	}
	return t
}

func (l *lazyBase) Compare(other ast.Value) int { return l.self.Whole().Value.Compare(other) }
func (l *lazyBase) Find(path ast.Ref) (ast.Value, error) {
	return l.self.Whole().Value.Find(path)
}
func (l *lazyBase) Hash() int      { return l.self.Whole().Value.Hash() }
func (l *lazyBase) IsGround() bool { return true }
func (l *lazyBase) String() string { return l.self.Whole().Value.String() }
func (l *lazyBase) StringLength() int {
	return l.self.Whole().Value.StringLength()
}
func (l *lazyBase) Object() bool { return l.v.Kind() != reflect.Slice }

// lazyStruct is a struct as toValue's object, a field converted when read.
type lazyStruct struct {
	lazyBase
	fields *lazyFields
	vals   []*ast.Term // by position in fields.list; absentTerm: omitted
	n      int         // the number of fields present, once counted (n+1)
}

// absentTerm marks a field toValue omits (empty with omitempty, behind a
// nil embedded pointer).
var absentTerm = ast.NewTerm(ast.Null{})

func (l *lazyStruct) field(i int) *ast.Term {
	if l.vals == nil {
		l.vals = make([]*ast.Term, len(l.fields.list))
	}
	if t := l.vals[i]; t != nil {
		return t
	}
	f := &l.fields.list[i]
	t := absentTerm
	if fv, ok := l.fieldValue(i); ok {
		if f.quoted {
			var err error
			if t, err = viaJSONField(fv); err != nil {
				l.c.fail(err)
				t = nullTerm
			}
		} else {
			t = l.convert(f.lazy, fv)
		}
	}
	l.vals[i] = t
	return t
}

// Whole is the object toValue builds: the fields present, each whole.
func (l *lazyStruct) Whole() *ast.Term {
	return l.wholeBy(func() *ast.Term {
		items := make([][2]*ast.Term, 0, len(l.fields.list))
		l.Until(func(k, v *ast.Term) bool {
			items = append(items, [2]*ast.Term{k, plan.Whole(v)})
			return false
		})
		return ast.NewTerm(ast.NewObject(items...))
	})
}

// fieldValue is the i-th field's value, unless toValue omits the field
// (empty with omitempty or omitzero, behind a nil embedded pointer).
func (l *lazyStruct) fieldValue(i int) (reflect.Value, bool) {
	f := &l.fields.list[i]
	fv, ok := fieldByIndex(l.v, f.index)
	if !ok || f.omitEmpty && isEmpty(fv) || f.omitZero && fv.IsZero() {
		return reflect.Value{}, false
	}
	return fv, true
}

// present says whether toValue encodes the i-th field, converting nothing.
func (l *lazyStruct) present(i int) bool {
	if i < len(l.vals) && l.vals[i] != nil {
		return l.vals[i] != absentTerm
	}
	_, ok := l.fieldValue(i)
	return ok
}

func (l *lazyStruct) Get(key *ast.Term) *ast.Term {
	s, ok := key.Value.(ast.String)
	if !ok {
		return nil
	}
	i, ok := l.fields.index[string(s)]
	return l.at(i, ok)
}

func (l *lazyStruct) GetConst(key *ast.Term) *ast.Term {
	s, ok := key.Value.(ast.String)
	if !ok {
		return nil
	}
	return l.at(l.fields.constPosition(key, string(s)))
}

// at is the i-th field's value, nil when absent (or !ok: no such field).
func (l *lazyStruct) at(i int, ok bool) *ast.Term {
	if !ok {
		return nil
	}
	if t := l.field(i); t != absentTerm {
		return t
	}
	return nil
}

func (l *lazyStruct) Index(int) *ast.Term { return nil }

func (l *lazyStruct) Len() int {
	if l.n == 0 {
		n := 0
		for i := range l.fields.list {
			if l.present(i) {
				n++
			}
		}
		l.n = n + 1
	}
	return l.n - 1
}

func (l *lazyStruct) Until(f func(k, v *ast.Term) bool) bool {
	for i := range l.fields.list {
		if t := l.field(i); t != absentTerm && f(l.fields.list[i].key, t) {
			return true
		}
	}
	return false
}

// lazyMap is a map with string keys as toValue's object, an entry
// converted when read. The model's settings (settings) are read by key
// without sorting their keys (a node's some 200, Kafka's defaults
// included, are read by key some 50 times and never iterated: sorting
// them all per node was 2 % of a lint's instructions and 3 % of its
// allocations): a read looks the key up in the Go map, and the setting
// converted is kept in the converter's settings (one map per cluster).
// Any other map, and a settings map once iterated, sorts its keys once.
type lazyMap struct {
	lazyBase
	elem     encoder
	settings map[string]*loader.Setting // the map, when it is a model's settings
	keys     []string                   // sorted, once iterated
	keyTerms []*ast.Term                // the keys' terms, in keys' order
	vals     []reflect.Value            // the map's values, in keys' order
	got      []*ast.Term                // converted values, in keys' order
}

// setting is a settings map's value at key, read before the keys are
// sorted.
func (l *lazyMap) setting(key string) *ast.Term {
	s, ok := l.settings[key]
	if !ok {
		return nil
	}
	if t, ok := l.c.settings[s]; ok {
		return t
	}
	t := l.convert(l.elem, reflect.ValueOf(s))
	if l.c.settings == nil {
		l.c.settings = map[*loader.Setting]*ast.Term{}
	}
	l.c.settings[s] = t
	return t
}

func (l *lazyMap) sorted() {
	if l.keys != nil || l.v.Len() == 0 {
		return
	}
	type kv struct {
		key string
		val reflect.Value
	}
	items := make([]kv, 0, l.v.Len())
	for it := l.v.MapRange(); it.Next(); {
		items = append(items, kv{it.Key().String(), it.Value()})
	}
	slices.SortFunc(items, func(a, b kv) int { return strings.Compare(a.key, b.key) })
	l.keys = make([]string, len(items))
	l.keyTerms = make([]*ast.Term, len(items))
	l.vals = make([]reflect.Value, len(items))
	l.got = make([]*ast.Term, len(items))
	for i, it := range items {
		l.keys[i], l.keyTerms[i], l.vals[i] = it.key, l.c.str(it.key), it.val
		if l.settings != nil { // a setting read by key is converted already
			s, _ := it.val.Interface().(*loader.Setting)
			l.got[i] = l.c.settings[s]
		}
	}
}

func (l *lazyMap) at(i int) *ast.Term {
	if l.got[i] == nil {
		l.got[i] = l.convert(l.elem, l.vals[i])
	}
	return l.got[i]
}

// Whole is the object toValue builds: every entry, each whole.
func (l *lazyMap) Whole() *ast.Term {
	return l.wholeBy(func() *ast.Term {
		items := make([][2]*ast.Term, 0, l.Len())
		l.Until(func(k, v *ast.Term) bool {
			items = append(items, [2]*ast.Term{k, plan.Whole(v)})
			return false
		})
		return ast.NewTerm(ast.NewObject(items...))
	})
}

func (l *lazyMap) Get(key *ast.Term) *ast.Term {
	s, ok := key.Value.(ast.String)
	if !ok {
		return nil
	}
	if l.settings != nil && l.keys == nil {
		return l.setting(string(s))
	}
	l.sorted()
	i, ok := slices.BinarySearch(l.keys, string(s))
	if !ok {
		return nil
	}
	return l.at(i)
}

func (l *lazyMap) Len() int { return l.v.Len() }

func (l *lazyMap) Index(int) *ast.Term { return nil }

func (l *lazyMap) Until(f func(k, v *ast.Term) bool) bool {
	l.sorted()
	for i, k := range l.keyTerms {
		if f(k, l.at(i)) {
			return true
		}
	}
	return false
}

// lazyArray is a slice of structs as toValue's array, an element
// converted when read.
type lazyArray struct {
	lazyBase
	elem  encoder
	elems []*ast.Term
}

func (l *lazyArray) at(i int) *ast.Term {
	if l.elems[i] == nil {
		l.elems[i] = l.convert(l.elem, l.v.Index(i))
	}
	return l.elems[i]
}

// Whole is the array toValue builds: every element, each whole.
func (l *lazyArray) Whole() *ast.Term {
	return l.wholeBy(func() *ast.Term {
		terms := make([]*ast.Term, len(l.elems))
		for i := range terms {
			terms[i] = plan.Whole(l.at(i))
		}
		return ast.ArrayTerm(terms...)
	})
}

func (l *lazyArray) Get(key *ast.Term) *ast.Term {
	n, ok := key.Value.(ast.Number)
	if !ok {
		return nil
	}
	i, ok := n.Int()
	if !ok || i < 0 || i >= len(l.elems) {
		return nil
	}
	return l.at(i)
}

func (l *lazyArray) Len() int { return len(l.elems) }

func (l *lazyArray) Index(i int) *ast.Term { return l.at(i) }

func (l *lazyArray) Until(f func(k, v *ast.Term) bool) bool {
	for i := range l.elems {
		if f(ast.InternedTerm(i), l.at(i)) {
			return true
		}
	}
	return false
}

var (
	_ plan.Lazy = (*lazyStruct)(nil)
	_ plan.Lazy = (*lazyMap)(nil)
	_ plan.Lazy = (*lazyArray)(nil)
)
