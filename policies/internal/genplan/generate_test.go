package main

import (
	"bytes"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/ir"
	"github.com/open-policy-agent/opa/v1/types"

	"github.com/kafkalint/kafkalint/policies"
	"github.com/kafkalint/kafkalint/policies/builtinplan"
)

const genFile = "../../builtinplan/plan_gen.go"

// TestGeneratedPlan regenerates builtinplan/plan_gen.go in memory and
// fails while the checked-in file differs (a rule edited without `go
// generate ./policies`), then holds the compiled-in values to a fresh
// plan: the literal printer must lose nothing.
func TestGeneratedPlan(t *testing.T) {
	fresh, rules, err := planBuiltin()
	if err != nil {
		t.Fatal(err)
	}
	want, err := render(fresh, rules)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(genFile)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("policies/builtinplan/plan_gen.go is stale: run go generate ./policies (%d bytes checked in, %d generated)", len(got), len(want))
	}

	if !reflect.DeepEqual(builtinplan.Rules(), rules) {
		t.Error("builtinplan.Rules() differs from the rules' METADATA")
	}
	compiled := builtinplan.Policy()
	// The builtins' declarations come from OPA (ast.BuiltinMap), not the
	// literal: they must be what the planner declared.
	if len(compiled.Static.BuiltinFuncs) != len(fresh.Static.BuiltinFuncs) {
		t.Fatalf("%d builtins, the planner declares %d", len(compiled.Static.BuiltinFuncs), len(fresh.Static.BuiltinFuncs))
	}
	for i, b := range fresh.Static.BuiltinFuncs {
		c := compiled.Static.BuiltinFuncs[i]
		// The planner's JSON drops the arguments' names and descriptions:
		// compare the types.
		if c.Name != b.Name || c.Decl == nil || types.Compare(c.Decl, b.Decl) != 0 {
			t.Errorf("builtin %d: %s %v, the planner declares %s %v", i, c.Name, c.Decl, b.Name, b.Decl)
		}
	}
	if !reflect.DeepEqual(withoutDecls(compiled), withoutDecls(fresh)) {
		t.Error("builtinplan.Policy() differs from a fresh plan of the built-in rules although plan_gen.go is not stale: the printer loses something")
	}
}

// withoutDecls is a shallow copy of p whose builtins have no declaration.
func withoutDecls(p *ir.Policy) *ir.Policy {
	cp := *p
	st := *p.Static
	st.BuiltinFuncs = nil
	for _, b := range p.Static.BuiltinFuncs {
		st.BuiltinFuncs = append(st.BuiltinFuncs, &ir.BuiltinFunc{Name: b.Name})
	}
	cp.Static = &st
	return &cp
}

// TestPrinterRoundTrip: the printer's output of values of every kind it
// handles is the Go literal that builds them (checked on a few by hand),
// and it refuses what it cannot print.
func TestPrinterRoundTrip(t *testing.T) {
	var buf bytes.Buffer
	blk := &ir.Block{Stmts: []ir.Stmt{
		&ir.CallStmt{Func: "f", Args: []ir.Operand{{Value: ir.Local(3)}, {Value: ir.StringIndex(1)}, {Value: ir.Bool(true)}}, Result: 4},
		&ir.MakeArrayStmt{Target: 0},
	}}
	if err := newPrinter(&buf).value(blk); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`&ir.CallStmt{Func: "f", Args: []ir.Operand{{Value: ir.Local(3)}, {Value: ir.StringIndex(1)}, {Value: ir.Bool(true)}}, Result: 4}`,
		`&ir.MakeArrayStmt{}`, // all zero
	} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("printed\n%s\nwant it to hold %s", buf.String(), want)
		}
	}
	// Decoding the planner's JSON gives pointers, which a static literal
	// cannot hold: the printer refuses them, normalize makes them values.
	ptr := ir.Local(2)
	op := &ir.Block{Stmts: []ir.Stmt{&ir.AssignVarStmt{Source: ir.Operand{Value: &ptr}, Target: 5}}}
	if err := newPrinter(&bytes.Buffer{}).value(op); err == nil {
		t.Error("a pointer operand printed")
	}
	p := &ir.Policy{Plans: &ir.Plans{Plans: []*ir.Plan{{Name: "p", Blocks: []*ir.Block{op}}}}}
	normalize(p)
	if v := op.Stmts[0].(*ir.AssignVarStmt).Source.Value; v != ir.Local(2) {
		t.Errorf("normalized operand %#v, want ir.Local(2)", v)
	}
	if err := newPrinter(&bytes.Buffer{}).value(map[string]int{"a": 1}); err == nil {
		t.Error("a map printed")
	}
}

// TestRejectionNamesTheRule: what the planner, the compiler or the runtime
// rejects fails the generator with an error naming the rule.
func TestRejectionNamesTheRule(t *testing.T) {
	cases := []struct{ name, body, want string }{
		{"runtime", `report contains x if { x := kafkalint.parse(",", ["a"]) }`, "rule KFK9998"},
		{"compiler", `report contains x if { x := no_such_function(1) }`, "rule KFK9998 (policies/bad.rego:"},
		// Rules whose refs differ past a variable are planned as one
		// function, which a reference back into it cannot be planned in.
		{"planner", "a[x] := 1 if { some x in [\"p\"] }\na.q := 2 if { a.p == 1 }\nreport contains v if { v := a.q }", "rule KFK9998 (kafkalint/rules/hygiene/bad/report)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := &policies.PlanSource{
				Modules: []policies.Module{
					{Path: "policies/good.rego", Text: "package kafkalint.rules.hygiene[\"good\"]\nreport contains 1 if { input.x }\n"},
					{Path: "policies/bad.rego", Text: "package kafkalint.rules.hygiene[\"bad\"]\n" + c.body + "\n"},
				},
				Capabilities: ast.CapabilitiesForThisVersion(),
				Rules: []*policies.Rule{
					{ID: "KFK9997", Category: "hygiene", Slug: "good", Path: `data.kafkalint.rules.hygiene["good"]`},
					{ID: "KFK9998", Category: "hygiene", Slug: "bad", Path: `data.kafkalint.rules.hygiene["bad"]`},
				},
			}
			if c.name == "runtime" {
				src.Capabilities.Builtins = append(src.Capabilities.Builtins, &ast.Builtin{Name: "kafkalint.parse", Decl: ast.BuiltinMap["concat"].Decl})
			}
			_, _, err := planFrom(src)
			if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "KFK9997") {
				t.Fatalf("error %v, want one naming %q and not the good rule", err, c.want)
			}
		})
	}
}
