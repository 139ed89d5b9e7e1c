package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"go/format"
	"reflect"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/bundle"
	"github.com/open-policy-agent/opa/v1/compile"
	"github.com/open-policy-agent/opa/v1/ir"

	"github.com/kafkalint/kafkalint/policies"
	"github.com/kafkalint/kafkalint/policies/builtinplan"
	"github.com/kafkalint/kafkalint/policies/plan"
)

// entrypoint is the plan name of a rule's report set.
func entrypoint(r *policies.Rule) string {
	return "kafkalint/rules/" + r.Category + "/" + r.Slug + "/report"
}

// generate returns the source of builtinplan/plan_gen.go.
func generate() ([]byte, error) {
	p, rules, err := planBuiltin()
	if err != nil {
		return nil, err
	}
	return render(p, rules)
}

// planBuiltin plans the built-in Rego rules and returns the plan (as the
// planner wrote it) and the rules' metadata.
func planBuiltin() (*ir.Policy, []builtinplan.Rule, error) {
	src, err := policies.BuiltinPlanSource()
	if err != nil {
		return nil, nil, err
	}
	return planFrom(src)
}

// planFrom plans src's rules and checks the runtime accepts the plan.
func planFrom(src *policies.PlanSource) (*ir.Policy, []builtinplan.Rule, error) {
	var eps []string
	var regoRules []*policies.Rule
	var rules []builtinplan.Rule
	for _, r := range src.Rules {
		if r.Source != "" {
			return nil, nil, fmt.Errorf("rule %s: not a built-in rule (%s)", r.ID, r.Source)
		}
		rules = append(rules, builtinplan.Rule{
			ID: r.ID, Slug: r.Slug, Category: r.Category, Title: r.Title, Description: r.Description,
			Severity: r.Severity, Scope: r.Scope, AppliesTo: r.AppliesTo, Keys: r.Keys, Since: r.Since,
			Fix: r.Fix, DocsURL: r.DocsURL, Engine: r.Engine, Path: r.Path,
		})
		if r.Engine == "" { // a rule computed in Go has no report set
			eps = append(eps, entrypoint(r))
			regoRules = append(regoRules, r)
		}
	}
	p, err := planModules(src, eps)
	if err != nil {
		if named := compileErrors(err, src, regoRules); named != nil {
			return nil, nil, named
		}
		// The planner's errors name no location: plan each rule alone.
		var bad []string
		for i, ep := range eps {
			if _, err1 := planModules(src, []string{ep}); err1 != nil {
				bad = append(bad, fmt.Sprintf("rule %s (%s): %v", regoRules[i].ID, ep, err1))
			}
		}
		if len(bad) > 0 {
			return nil, nil, errors.New("the planner rejects " + strings.Join(bad, "; "))
		}
		return nil, nil, fmt.Errorf("plan the built-in rules: %w", err)
	}
	if _, err := plan.Compile(p, plan.Options{}); err != nil {
		return nil, nil, fmt.Errorf("the runtime (policies/plan) rejects the plan: %w%s", err, rulesNamed(err.Error(), regoRules))
	}
	return p, rules, nil
}

// compileErrors names the rule of each located error (OPA's compiler's,
// before planning) by the package of the file it is in; nil when err has
// no location.
func compileErrors(err error, src *policies.PlanSource, rules []*policies.Rule) error {
	var errs ast.Errors
	if !errors.As(err, &errs) || len(errs) == 0 {
		return nil
	}
	parsed, perr := policies.ParseModules(src.Modules)
	if perr != nil {
		return perr
	}
	var msgs []string
	for _, e := range errs {
		what := "the bundle"
		if e.Location != nil {
			what = e.Location.String()
			if m := parsed[e.Location.File]; m != nil {
				for _, r := range rules {
					if path, err := ast.ParseRef(r.Path); err == nil && path.Equal(m.Package.Path) {
						what = fmt.Sprintf("rule %s (%s)", r.ID, e.Location)
					}
				}
			}
		}
		msgs = append(msgs, what+": "+e.Message)
	}
	return errors.New("compile the built-in rules: " + strings.Join(msgs, "; "))
}

// rulesNamed says which rules a runtime error names, by their package path
// as the plan's function names spell it (g0.data.kafkalint.rules.<cat>.<slug>.…).
func rulesNamed(msg string, rules []*policies.Rule) string {
	var ids []string
	for _, r := range rules {
		for _, name := range []string{"kafkalint.rules." + r.Category + "." + r.Slug + ".", "kafkalint/rules/" + r.Category + "/" + r.Slug + "/", r.Path + "."} {
			if strings.Contains(msg, name) {
				ids = append(ids, r.ID)
				break
			}
		}
	}
	if len(ids) == 0 {
		return ""
	}
	return " (rule " + strings.Join(ids, ", ") + ")"
}

// planModules plans the modules for the entrypoints with OPA's compile
// API, as `opa build -t plan` would, with kafkalint's capabilities.
func planModules(src *policies.PlanSource, eps []string) (*ir.Policy, error) {
	parsed, err := policies.ParseModules(src.Modules)
	if err != nil {
		return nil, err
	}
	b := &bundle.Bundle{Data: map[string]any{}}
	for _, m := range src.Modules {
		b.Modules = append(b.Modules, bundle.ModuleFile{Path: m.Path, URL: m.Path, Raw: []byte(m.Text), Parsed: parsed[m.Path]})
	}
	var buf bytes.Buffer
	c := compile.New().WithTarget(compile.TargetPlan).WithBundle(b).WithEntrypoints(eps...).
		WithRegoVersion(ast.RegoV1).WithCapabilities(src.Capabilities).WithOutput(&buf)
	if err := c.Build(context.Background()); err != nil {
		return nil, err
	}
	mods := c.Bundle().PlanModules
	if len(mods) != 1 {
		return nil, fmt.Errorf("the planner wrote %d plan modules, want 1", len(mods))
	}
	var p ir.Policy
	if err := json.Unmarshal(mods[0].Raw, &p); err != nil {
		return nil, err
	}
	normalize(&p)
	return &p, nil
}

// render prints the plan and the rules as the Go file of package
// builtinplan. The builtins' declarations are left out (Policy fills them
// from OPA's own); everything else is printed as it is.
func render(p *ir.Policy, rules []builtinplan.Rule) ([]byte, error) {
	cp := *p
	if p.Static != nil {
		st := *p.Static
		st.BuiltinFuncs = nil
		for _, b := range p.Static.BuiltinFuncs {
			st.BuiltinFuncs = append(st.BuiltinFuncs, &ir.BuiltinFunc{Name: b.Name})
		}
		cp.Static = &st
	}
	var buf bytes.Buffer
	buf.WriteString(header)
	buf.WriteString("var rules = ")
	if err := newPrinter(&buf).value(rules); err != nil {
		return nil, fmt.Errorf("print rules: %w", err)
	}
	buf.WriteString("\n\nvar policy = ")
	if err := newPrinter(&buf).value(&cp); err != nil {
		return nil, fmt.Errorf("print plan: %w", err)
	}
	buf.WriteString("\n")
	out, err := format.Source(buf.Bytes())
	if err != nil {
		return nil, fmt.Errorf("format: %w", err)
	}
	return out, nil
}

const header = `// Code generated by policies/internal/genplan (go generate ./policies); DO NOT EDIT.

//go:build !kafkalint_genplan

package builtinplan

import "github.com/open-policy-agent/opa/v1/ir"

`

// valType is the type of an operand's value.
var valType = reflect.TypeFor[ir.Val]()

// normalize makes every operand's value a value (ir.Local(3)) rather than
// a pointer to one: decoding the planner's JSON gives pointers
// (ir.valFactories), the planner itself makes values, and a Go literal can
// hold only values statically. The runtime takes both.
func normalize(p *ir.Policy) {
	normalizeValue(reflect.ValueOf(p))
}

func normalizeValue(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			if v.Kind() == reflect.Interface && v.Type() == valType && v.Elem().Kind() == reflect.Pointer && v.CanSet() {
				v.Set(v.Elem().Elem())
				return
			}
			normalizeValue(v.Elem())
		}
	case reflect.Slice:
		for i := range v.Len() {
			normalizeValue(v.Index(i))
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				normalizeValue(v.Field(i))
			}
		}
	}
}
