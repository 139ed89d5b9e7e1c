package policies

import (
	"bytes"
	"encoding"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"

	"github.com/kafkalint/kafkalint/loader"
	"github.com/kafkalint/kafkalint/report"
)

// This file turns the cluster model into the Rego input directly, without
// the JSON round trip ast.InterfaceToValue makes for Go structs (marshal to
// JSON, unmarshal, convert): per cluster that round trip cost more than
// some of the rules it feeds. The conversion follows encoding/json's rules
// (field names and options from `json` tags, omitempty and omitzero, "-",
// embedded structs, nil pointers, slices and maps as null, map keys sorted)
// and is generic, so a field added to the model needs no change here; the
// equivalence tests (input_test.go) compare it with ast.InterfaceToValue on
// every example and corpus cluster. Values encoding/json treats specially
// (a type with its own MarshalJSON or MarshalText, json.Number, []byte,
// the ",string" option) go through ast.InterfaceToValue itself, so they
// are converted exactly as before.

// toValue converts a Go value to the ast.Value encoding/json would describe.
func toValue(x any) (ast.Value, error) {
	if x == nil {
		return ast.NullValue, nil
	}
	// ast.InterfaceToValue marshals a copy of what x points to, so the
	// top-level value is not addressable (which decides whether json calls
	// pointer-receiver marshalers); keep that.
	v := reflect.ValueOf(x)
	for v.Kind() == reflect.Pointer && !v.IsNil() {
		v = reflect.ValueOf(v.Elem().Interface())
	}
	c := converter{}
	t, err := c.termOf(v)
	if err != nil {
		return nil, err
	}
	return t.Value, nil
}

// converter holds what one conversion shares. The loader gives each later
// occurrence of a repeated key the list of the earlier ones as a prefix of
// one growing array (see parseProperties): their elements are converted
// once and each prefix's array reuses those terms, so a key written k times
// costs k terms (plus k² hash slots), not k² terms. A string value (file
// paths, sources, types: most strings of a cluster repeat) is one term per
// conversion; terms are immutable, so sharing them is safe.
//
// Likewise a flat struct (scalarStruct: a location, most often) is one
// term per distinct value per conversion: a large cluster's settings,
// listeners and voters name the same file:line over and over (72,000
// locations, 38,000 distinct, in bench/compare.sh's largest cluster), and
// an ast object costs some 450 bytes.
type converter struct {
	err     error // lazyInput: the first conversion that failed
	shared  map[sliceID][]*ast.Term
	strings map[string]*ast.Term
	flat    map[any]*ast.Term
	// settings are the settings a lazy map converted when read by key
	// (lazyMap.Get), one map per cluster rather than one per node.
	settings map[*loader.Setting]*ast.Term
}

// sliceID names a slice's backing array: two slices with the same first
// element address and element type hold the same elements.
type sliceID struct {
	data uintptr
	elem reflect.Type
}

var (
	jsonMarshaler = reflect.TypeFor[json.Marshaler]()
	textMarshaler = reflect.TypeFor[encoding.TextMarshaler]()
	jsonNumber    = reflect.TypeFor[json.Number]()
)

// special reports a type encoding/json does not encode by its kind alone.
func special(t reflect.Type) bool {
	if t == jsonNumber {
		return true
	}
	if t.Implements(jsonMarshaler) || t.Implements(textMarshaler) {
		return true
	}
	// A value method on T is also callable through *T, and json calls a
	// pointer method when the value is addressable: let json decide.
	if t.Kind() != reflect.Pointer && t.Kind() != reflect.Interface {
		pt := reflect.PointerTo(t)
		if pt.Implements(jsonMarshaler) || pt.Implements(textMarshaler) {
			return true
		}
	}
	return false
}

// viaJSON converts a special value through JSON, as the round trip does.
// Like encoding/json, it calls a pointer receiver's MarshalJSON or
// MarshalText only on an addressable value.
func viaJSON(v reflect.Value) (*ast.Term, error) {
	x := v.Interface()
	if v.Kind() != reflect.Pointer && v.CanAddr() {
		x = v.Addr().Interface()
	}
	b, err := json.Marshal(x)
	if err != nil {
		return nil, fmt.Errorf("ast: interface conversion: %w", err)
	}
	val, err := ast.ValueFromReader(bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	return ast.NewTerm(val), nil
}

// An encoder converts values of one type. Encoders are built once per type
// (as encoding/json builds its own), so converting a value looks up no
// type: the struct encoder knows its fields, their key terms and their
// encoders.
type encoder func(c *converter, v reflect.Value) (*ast.Term, error)

var encoders sync.Map // reflect.Type -> encoder

var nullTerm = ast.NullTerm()

func (c *converter) termOf(v reflect.Value) (*ast.Term, error) {
	if !v.IsValid() {
		return nullTerm, nil
	}
	return encoderOf(v.Type())(c, v)
}

// encoderOf is the encoder of t.
func encoderOf(t reflect.Type) encoder { return cachedEncoder(&encoders, t, newEncoder) }

// cachedEncoder is the encoder of t in cache, built by build once. A
// recursive type's encoder refers to itself through the indirection stored
// while it is built.
func cachedEncoder(encoders *sync.Map, t reflect.Type, build func(reflect.Type) encoder) encoder {
	if e, ok := encoders.Load(t); ok {
		if enc, ok := e.(encoder); ok {
			return enc
		}
	}
	var (
		wg    sync.WaitGroup
		built encoder
	)
	wg.Add(1)
	indirect := encoder(func(c *converter, v reflect.Value) (*ast.Term, error) {
		wg.Wait()
		return built(c, v)
	})
	if e, loaded := encoders.LoadOrStore(t, indirect); loaded {
		if enc, ok := e.(encoder); ok {
			return enc
		}
	}
	built = build(t)
	wg.Done()
	encoders.Store(t, built)
	return built
}

func newEncoder(t reflect.Type) encoder {
	if special(t) {
		if t.Kind() == reflect.Pointer || t.Kind() == reflect.Interface {
			return viaJSONUnlessNil
		}
		return func(_ *converter, v reflect.Value) (*ast.Term, error) { return viaJSON(v) }
	}
	switch t.Kind() {
	case reflect.Pointer:
		return pointerEncoder(encoderOf(t.Elem()))
	case reflect.Interface:
		return func(c *converter, v reflect.Value) (*ast.Term, error) {
			if v.IsNil() {
				return nullTerm, nil
			}
			return c.termOf(v.Elem())
		}
	case reflect.Bool:
		return func(_ *converter, v reflect.Value) (*ast.Term, error) { return ast.InternedTerm(v.Bool()), nil }
	case reflect.String:
		return func(c *converter, v reflect.Value) (*ast.Term, error) { return c.str(v.String()), nil }
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return func(_ *converter, v reflect.Value) (*ast.Term, error) {
			i := v.Int()
			if i == int64(int(i)) {
				return ast.InternedTerm(int(i)), nil
			}
			return ast.NumberTerm(json.Number(strconv.FormatInt(i, 10))), nil
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return func(_ *converter, v reflect.Value) (*ast.Term, error) {
			return ast.NumberTerm(json.Number(strconv.FormatUint(v.Uint(), 10))), nil
		}
	case reflect.Float32, reflect.Float64:
		// encoding/json's float formatting (shortest repr, exponent rules)
		// is what InterfaceToValue's round trip yields.
		return func(_ *converter, v reflect.Value) (*ast.Term, error) {
			b, err := json.Marshal(v.Interface())
			if err != nil {
				return nil, err
			}
			return ast.NumberTerm(json.Number(b)), nil
		}
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			return viaJSONUnlessNil // []byte is base64 text
		}
		elem := encoderOf(t.Elem())
		return func(c *converter, v reflect.Value) (*ast.Term, error) {
			if v.IsNil() {
				return nullTerm, nil
			}
			return c.sliceOf(v, elem)
		}
	case reflect.Array:
		elem := encoderOf(t.Elem())
		return func(c *converter, v reflect.Value) (*ast.Term, error) { return c.arrayOf(v, elem) }
	case reflect.Map:
		return mapEncoder(t)
	case reflect.Struct:
		return structEncoder(t)
	}
	return func(*converter, reflect.Value) (*ast.Term, error) {
		return nil, fmt.Errorf("ast: interface conversion: unsupported type %s", t)
	}
}

// pointerEncoder encodes a pointer: null, or what it points to by elem.
func pointerEncoder(elem encoder) encoder {
	return func(c *converter, v reflect.Value) (*ast.Term, error) {
		if v.IsNil() {
			return nullTerm, nil
		}
		return elem(c, v.Elem())
	}
}

// str is the conversion's one term for a string.
func (c *converter) str(s string) *ast.Term {
	if t, ok := c.strings[s]; ok {
		return t
	}
	if c.strings == nil {
		c.strings = map[string]*ast.Term{}
	}
	t := ast.StringTerm(s)
	c.strings[s] = t
	return t
}

func (c *converter) arrayOf(v reflect.Value, elem encoder) (*ast.Term, error) {
	terms := make([]*ast.Term, v.Len())
	for i := range terms {
		e, err := elem(c, v.Index(i))
		if err != nil {
			return nil, err
		}
		terms[i] = e
	}
	return ast.ArrayTerm(terms...), nil
}

// sliceOf converts a non-nil slice, reusing the terms of an earlier slice
// of the same backing array.
func (c *converter) sliceOf(v reflect.Value, elem encoder) (*ast.Term, error) {
	n := v.Len()
	if n == 0 || v.Type().Elem().Size() == 0 {
		return c.arrayOf(v, elem)
	}
	id := sliceID{v.Pointer(), v.Type().Elem()}
	terms := c.shared[id]
	for i := len(terms); i < n; i++ {
		e, err := elem(c, v.Index(i))
		if err != nil {
			return nil, err
		}
		terms = append(terms, e)
	}
	if c.shared == nil {
		c.shared = map[sliceID][]*ast.Term{}
	}
	if len(terms) > len(c.shared[id]) {
		c.shared[id] = terms
	}
	// The full slice expression makes an Append on this array copy
	// instead of writing into the terms a longer prefix uses.
	return ast.ArrayTerm(terms[:n:n]...), nil
}

func mapEncoder(t reflect.Type) encoder {
	// Keys are strings or integers, each as json writes it; any other key
	// (or one with its own marshaler) goes through json.
	kt := t.Key()
	switch kt.Kind() {
	case reflect.String, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
	default:
		return viaJSONUnlessNil
	}
	if special(kt) {
		return viaJSONUnlessNil
	}
	elem := encoderOf(t.Elem())
	return func(c *converter, v reflect.Value) (*ast.Term, error) {
		if v.IsNil() {
			return nullTerm, nil
		}
		return c.mapOf(v, elem)
	}
}

func viaJSONUnlessNil(_ *converter, v reflect.Value) (*ast.Term, error) {
	if v.IsNil() {
		return nullTerm, nil
	}
	return viaJSON(v)
}

func (c *converter) mapOf(v reflect.Value, elem encoder) (*ast.Term, error) {
	type kv struct {
		key string
		val reflect.Value
	}
	items := make([]kv, 0, v.Len())
	for it := v.MapRange(); it.Next(); {
		k := it.Key()
		var key string
		switch k.Kind() {
		case reflect.String:
			key = k.String()
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			key = strconv.FormatInt(k.Int(), 10)
		default:
			key = strconv.FormatUint(k.Uint(), 10)
		}
		items = append(items, kv{key, it.Value()})
	}
	slices.SortFunc(items, func(a, b kv) int { return strings.Compare(a.key, b.key) })
	terms := make([][2]*ast.Term, len(items))
	for i, item := range items {
		val, err := elem(c, item.val)
		if err != nil {
			return nil, err
		}
		terms[i] = [2]*ast.Term{c.str(item.key), val}
	}
	return ast.NewTerm(ast.NewObject(terms...)), nil // the keys are distinct: a map's
}

// fieldEncoder is one field of a struct encoder: its json field, key term
// and the encoder of its type.
type fieldEncoder struct {
	field
	key *ast.Term
	enc encoder
}

// structFields are the encoded fields of a struct type, in json's order.
func structFields(t reflect.Type) []fieldEncoder {
	var fields []fieldEncoder
	for _, f := range fieldsOf(t) {
		fe := fieldEncoder{field: f, key: ast.StringTerm(f.name)}
		if !f.quoted {
			fe.enc = encoderOf(t.FieldByIndex(f.index).Type)
		}
		fields = append(fields, fe)
	}
	return fields
}

func structEncoder(t reflect.Type) encoder {
	fields := structFields(t)
	enc := func(c *converter, v reflect.Value) (*ast.Term, error) {
		// The object is made for the fields present, not for all: most are
		// omitted when empty, and an object made for more than 8 keys holds
		// a hash table several times the size of a small one (a third of
		// the memory of a large cluster's input). NewObject also puts its
		// entries in one block.
		var buf [32][2]*ast.Term
		items := buf[:0]
		for i := range fields {
			f := &fields[i]
			fv, ok := fieldByIndex(v, f.index)
			if !ok {
				continue // behind a nil embedded pointer: json omits it
			}
			if f.omitEmpty && isEmpty(fv) || f.omitZero && fv.IsZero() {
				continue
			}
			var val *ast.Term
			var err error
			if f.quoted {
				val, err = viaJSONField(fv)
			} else {
				val, err = f.enc(c, fv)
			}
			if err != nil {
				return nil, err
			}
			items = append(items, [2]*ast.Term{f.key, val})
		}
		return ast.NewTerm(ast.NewObject(items...)), nil
	}
	if !scalarStruct(t) {
		return enc
	}
	return func(c *converter, v reflect.Value) (*ast.Term, error) {
		if !v.CanInterface() {
			return enc(c, v)
		}
		k := v.Interface()
		if t, ok := c.flat[k]; ok {
			return t, nil
		}
		t, err := enc(c, v)
		if err != nil {
			return nil, err
		}
		if c.flat == nil {
			c.flat = map[any]*ast.Term{}
		}
		c.flat[k] = t
		return t, nil
	}
}

// scalarStruct reports a struct whose fields are all booleans, integers
// or strings, none of them special or embedded: equal values (==) of it
// encode to equal JSON. Floats are left out, since 0.0 == -0.0 but json
// writes them differently.
func scalarStruct(t reflect.Type) bool {
	for i := range t.NumField() {
		f := t.Field(i)
		if f.Anonymous || special(f.Type) {
			return false
		}
		switch f.Type.Kind() {
		case reflect.Bool, reflect.String, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
			reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		default:
			return false
		}
	}
	return t.NumField() > 0
}

// viaJSONField converts a field with the ",string" option as json encodes it.
func viaJSONField(fv reflect.Value) (*ast.Term, error) {
	st := reflect.StructOf([]reflect.StructField{{Name: "X", Type: fv.Type(), Tag: reflect.StructTag(`json:"x,string"`)}})
	holder := reflect.New(st).Elem()
	holder.Field(0).Set(fv)
	v, err := ast.InterfaceToValue(holder.Interface())
	if err != nil {
		return nil, err
	}
	if obj, ok := v.(ast.Object); ok {
		if x := obj.Get(ast.StringTerm("x")); x != nil {
			return x, nil
		}
	}
	return nil, fmt.Errorf("ast: interface conversion: %s with the string option", fv.Type())
}

func fieldByIndex(v reflect.Value, index []int) (reflect.Value, bool) {
	for i, x := range index {
		if i > 0 {
			if v.Kind() == reflect.Pointer {
				if v.IsNil() {
					return reflect.Value{}, false
				}
				v = v.Elem()
			}
		}
		v = v.Field(x)
	}
	return v, true
}

// isEmpty is encoding/json's isEmptyValue (omitempty).
func isEmpty(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Interface, reflect.Pointer:
		return v.IsZero()
	}
	return false
}

// field is one encoded struct field.
type field struct {
	name      string
	index     []int
	omitEmpty bool
	omitZero  bool
	quoted    bool // ",string" on a bool, number or string field
	tagged    bool
}

// fieldsOf lists the fields encoding/json encodes for a struct type, in
// its order, with its rules for embedded structs: a field at a shallower
// depth hides deeper ones of the same name; at the same depth a tagged
// field wins, and two untagged (or two tagged) fields cancel out. It runs
// once per struct type, when its encoder is built.
func fieldsOf(t reflect.Type) []field {
	var all []field
	var walk func(t reflect.Type, index []int, visited map[reflect.Type]bool)
	walk = func(t reflect.Type, index []int, visited map[reflect.Type]bool) {
		if visited[t] {
			return
		}
		visited = withType(visited, t)
		for i := range t.NumField() {
			sf := t.Field(i)
			tag := sf.Tag.Get("json")
			if tag == "-" {
				continue
			}
			name, opts, _ := strings.Cut(tag, ",")
			if !validTagName(name) {
				name = ""
			}
			idx := append(slices.Clone(index), i)
			ft := sf.Type
			if sf.Anonymous {
				if ft.Kind() == reflect.Pointer {
					ft = ft.Elem()
				}
				if !sf.IsExported() && ft.Kind() != reflect.Struct {
					continue
				}
				if name == "" && ft.Kind() == reflect.Struct {
					walk(ft, idx, visited)
					continue
				}
			} else if !sf.IsExported() {
				continue
			}
			if ft.Name() == "" && ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			f := field{name: name, index: idx, tagged: name != ""}
			if f.name == "" {
				f.name = sf.Name
			}
			for o := range strings.SplitSeq(opts, ",") {
				switch o {
				case "omitempty":
					f.omitEmpty = true
				case "omitzero":
					f.omitZero = true
				case "string":
					switch ft.Kind() {
					case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
						reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
						reflect.Float32, reflect.Float64, reflect.String:
						f.quoted = true
					}
				}
			}
			all = append(all, f)
		}
	}
	walk(t, nil, map[reflect.Type]bool{})
	// Keep the dominant field of each name, in encoding order (json orders
	// by index sequence, which the walk already produces).
	byName := map[string][]int{}
	for i, f := range all {
		byName[f.name] = append(byName[f.name], i)
	}
	var out []field
	for i, f := range all {
		if dominant(all, byName[f.name]) == i {
			out = append(out, f)
		}
	}
	return out
}

func withType(m map[reflect.Type]bool, t reflect.Type) map[reflect.Type]bool {
	out := make(map[reflect.Type]bool, len(m)+1)
	for k := range m {
		out[k] = true
	}
	out[t] = true
	return out
}

// dominant returns the index in all of the field that wins among
// candidates (same name), or -1 when they cancel out.
func dominant(all []field, candidates []int) int {
	if len(candidates) == 1 {
		return candidates[0]
	}
	depth := len(all[candidates[0]].index)
	for _, c := range candidates {
		depth = min(depth, len(all[c].index))
	}
	var shallow []int
	for _, c := range candidates {
		if len(all[c].index) == depth {
			shallow = append(shallow, c)
		}
	}
	if len(shallow) == 1 {
		return shallow[0]
	}
	var tagged []int
	for _, c := range shallow {
		if all[c].tagged {
			tagged = append(tagged, c)
		}
	}
	if len(tagged) == 1 {
		return tagged[0]
	}
	return -1
}

// validTagName is encoding/json's isValidTag.
func validTagName(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		switch {
		case strings.ContainsRune("!#$%&()*+-./:;<=>?@[]^_{|}~ ", c):
		case !isLetterOrDigit(c):
			return false
		}
	}
	return true
}

func isLetterOrDigit(c rune) bool { return unicode.IsLetter(c) || unicode.IsDigit(c) }

// reportsQuery collects the findings of every rule: the report set of each
// rule package, as [category, slug, finding] triples. Asking for the
// report sets alone (not the whole data.kafkalint.rules tree) evaluates
// only what they depend on and returns nothing else to convert.
const reportsQuery = "[[category, slug, finding] | some finding in data.kafkalint.rules[category][slug].report]"

// reported is one finding of one rule.
type reported struct {
	category, slug string
	finding        rawFinding
}

// keepAST makes a query's result the ast term itself (rego.EvalGenerateJSON),
// so that the interpreter's findings are decoded as the plan's are
// (decodeFinding), with no conversion to Go values first.
func keepAST(t *ast.Term, _ *rego.EvalContext) (any, error) { return t, nil }

// decodeReports reads the result of reportsQuery, evaluated with keepAST.
// The shape is lib/result.rego's: message, why, fix, key, location {file,
// line, column} and related locations; a value of another type is an error.
func decodeReports(rs rego.ResultSet) ([]reported, error) {
	if len(rs) == 0 || len(rs[0].Expressions) == 0 {
		return nil, nil
	}
	t, _ := rs[0].Expressions[0].Value.(*ast.Term)
	triples, ok := termValue(t).(*ast.Array)
	if !ok {
		return nil, fmt.Errorf("policy result: want an array, got %v", rs[0].Expressions[0].Value)
	}
	out := make([]reported, 0, triples.Len())
	for i := range triples.Len() {
		triple, ok := triples.Elem(i).Value.(*ast.Array)
		if !ok || triple.Len() != 3 {
			return nil, fmt.Errorf("policy result: want [category, slug, finding], got %v", triples.Elem(i))
		}
		cat, ok1 := triple.Elem(0).Value.(ast.String)
		slug, ok2 := triple.Elem(1).Value.(ast.String)
		if !ok1 || !ok2 {
			return nil, fmt.Errorf("policy result: want [category, slug, finding], got %v", triple)
		}
		f, err := decodeFinding(triple.Elem(2).Value)
		if err != nil {
			return nil, fmt.Errorf("policy result of %s/%s: %w", string(cat), string(slug), err)
		}
		out = append(out, reported{category: string(cat), slug: string(slug), finding: f})
	}
	return out, nil
}

func termValue(t *ast.Term) ast.Value {
	if t == nil {
		return nil
	}
	return t.Value
}

// decodeFinding reads one finding of a report set (an ast value, from the
// plan or the interpreter): an absent field is its zero, a field of another
// type is an error.
func decodeFinding(v ast.Value) (rawFinding, error) {
	d := astDecoder{}
	f := d.object(v, "finding")
	var r rawFinding
	r.Message = d.str(f, "message")
	r.Why = d.str(f, "why")
	r.Fix = d.str(f, "fix")
	r.Key = d.str(f, "key")
	r.Location = d.location(objField(f, "location"))
	if rel := objField(f, "related"); rel != nil {
		list, ok := rel.(*ast.Array)
		if !ok {
			d.fail("related", rel)
		} else {
			list.Foreach(func(t *ast.Term) { r.Related = append(r.Related, d.location(t.Value)) })
		}
	}
	r.RelatedOmitted = d.int(f, "related_omitted")
	return r, d.err
}

// findingKeys are the terms of the keys decodeFinding reads, made once:
// ast.InternedTerm interns none of them, so it made a new term for each
// field of each finding (1.6 % of a .properties lint's instructions).
var findingKeys = func() map[string]*ast.Term {
	m := map[string]*ast.Term{}
	for _, k := range []string{"message", "why", "fix", "key", "location", "related", "related_omitted", "file", "line", "column"} {
		m[k] = ast.StringTerm(k)
	}
	return m
}()

// objField is an object's value at key, nil when absent (or o is nil).
func objField(o ast.Object, key string) ast.Value {
	if o == nil {
		return nil
	}
	k, ok := findingKeys[key]
	if !ok {
		k = ast.StringTerm(key)
	}
	if t := o.Get(k); t != nil {
		return t.Value
	}
	return nil
}

// astDecoder reads finding fields from ast values, keeping the first error.
type astDecoder struct{ err error }

func (d *astDecoder) fail(what string, v ast.Value) {
	if d.err == nil {
		shown := v.String()
		if s, ok := v.(ast.String); ok {
			shown = string(s) // unquoted, so the redactor sees the value as it is set
		}
		d.err = fmt.Errorf("%s: unexpected value %s (%s)", what, shown, ast.ValueName(v))
	}
}

func (d *astDecoder) object(v ast.Value, what string) ast.Object {
	if v == nil {
		return nil
	}
	o, ok := v.(ast.Object)
	if !ok {
		d.fail(what, v)
	}
	return o
}

func (d *astDecoder) str(o ast.Object, key string) string {
	v := objField(o, key)
	if v == nil {
		return ""
	}
	s, ok := v.(ast.String)
	if !ok {
		d.fail(key, v)
	}
	return string(s)
}

func (d *astDecoder) int(o ast.Object, key string) int {
	v := objField(o, key)
	if v == nil {
		return 0
	}
	n, ok := v.(ast.Number)
	if !ok {
		d.fail(key, v)
		return 0
	}
	i, err := strconv.Atoi(string(n))
	if err != nil {
		d.fail(key, v)
	}
	return i
}

func (d *astDecoder) location(v ast.Value) report.Location {
	m := d.object(v, "location")
	return report.Location{File: d.str(m, "file"), Line: d.int(m, "line"), Column: d.int(m, "column")}
}
