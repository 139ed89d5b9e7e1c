package policies

import (
	"context"
	"encoding/json"
	"math"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"

	"github.com/kafkalint/kafkalint/bench/gen"
	"github.com/kafkalint/kafkalint/internal/testcorpus"
	"github.com/kafkalint/kafkalint/loader"
	"github.com/kafkalint/kafkalint/report"
)

// sameValue fails the test when toValue(x) differs from
// ast.InterfaceToValue(x), the JSON round trip it replaces.
func sameValue(t *testing.T, name string, x any) {
	t.Helper()
	want, wantErr := ast.InterfaceToValue(x)
	got, err := toValue(x)
	if (err != nil) != (wantErr != nil) {
		t.Errorf("%s: error %v, InterfaceToValue's %v", name, err, wantErr)
		return
	}
	if err != nil {
		return
	}
	if got.Compare(want) != 0 {
		t.Errorf("%s: converted value differs from ast.InterfaceToValue's (-want +got):\n%s", name, cmp.Diff(indented(t, want), indented(t, got)))
	}
}

// indented renders a value as indented JSON, for a line-by-line diff.
func indented(t *testing.T, v ast.Value) string {
	t.Helper()
	x, err := ast.JSON(v)
	if err != nil {
		return v.String()
	}
	b, err := json.MarshalIndent(x, "", "  ")
	if err != nil {
		return v.String()
	}
	return string(b)
}

func repoRoot() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..")
}

// corpusOrSkip is the real-world corpus beside the repository (testcorpus).
func corpusOrSkip(t testing.TB) string {
	t.Helper()
	return testcorpus.Dir(t)
}

func loadClusters(t testing.TB, dir string) []*loader.Cluster {
	t.Helper()
	engine, err := Builtin()
	if err != nil {
		t.Fatal(err)
	}
	res, err := loader.Load([]string{dir}, loader.Options{Dir: dir, DefaultKeys: engine.DefaultKeys()})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Clusters) == 0 {
		t.Fatalf("no cluster loaded from %s", dir)
	}
	return res.Clusters
}

// TestInputMatchesInterfaceToValue: for every cluster of examples/, the
// real-world corpus and a generated bulk tree, the input the engine builds
// equals the one ast.InterfaceToValue built through JSON.
func TestInputMatchesInterfaceToValue(t *testing.T) {
	if testing.Short() {
		t.Skip("equivalence oracle over the whole corpus (seconds): not in the -short tier")
	}
	dirs := []string{filepath.Join(repoRoot(), "examples")}
	corpus := corpusOrSkip(t)
	tree := t.TempDir()
	if _, err := gen.Write(tree, gen.Options{Repos: 40, Files: 10, Seed: 3, Corpus: corpus}); err != nil {
		t.Fatal(err)
	}
	dirs = append(dirs, corpus, tree)
	for _, dir := range dirs {
		n := 0
		for _, c := range loadClusters(t, dir) {
			sameValue(t, c.Name, c)
			n++
		}
		t.Logf("%s: %d clusters", dir, n)
	}
}

// TestEvaluateMatchesWholeTreeQuery: the engine's query (the report sets
// only, decoded directly) finds exactly what the query of the whole
// data.kafkalint.rules tree, converted through JSON, found: the same
// findings for every cluster of examples/, the corpus and a generated
// tree, and an error for the same clusters.
func TestEvaluateMatchesWholeTreeQuery(t *testing.T) {
	if testing.Short() {
		t.Skip("equivalence oracle over the whole corpus (seconds): not in the -short tier")
	}
	engine, err := builtinInterpreter()
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	whole, err := engine.prepare(ctx, "data.kafkalint.rules")
	if err != nil {
		t.Fatal(err)
	}
	corpus := corpusOrSkip(t)
	tree := t.TempDir()
	if _, err := gen.Write(tree, gen.Options{Repos: 40, Files: 10, Seed: 5, Corpus: corpus}); err != nil {
		t.Fatal(err)
	}
	findings := 0
	for _, dir := range []string{filepath.Join(repoRoot(), "examples"), corpus, tree} {
		for _, cl := range loadClusters(t, dir) {
			want, wantErr := wholeTreeFindings(ctx, whole, cl)
			in, err := toValue(cl)
			if err != nil {
				t.Fatal(err)
			}
			var got []reported
			rs, gotErr := engine.query.Eval(ctx, rego.EvalParsedInput(in), rego.EvalGenerateJSON(keepAST))
			if gotErr == nil {
				got, gotErr = decodeReports(rs)
			}
			if (gotErr != nil) != (wantErr != nil) {
				t.Errorf("%s: error %v, whole-tree query's %v", cl.Name, gotErr, wantErr)
				continue
			}
			sameReported(t, cl.Name+" (-whole tree +reports)", want, got)
			findings += len(got)
		}
	}
	if findings == 0 {
		t.Fatal("no finding at all: nothing was compared")
	}
}

// sameReported fails the test when two sets of reports differ, whatever
// their order; what names them in the message.
func sameReported(t *testing.T, what string, want, got []reported) {
	t.Helper()
	sortReported(want)
	sortReported(got)
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(reported{}), cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("%s: findings differ:\n%s", what, diff)
	}
}

// wholeTreeFindings is how Evaluate read results before: the whole rule
// tree, converted with ast.InterfaceToValue and decoded through JSON.
func wholeTreeFindings(ctx context.Context, q rego.PreparedEvalQuery, c *loader.Cluster) ([]reported, error) {
	input, err := ast.InterfaceToValue(c)
	if err != nil {
		return nil, err
	}
	rs, err := q.Eval(ctx, rego.EvalParsedInput(input))
	if err != nil || len(rs) == 0 {
		return nil, err
	}
	var byCategory map[string]map[string]struct {
		Report []rawFinding `json:"report"`
	}
	if err := convert(rs[0].Expressions[0].Value, &byCategory); err != nil {
		return nil, err
	}
	var out []reported
	for cat, slugs := range byCategory {
		for slug, pkg := range slugs {
			for _, f := range pkg.Report {
				out = append(out, reported{category: cat, slug: slug, finding: f})
			}
		}
	}
	return out, nil
}

func sortReported(rs []reported) {
	slices.SortFunc(rs, func(a, b reported) int {
		x, _ := json.Marshal([]any{a.category, a.slug, a.finding})
		y, _ := json.Marshal([]any{b.category, b.slug, b.finding})
		return strings.Compare(string(x), string(y))
	})
}

// TestDecodeReportsRejectsOtherShapes: a result that is not what
// lib/result.rego builds is an error, never a finding with zero fields.
func TestDecodeReportsRejectsOtherShapes(t *testing.T) {
	for name, v := range map[string]any{
		"not an array":       map[string]any{},
		"not a triple":       []any{[]any{"durability", "x"}},
		"message not string": []any{[]any{"durability", "x", map[string]any{"message": json.Number("1")}}},
		"line not number":    []any{[]any{"durability", "x", map[string]any{"location": map[string]any{"line": "3"}}}},
		"related not array":  []any{[]any{"durability", "x", map[string]any{"related": "a"}}},
	} {
		// The query's result as keepAST leaves it: an ast term.
		rs := rego.ResultSet{{Expressions: []*rego.ExpressionValue{{Value: ast.NewTerm(ast.MustInterfaceToValue(v))}}}}
		if got, err := decodeReports(rs); err == nil {
			t.Errorf("%s: decoded %+v, want an error", name, got)
		}
	}
	ok := []any{[]any{"kraft", "s", map[string]any{
		"message": "m", "key": "k",
		"location": map[string]any{"file": "a.properties", "line": json.Number("3"), "column": json.Number("1")},
		"related":  []any{map[string]any{"file": "b.properties", "line": json.Number("7")}},
	}}}
	got, err := decodeReports(rego.ResultSet{{Expressions: []*rego.ExpressionValue{{Value: ast.NewTerm(ast.MustInterfaceToValue(ok))}}}})
	if err != nil {
		t.Fatal(err)
	}
	want := []reported{{category: "kraft", slug: "s", finding: rawFinding{
		Message: "m", Key: "k", Location: report.Location{File: "a.properties", Line: 3, Column: 1},
		Related: []report.Location{{File: "b.properties", Line: 7}},
	}}}
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(reported{})); diff != "" {
		t.Errorf("decoded (-want +got):\n%s", diff)
	}
}

type marshalsItself struct{ n int }

func (m marshalsItself) MarshalJSON() ([]byte, error) { return json.Marshal(map[string]int{"n": m.n}) }

type marshalsByPointer struct{ s string }

func (m *marshalsByPointer) MarshalJSON() ([]byte, error) { return json.Marshal("ptr:" + m.s) }

type textKey struct{ a, b string }

func (k textKey) MarshalText() ([]byte, error) { return []byte(k.a + "/" + k.b), nil }

type Inner struct {
	Shared string `json:"shared"`
	Deep   int
	Hidden string `json:"-"`
}

type Named int

type Other struct {
	Shared string `json:"shared"`
	Mine   bool   `json:"mine"`
}

type sample struct {
	Inner                          // promoted fields
	*Other                         // promoted through a pointer; Shared conflicts at equal depth
	Named                          // embedded non-struct: a field named Named
	unexported string              // must not appear
	Plain      string              `json:"plain"`
	NoTag      string              // Go name
	Dash       string              `json:"-,"` //nolint:staticcheck // the name "-" is what is tested
	Skip       string              `json:"-"`
	Empty      string              `json:"empty,omitempty"`
	Zero       int                 `json:"zero,omitempty"`
	False      bool                `json:"false,omitempty"`
	NilPtr     *int                `json:"nil_ptr,omitempty"`
	NilSlice   []string            `json:"nil_slice"`
	EmptySlice []string            `json:"empty_slice"`
	OmitSlice  []string            `json:"omit_slice,omitempty"`
	NilMap     map[string]int      `json:"nil_map"`
	OmitZero   time.Time           `json:"omit_zero,omitzero"`
	When       time.Time           `json:"when"`
	Quoted     int                 `json:"quoted,string"`
	QuotedPtr  *bool               `json:"quoted_ptr,string"`
	Floats     []float64           `json:"floats"`
	Big        int64               `json:"big"`
	Unsigned   uint64              `json:"unsigned"`
	Bytes      []byte              `json:"bytes"`
	Number     json.Number         `json:"number"`
	Array      [3]int8             `json:"array"`
	IntKeys    map[int]string      `json:"int_keys"`
	TextKeys   map[textKey]int     `json:"text_keys"`
	Any        any                 `json:"any"`
	Anys       []any               `json:"anys"`
	Nested     map[string]any      `json:"nested"`
	Self       marshalsItself      `json:"self"`
	ByPtr      marshalsByPointer   `json:"by_ptr"`
	ByPtrs     []marshalsByPointer `json:"by_ptrs"`
	Ptrs       map[string]*Inner   `json:"ptrs"`
	BadTag     string              `json:"bad\"tag"` //nolint:staticcheck // an invalid tag name: json falls back to the Go name
}

// TestInputFollowsEncodingJSON covers encoding/json's rules that the
// model does not use today but a field added tomorrow might.
func TestInputFollowsEncodingJSON(t *testing.T) {
	yes, seven := true, 7
	s := &sample{
		Inner:      Inner{Shared: "inner", Deep: 2, Hidden: "x"},
		Other:      &Other{Shared: "other", Mine: true},
		Named:      5,
		unexported: "no",
		Plain:      "p", NoTag: "n", Dash: "d", Skip: "s",
		EmptySlice: []string{},
		When:       time.Date(2024, 2, 3, 4, 5, 6, 7, time.UTC),
		Quoted:     42, QuotedPtr: &yes,
		Floats: []float64{0, 0.1, 3, -2.5, 1e21, 1e-7, 123456789.125, math.MaxFloat64},
		Big:    math.MaxInt64, Unsigned: math.MaxUint64,
		Bytes:    []byte("hello"),
		Number:   "12.50",
		Array:    [3]int8{1, -2, 3},
		IntKeys:  map[int]string{10: "ten", -1: "minus", 2: "two"},
		TextKeys: map[textKey]int{{"a", "b"}: 1, {"c", "d"}: 2},
		Any:      &Inner{Shared: "via any"},
		Anys:     []any{nil, 1, "two", 3.5, []int{4}, map[string]any{"k": false}, &seven},
		Nested:   map[string]any{"z": map[string]any{"y": []any{"x"}}, "a": nil},
		Self:     marshalsItself{3},
		ByPtr:    marshalsByPointer{"field"},
		ByPtrs:   []marshalsByPointer{{"elem"}},
		Ptrs:     map[string]*Inner{"nil": nil, "set": {Deep: 9}},
		BadTag:   "b",
	}
	sameValue(t, "pointer to sample", s)
	sameValue(t, "sample value", *s)
	sameValue(t, "nil Other", &sample{})
	sameValue(t, "map of marshalers by pointer", map[string]marshalsByPointer{"v": {"map value"}})
	sameValue(t, "nil", nil)
	sameValue(t, "NaN", map[string]float64{"x": math.NaN()})
	sameValue(t, "strings", []string{"a", strings.Repeat("é", 3)})
	sameValue(t, "float32", []float32{0.1, 1e-7, 16777216})

	got, err := toValue(s)
	if err != nil {
		t.Fatal(err)
	}
	obj := got.(ast.Object)
	for _, absent := range []string{"unexported", "Skip", "Hidden", "empty", "zero", "false", "nil_ptr", "omit_slice", "omit_zero", "shared"} {
		if obj.Get(ast.StringTerm(absent)) != nil {
			t.Errorf("field %q is encoded; encoding/json leaves it out", absent)
		}
	}
	for _, present := range []string{"-", "NoTag", "Deep", "mine", "Named", "nil_slice", "BadTag"} {
		if obj.Get(ast.StringTerm(present)) == nil {
			t.Errorf("field %q is missing", present)
		}
	}
}

// prepare prepares another query over the engine's compiled rules and
// parameters.
func (e *Engine) prepare(ctx context.Context, query string) (rego.PreparedEvalQuery, error) {
	return rego.New(rego.Compiler(e.compiler), rego.Store(e.store), rego.Query(query)).PrepareForEval(ctx)
}

// TestInputSharesRepeatedKeyLists: the earlier occurrences of a repeated
// key are prefixes of one array in the model; converted, each is still
// the value InterfaceToValue gives, an Append to one of them leaves the
// others alone, and the terms are converted once (a key written k times
// costs k location terms, not k²/2).
func TestInputSharesRepeatedKeyLists(t *testing.T) {
	src := "process.roles=broker\nnode.id=1\n" + strings.Repeat("a=1\nb=2\n", loader.MaxKeyRepeats)
	res, err := loader.LoadSources([]loader.Source{{Name: "server.properties", Data: []byte(src)}}, loader.Options{})
	if err != nil || len(res.Clusters) != 1 {
		t.Fatalf("load: %v %+v", err, res)
	}
	c := res.Clusters[0]
	sameValue(t, "repeated keys", c)

	v, err := toValue(c)
	if err != nil {
		t.Fatal(err)
	}
	dups := v.(ast.Object).Get(ast.StringTerm("files")).Value.(*ast.Array).Elem(0).Value.(ast.Object).Get(ast.StringTerm("duplicates")).Value.(*ast.Array)
	if dups.Len() != 2*(loader.MaxKeyRepeats-1) {
		t.Fatalf("%d duplicates", dups.Len())
	}
	previous := func(i int) *ast.Array {
		return dups.Elem(i).Value.(ast.Object).Get(ast.StringTerm("previous")).Value.(*ast.Array)
	}
	// The model's lists of one key share an array until it grows (at a
	// capacity boundary, which depends on the size of a location): where
	// two share it, their converted terms must be shared too.
	model := c.Files[0].Duplicates
	var first, last *ast.Array
	for i := 2; i < len(model); i++ {
		if &model[i].Previous[0] != &model[i-2].Previous[0] { // i-2: the same key, one occurrence earlier
			continue
		}
		first, last = previous(i-2), previous(i)
		if first.Len() != last.Len()-1 || first.Elem(0) != last.Elem(0) {
			t.Errorf("previous lists of one key do not share their terms: %v / %v", first, last)
		}
	}
	if first == nil {
		t.Fatal("no two previous lists share an array in the model")
	}
	grown := first.Append(ast.StringTerm("x"))
	if grown.Len() != first.Len()+1 || last.Elem(first.Len()).Equal(ast.StringTerm("x")) {
		t.Errorf("Append on one previous list changed another: %v", last)
	}
}

// convert decodes a Rego result value into a Go type through JSON, as the
// engine did before it decoded the report sets directly.
func convert(v any, out any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, out)
}

// TestInputSharesEqualLocations: equal flat structs (a location written
// on one line and named by a setting, its listeners and its voters) are
// one term per conversion; different ones are not, and a struct holding a
// float is converted each time (0.0 == -0.0, but json writes them apart).
func TestInputSharesEqualLocations(t *testing.T) {
	type withFloat struct {
		F float64 `json:"f"`
	}
	type model struct {
		Locs   []loader.Location `json:"locs"`
		Floats []withFloat       `json:"floats"`
	}
	at := func(line int) loader.Location { return loader.Location{File: "a.properties", Line: line, Column: 1} }
	m := model{
		Locs:   []loader.Location{at(3), at(3), at(4), {File: "b.properties", Line: 3, Column: 1}},
		Floats: []withFloat{{0}, {math.Copysign(0, -1)}},
	}
	sameValue(t, "locations", m)
	v, err := toValue(m)
	if err != nil {
		t.Fatal(err)
	}
	locs := v.(ast.Object).Get(ast.StringTerm("locs")).Value.(*ast.Array)
	if locs.Elem(0) != locs.Elem(1) {
		t.Error("two equal locations are two terms")
	}
	if locs.Elem(0) == locs.Elem(2) || locs.Elem(0) == locs.Elem(3) {
		t.Error("different locations share a term")
	}
	floats := v.(ast.Object).Get(ast.StringTerm("floats")).Value.(*ast.Array)
	if floats.Elem(0) == floats.Elem(1) {
		t.Error("0.0 and -0.0 share a term")
	}
}
