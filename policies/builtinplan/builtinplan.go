// Package builtinplan holds the built-in rules planned ahead of time: the
// OPA IR plan of every rule's report set and the rules' METADATA, written
// as Go values by `go generate ./policies` (policies/internal/genplan) into
// plan_gen.go. The Go compiler lays both out as static data, so the
// built-in engine starts without parsing, compiling or decoding anything.
package builtinplan

import (
	"sync"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/ir"
)

// Rule is one rule's METADATA, as policies.Rule holds it (a built-in
// rule has no source file and no help page of its own).
type Rule struct {
	ID, Slug, Category, Title, Description, Severity, Scope string
	AppliesTo, Keys                                         []string
	Since, Fix, DocsURL, Engine, Path                       string
}

// Rules are the built-in rules' metadata, sorted by id; nil when built
// for the generator (the kafkalint_genplan tag), which reads METADATA
// from the Rego itself.
func Rules() []Rule { return rules }

// Policy is the plan of the built-in rules, one plan per Rego rule's
// report set ("kafkalint/rules/<category>/<slug>/report"); nil when built
// for the generator.
//
// The builtins' declarations (ir.BuiltinFunc.Decl, types.Function, whose
// fields are unexported and so have no Go literal) are OPA's own: they
// are filled from ast.BuiltinMap on the first call; the generator's test
// checks they are what the planner wrote.
func Policy() *ir.Policy {
	fillDecls.Do(func() {
		if policy == nil || policy.Static == nil {
			return
		}
		for _, b := range policy.Static.BuiltinFuncs {
			if ob := ast.BuiltinMap[b.Name]; ob != nil {
				b.Decl = ob.Decl
			}
		}
	})
	return policy
}

var fillDecls sync.Once
