package plan

import (
	"context"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
)

// testLazy is a Lazy over an ast object or array whose collections are
// testLazy too; it counts the whole values built.
type testLazy struct {
	v      ast.Value
	wholes *int
	elems  map[string]*ast.Term // converted elements, by key
}

func lazyOf(v ast.Value, wholes *int) ast.Value {
	switch v.(type) {
	case ast.Object, *ast.Array:
		return &testLazy{v: v, wholes: wholes, elems: map[string]*ast.Term{}}
	}
	return v
}

func (l *testLazy) elem(k, v *ast.Term) *ast.Term {
	if t, ok := l.elems[k.String()]; ok {
		return t
	}
	t := ast.NewTerm(lazyOf(v.Value, l.wholes))
	l.elems[k.String()] = t
	return t
}

func (l *testLazy) Object() bool { _, ok := l.v.(ast.Object); return ok }

func (l *testLazy) Get(key *ast.Term) *ast.Term {
	if v := dot(ast.NewTerm(l.v), key, false); v != nil {
		return l.elem(key, v)
	}
	return nil
}

func (l *testLazy) Len() int { n, _ := length(ast.NewTerm(l.v)); return n }

func (l *testLazy) Index(i int) *ast.Term { return l.Get(ast.InternedTerm(i)) }

func (l *testLazy) Until(f func(k, v *ast.Term) bool) bool {
	if o, ok := l.v.(ast.Object); ok {
		return o.Until(func(k, v *ast.Term) bool { return f(k, l.elem(k, v)) })
	}
	for i := range l.Len() {
		if f(ast.InternedTerm(i), l.Index(i)) {
			return true
		}
	}
	return false
}

func (l *testLazy) Whole() *ast.Term { *l.wholes++; return ast.NewTerm(l.v) }

func (l *testLazy) Compare(o ast.Value) int           { return l.Whole().Value.Compare(o) }
func (l *testLazy) Find(p ast.Ref) (ast.Value, error) { return l.Whole().Value.Find(p) }
func (l *testLazy) Hash() int                         { return l.Whole().Value.Hash() }
func (l *testLazy) IsGround() bool                    { return true }
func (l *testLazy) String() string                    { return l.Whole().Value.String() }
func (l *testLazy) StringLength() int                 { return l.Whole().Value.StringLength() }

// TestLazyInput: every statement gives the same result on a lazy input as
// on its whole value, and no result holds a Lazy. Reading (dot, scan,
// count, object.get with a key, object.keys, type checks, passing a value
// to a function) builds no whole value; handing one to a builtin, a
// comparison, a value being built or a result does.
func TestLazyInput(t *testing.T) {
	const module = `package p

dot := input.obj.inner.x

dot_array := input.list[1].name

scan_object := {k | some k, v in input.obj; k != "b"}

scan_array := [x.name | some x in input.list]

counts := [count(input.obj), count(input.list), count(input.obj.inner)]

gets := [object.get(input.obj, "a", "none"), object.get(input.obj, "nope", "none"), object.get(input.obj, ["inner", "x"], "none")]

keys := object.keys(input.obj)

types := [is_object(input.obj), is_array(input.list), is_object(input.list), is_array(input.obj), is_set(input.obj), is_string(input.obj), is_number(input.list), is_boolean(input.obj), is_null(input.list)]

compare_value if input.obj.inner != 0

kinds_differ := [input.obj == 1, input.obj == [], input.list == {}, input.obj == input.list, input.obj != "x"]

kinds := [input.obj == 1, input.obj == [], input.list == {}, input.obj == input.list, input.obj != "x", input.obj.inner == input.pairs[0]]

f(x) := x.inner.x

through_function := f(input.obj)

g(x) := count(x)

by_value := [g(input.list), g(input.list), g(input.obj)]

builtin := json.marshal(input.obj)

same_value if input.obj == input.same

differs if input.obj != input.list

in_array := [input.obj.inner, input.list]

in_set := {input.obj.inner, input.list[0]}

as_key := {input.obj.inner: 1}

as_result := input.obj.inner

member if input.obj.inner in input.pairs

with_path := x if {
	x := input.obj.inner.x with input.obj.inner.x as 9
}

missing := input.obj.nope.deeper

with_lazy_value := x if {
	x := json.marshal(input.obj) with input.obj.inner as input.list
}
`
	reading := map[string]bool{
		"p/dot": true, "p/dot_array": true, "p/scan_object": true, "p/scan_array": true, "p/counts": true,
		"p/keys": true, "p/types": true, "p/kinds_differ": true, "p/through_function": true, "p/by_value": true, "p/missing": true,
	}
	eps := []string{}
	for _, ep := range []string{
		"dot", "dot_array", "scan_object", "scan_array", "counts", "gets", "keys", "types", "through_function",
		"by_value", "builtin", "compare_value", "kinds", "kinds_differ", "same_value", "differs", "in_array", "in_set", "as_key", "as_result", "member", "with_path", "with_lazy_value", "missing",
	} {
		eps = append(eps, "p/"+ep)
	}
	prog := compileOf(t, module, Options{MemoByValue: map[string]bool{"data.p.g": true}}, eps...)
	input := ast.MustParseTerm(`{
		"obj": {"a": 1, "b": 0, "inner": {"x": 1.0, "y": [1, 2]}},
		"same": {"a": 1, "b": 0, "inner": {"x": 1, "y": [1, 2]}},
		"list": [{"name": "n0"}, {"name": "n1", "z": {}}],
		"pairs": [{"x": 1, "y": [1, 2]}]
	}`).Value
	for _, ep := range eps {
		t.Run(ep, func(t *testing.T) {
			want, err := prog.Eval(context.Background(), ep, input, ast.NewObject())
			if err != nil {
				t.Fatal(err)
			}
			wholes := 0
			got, err := prog.Eval(context.Background(), ep, lazyOf(input, &wholes), ast.NewObject())
			if err != nil {
				t.Fatal(err)
			}
			if text(got) != text(want) || (want != nil && got.Compare(want) != 0) {
				t.Errorf("lazy input: %v, whole input: %v", got, want)
			}
			if got != nil {
				ast.WalkTerms(ast.NewTerm(got), func(x *ast.Term) bool {
					if _, ok := x.Value.(Lazy); ok {
						t.Errorf("a Lazy in the result %v", got)
					}
					return false
				})
			}
			if reading[ep] && wholes > 0 {
				t.Errorf("%d whole values built to read the input", wholes)
			}
			if !reading[ep] && wholes == 0 && want != nil {
				t.Logf("no whole value built")
			}
		})
	}
}

// valueLazy is a Lazy that is no pointer: it has no address to be
// memoized by.
type valueLazy struct{ *testLazy }

// TestLazyNoPointerIsNotMemoized: a function kept by argument value
// (MemoByValue) called with a Lazy that is no pointer runs without the
// memo, with the whole input's results.
func TestLazyNoPointerIsNotMemoized(t *testing.T) {
	const module = `package p

g(x) := count(x)

by_value := [g(input), g(input)]
`
	prog := compileOf(t, module, Options{MemoByValue: map[string]bool{"data.p.g": true}}, "p/by_value")
	input := ast.MustParseTerm(`{"list": [1, 2, 3]}`).Value
	wholes := 0
	lazy := valueLazy{lazyOf(input, &wholes).(*testLazy)}
	got, err := prog.Eval(context.Background(), "p/by_value", lazy, ast.NewObject())
	if err != nil {
		t.Fatal(err)
	}
	if want := ast.MustParseTerm(`[1, 1]`).Value; got.Compare(want) != 0 {
		t.Errorf("got %v, want %v", got, want)
	}
}

// text is a value as the interpreter's results print it; "undefined" for
// none.
func text(v ast.Value) string {
	if v == nil {
		return "undefined"
	}
	return v.String()
}
