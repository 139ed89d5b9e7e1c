package policies

import (
	"testing"

	"github.com/open-policy-agent/opa/v1/tester"

	"github.com/kafkalint/kafkalint/loader"
)

// TestRego runs every _test.rego in the bundle with OPA's tester, compiled
// exactly as the engine compiles the rules.
func TestRego(t *testing.T) {
	mods, err := bundleModules(true)
	if err != nil {
		t.Fatal(err)
	}
	parsed, err := ParseModules(mods)
	if err != nil {
		t.Fatal(err)
	}
	c, err := NewCompiler()
	if err != nil {
		t.Fatal(err)
	}
	store, err := defaultStore() // the parameters rules read (data.kafkalint.params)
	if err != nil {
		t.Fatal(err)
	}
	// kafkalint.parse loads with the built-in rules' default keys, as lint does.
	e, err := Builtin()
	if err != nil {
		t.Fatal(err)
	}
	p := parser{opts: func() loader.Options { return loader.Options{DefaultKeys: e.DefaultKeys()} }}
	ch, err := tester.NewRunner().SetCompiler(c).SetStore(store).SetModules(parsed).
		AddCustomBuiltins(p.testerBuiltins()).RaiseBuiltinErrors(true).RunTests(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for r := range ch {
		n++
		switch {
		case r.Error != nil:
			t.Errorf("%s: %s: error: %v", r.Location, r.Name, r.Error)
		case r.Fail:
			t.Errorf("%s: %s: failed", r.Location, r.Name)
		case r.Skip:
			t.Errorf("%s: %s: skipped (todo_ tests are not allowed)", r.Location, r.Name)
		}
	}
	if n == 0 {
		t.Fatal("no Rego tests ran")
	}
	t.Logf("%d Rego tests", n)
}
