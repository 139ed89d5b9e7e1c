//go:build kafkalint_genplan

package builtinplan

import "github.com/open-policy-agent/opa/v1/ir"

// The generator (policies/internal/genplan) is built with the
// kafkalint_genplan tag, without plan_gen.go: it never depends on the
// file it rewrites, which may be stale or, after an OPA upgrade, not
// compile.
var (
	rules  []Rule
	policy *ir.Policy
)
