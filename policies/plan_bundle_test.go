package policies

import (
	"bytes"
	"context"
	"encoding/json"
	"sync"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/bundle"
	"github.com/open-policy-agent/opa/v1/compile"
	"github.com/open-policy-agent/opa/v1/ir"
)

// planModules plans modules with OPA's compile API (the plan target, the
// project's capabilities) for the given entrypoints ("a/b/c" paths).
func planModules(mods []Module, eps []string) (*ir.Policy, error) {
	parsed, err := ParseModules(mods)
	if err != nil {
		return nil, err
	}
	b := &bundle.Bundle{Data: map[string]any{}}
	for _, m := range mods {
		b.Modules = append(b.Modules, bundle.ModuleFile{Path: m.Path, URL: m.Path, Raw: []byte(m.Text), Parsed: parsed[m.Path]})
	}
	var buf bytes.Buffer
	c := compile.New().WithTarget(compile.TargetPlan).WithBundle(b).WithEntrypoints(eps...).
		WithRegoVersion(ast.RegoV1).WithCapabilities(capabilities()).WithOutput(&buf)
	if err := c.Build(context.Background()); err != nil {
		return nil, err
	}
	var p ir.Policy
	if err := json.Unmarshal(c.Bundle().PlanModules[0].Raw, &p); err != nil {
		return nil, err
	}
	return &p, nil
}

// ruleEntrypoints are the report entrypoints of every built-in Rego rule.
func ruleEntrypoints(t testing.TB) []string {
	t.Helper()
	e, err := Builtin()
	if err != nil {
		t.Fatal(err)
	}
	var eps []string
	for _, r := range e.Rules() {
		if r.Engine == "" {
			eps = append(eps, "kafkalint/rules/"+r.Category+"/"+r.Slug+"/report")
		}
	}
	return eps
}

var rulesPlanOnce struct {
	sync.Once
	p   *ir.Policy
	err error
}

// rulesPlan is the plan of the built-in rules' report entrypoints.
func rulesPlan(t testing.TB) *ir.Policy {
	t.Helper()
	eps := ruleEntrypoints(t)
	rulesPlanOnce.Do(func() {
		mods, err := bundleModules(false)
		if err != nil {
			rulesPlanOnce.err = err
			return
		}
		rulesPlanOnce.p, rulesPlanOnce.err = planModules(mods, eps)
	})
	if rulesPlanOnce.err != nil {
		t.Fatal(rulesPlanOnce.err)
	}
	return rulesPlanOnce.p
}
