package policies

import "github.com/open-policy-agent/opa/v1/ast"

// PlanSource is what the plan generator (policies/internal/genplan) plans
// ahead of time: the built-in rules and libraries (no tests), the
// capabilities every policy is compiled with, and the rules' METADATA read
// by compiling that Rego, as the interpreter's engine does.
type PlanSource struct {
	Modules      []Module
	Capabilities *ast.Capabilities
	Rules        []*Rule
}

// BuiltinPlanSource compiles the built-in Rego (the interpreter's engine)
// and returns what the generator plans. It is for the generator and its
// staleness test; the engine itself never calls it.
func BuiltinPlanSource() (*PlanSource, error) {
	mods, err := bundleModules(false)
	if err != nil {
		return nil, err
	}
	e, err := builtinInterpreter()
	if err != nil {
		return nil, err
	}
	return &PlanSource{Modules: mods, Capabilities: capabilities(), Rules: e.rules}, nil
}
