package policies

import (
	"strings"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/tester"
	"github.com/open-policy-agent/opa/v1/topdown"

	"github.com/kafkalint/kafkalint/loader"
	"github.com/kafkalint/kafkalint/policies/plan"
)

// planBuiltins are kafkalint.parse and kafkalint.parse_files for the VM.
// Their errors halt the evaluation, as the interpreter's tester raises
// builtin errors (RaiseBuiltinErrors), so a test that errs on one engine
// errs on the other.
func planBuiltins(p parser) map[string]topdown.BuiltinFunc {
	return map[string]topdown.BuiltinFunc{
		parseBuiltin.Name: func(bctx topdown.BuiltinContext, args []*ast.Term, iter func(*ast.Term) error) error {
			t, err := p.parse(bctx, args[0], args[1], args[2])
			if err != nil {
				return topdown.Halt{Err: err}
			}
			return iter(t)
		},
		parseFilesBuiltin.Name: func(bctx topdown.BuiltinContext, args []*ast.Term, iter func(*ast.Term) error) error {
			t, err := p.parseFiles(bctx, args[0])
			if err != nil {
				return topdown.Halt{Err: err}
			}
			return iter(t)
		},
	}
}

// outcome is a Rego test's: pass (true), fail (undefined or not true), or
// an error.
type outcome string

const (
	pass    outcome = "pass"
	fail    outcome = "fail"
	errored outcome = "error"
)

// TestPlanRegoTests runs every built-in rule's Rego unit tests on the VM
// (a plan with every test_ rule as an entrypoint) and requires each test's
// outcome to be the interpreter's (OPA's tester, as TestRego runs it).
func TestPlanRegoTests(t *testing.T) {
	mods, err := bundleModules(true)
	if err != nil {
		t.Fatal(err)
	}
	parsed, err := ParseModules(mods)
	if err != nil {
		t.Fatal(err)
	}
	// The tests by entrypoint ("a/b/test_x") and by the tester's name
	// (data.a.b.test_x).
	var eps []string
	byName := map[string]string{}
	for _, m := range mods {
		if !strings.HasSuffix(m.Path, "_test.rego") {
			continue
		}
		mod := parsed[m.Path]
		var segs []string
		for _, s := range mod.Package.Path[1:] {
			segs = append(segs, string(s.Value.(ast.String)))
		}
		for _, r := range mod.Rules {
			name := r.Head.Ref().String()
			if !strings.HasPrefix(name, "test_") {
				continue
			}
			key := mod.Package.Path.String() + "." + name
			if _, dup := byName[key]; dup {
				continue // one rule, several definitions
			}
			ep := strings.Join(append(segs[:len(segs):len(segs)], name), "/")
			byName[key] = ep
			eps = append(eps, ep)
		}
	}
	pol, err := planModules(mods, eps)
	if err != nil {
		t.Fatal(err)
	}
	e, err := Builtin()
	if err != nil {
		t.Fatal(err)
	}
	p := parser{opts: func() loader.Options { return loader.Options{DefaultKeys: e.DefaultKeys()} }}
	builtins := planBuiltins(p)
	for name, f := range unlimited { // as the engine compiles the rules
		builtins[name] = f
	}
	prog, err := plan.Compile(pol, plan.Options{Builtins: builtins})
	if err != nil {
		t.Fatal(err)
	}

	// The interpreter's outcomes.
	c, err := NewCompiler()
	if err != nil {
		t.Fatal(err)
	}
	store, err := defaultStore()
	if err != nil {
		t.Fatal(err)
	}
	ch, err := tester.NewRunner().SetCompiler(c).SetStore(store).SetModules(parsed).
		AddCustomBuiltins(p.testerBuiltins()).RaiseBuiltinErrors(true).RunTests(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]outcome{}
	for r := range ch {
		o := pass
		switch {
		case r.Error != nil:
			o = errored
		case r.Fail:
			o = fail
		}
		want[r.Package+"."+r.Name] = o
	}

	data := paramsValue(t)
	counts := map[outcome]int{}
	for key, ep := range byName {
		w, ok := want[key]
		if !ok {
			t.Errorf("%s: the tester did not run it", key)
			continue
		}
		v, err := prog.Eval(t.Context(), ep, nil, data)
		got := fail
		switch {
		case err != nil:
			got = errored
		case v != nil && v.Compare(ast.Boolean(true)) == 0:
			got = pass
		}
		counts[got]++
		if got != w {
			t.Errorf("%s: VM %s (%v, %v), interpreter %s", key, got, v, err, w)
		}
	}
	if len(want) != len(byName) {
		t.Errorf("the tester ran %d tests, the plan has %d", len(want), len(byName))
	}
	if counts[pass] == 0 {
		t.Fatal("no test passed: nothing was compared")
	}
	t.Logf("%d Rego tests on the VM: %v", len(byName), counts)
}
