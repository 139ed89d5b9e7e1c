package terraform

import (
	"testing"

	"github.com/zclconf/go-cty/cty"
)

// TestEvaluation checks Terraform's semantics for the functions and
// lookups the loader evaluates, through locals of a module.
func TestEvaluation(t *testing.T) {
	src := `
variable "declared" {
  type    = number
  default = 1
}
variable "from_tfvars" {
  type    = number
  default = 1
}
variable "from_auto" {
  default = "default"
}
variable "typed" {
  type = object({ a = string, b = optional(number, 7) })
  default = { a = "x" }
}
variable "no_value" {}

locals {
  length_string  = length("héllo")
  length_list    = length([1, 2, 3])
  lookup_two     = lookup({ a = "1" }, "a")
  lookup_missing = lookup({ a = "1" }, "b")
  lookup_default = lookup({ a = "1" }, "b", "d")
  replace_plain  = replace("a.b.c", ".", "-")
  replace_regex  = replace("a1b22c", "/[0-9]+/", "#")
  one_of_one     = one(["x"])
  sum            = sum([1, 2, 3.5])
  merged         = merge({ a = 1, b = 2 }, { b = 3 })
  joined         = join(",", [for k, v in { b = 2, a = 1 } : "${k}=${v}"])
  formatted      = format("%s = %d", "k", 3)
  upper_lower    = "${upper("a")}${lower("B")}"
  trimmed        = trimspace("  x \n")
  json           = jsonencode({ b = [1, true], a = "s" })
  number         = tonumber("12")
  string         = tostring(12)
  conditional    = var.declared > 0 ? "yes" : "no"
  tfvars         = var.from_tfvars
  auto           = var.from_auto
  optional       = var.typed.b
  unknown_var    = var.no_value
  undeclared     = var.nope
  data           = data.aws_region.current.name
  unknown_func   = cidrsubnet("10.0.0.0/16", 8, 1)
  partly_unknown = { known = 1, unknown = timestamp() }
  cycle_a        = local.cycle_b
  cycle_b        = local.cycle_a
  strrev         = strrev("abc")
  starts         = startswith("kafka", "ka")
}
`
	m := parse([]File{
		{Name: "main.tf", Data: []byte(src)},
		{Name: "terraform.tfvars", Data: []byte("from_tfvars = 2\nfrom_auto = \"tfvars\"\n")},
		{Name: "b.auto.tfvars", Data: []byte("from_auto = \"b\"\n")},
		{Name: "a.auto.tfvars", Data: []byte("from_auto = \"a\"\n")},
		{Name: "other.tfvars", Data: []byte("from_tfvars = 9\n")},
	}, Options{})
	if len(m.errors) > 0 {
		t.Fatalf("errors: %+v", m.errors)
	}
	m.setup()
	want := map[string]cty.Value{
		"length_string":  cty.NumberIntVal(5),
		"length_list":    cty.NumberIntVal(3),
		"lookup_two":     cty.StringVal("1"),
		"lookup_missing": cty.DynamicVal,
		"lookup_default": cty.StringVal("d"),
		"replace_plain":  cty.StringVal("a-b-c"),
		"replace_regex":  cty.StringVal("a#b#c"),
		"one_of_one":     cty.StringVal("x"),
		"sum":            cty.NumberFloatVal(6.5),
		"merged":         cty.ObjectVal(map[string]cty.Value{"a": cty.NumberIntVal(1), "b": cty.NumberIntVal(3)}),
		"joined":         cty.StringVal("a=1,b=2"),
		"formatted":      cty.StringVal("k = 3"),
		"upper_lower":    cty.StringVal("Ab"),
		"trimmed":        cty.StringVal("x"),
		"json":           cty.StringVal(`{"a":"s","b":[1,true]}`),
		"number":         cty.NumberIntVal(12),
		"string":         cty.StringVal("12"),
		"conditional":    cty.StringVal("yes"),
		"tfvars":         cty.NumberIntVal(2),
		"auto":           cty.StringVal("b"), // *.auto.tfvars in lexical order, after terraform.tfvars
		"optional":       cty.NumberIntVal(7),
		"strrev":         cty.StringVal("cba"),
		"starts":         cty.True,
	}
	for name, w := range want {
		got, _ := m.localValue(m.locals[name][0]).UnmarkDeep()
		if w == cty.DynamicVal {
			if got.IsKnown() {
				t.Errorf("local.%s = %#v, want unknown", name, got)
			}
			continue
		}
		if !got.IsWhollyKnown() || got.Equals(w).False() {
			t.Errorf("local.%s = %#v, want %#v", name, got, w)
		}
	}
	for _, name := range []string{"unknown_var", "undeclared", "data", "unknown_func", "cycle_a", "cycle_b"} {
		if got, _ := m.localValue(m.locals[name][0]).UnmarkDeep(); got.IsKnown() {
			t.Errorf("local.%s = %#v, want unknown", name, got)
		}
	}
	partly, _ := m.localValue(m.locals["partly_unknown"][0]).UnmarkDeep()
	if !partly.IsKnown() || !partly.GetAttr("known").RawEquals(cty.NumberIntVal(1)) || partly.GetAttr("unknown").IsKnown() {
		t.Errorf("local.partly_unknown = %#v, want a known object with one unknown attribute", partly)
	}
}
