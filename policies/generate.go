package policies

// The built-in rules' plan and metadata (builtinplan/plan_gen.go) are
// generated from the Rego: run `go generate ./policies` after editing a
// rule. TestGeneratedPlan (internal/genplan) fails while the file is stale.
//go:generate go run -tags kafkalint_genplan ./internal/genplan -o builtinplan/plan_gen.go
