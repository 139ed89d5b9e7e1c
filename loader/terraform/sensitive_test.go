package terraform

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/kafkalint/kafkalint/loader/doc"
)

// TestSensitiveVariables follows a variable declared sensitive = true
// through the evaluator: every value derived from it (locals, template
// interpolation, functions, for-expressions, maps, templatefile,
// jsonencode/jsondecode, conditionals, tfvars) comes out Sensitive, and
// values of a variable that is not sensitive do not.
func TestSensitiveVariables(t *testing.T) {
	src := `
variable "secret" {
  type      = string
  sensitive = true
  default   = "s3cr3t"
}
variable "secret_map" {
  sensitive = true
  default   = { "ssl.key.password" = "m4p" }
}
variable "plain" {
  default = "open"
}
locals {
  upper    = upper(var.secret)
  joined   = join(",", [var.secret, "x"])
  chosen   = var.plain == "open" ? var.secret : "no"
  props    = { "sasl.jaas.config" = format("password=%s", local.upper) }
  looked   = lookup({ k = var.secret }, "k")
}
resource "aws_msk_configuration" "this" {
  name           = "c"
  kafka_versions = ["3.7.x"]
  server_properties = <<-EOT
    ssl.truststore.password = ${var.secret}
    ssl.keystore.password = \
      ${local.upper}
    num.io.threads = ${var.plain}
    ssl.key.password = ${local.joined}
    %{ for k, v in var.secret_map }${k}.x = ${v}
    %{ endfor }
    templated = ${templatefile("t.tpl", { pw = local.chosen })}
  EOT
}
resource "kafka_topic" "t" {
  name               = "t"
  replication_factor = 3
  partitions         = 3
  config = merge(local.props, {
    "retention.ms"   = local.looked
    "cleanup.policy" = var.plain
    "from.json"      = jsondecode(jsonencode({ v = var.secret })).v
  })
}
resource "kafka_topic" "m" {
  name               = "m"
  replication_factor = 3
  partitions         = 3
  config             = var.secret_map
}
`
	files := []File{{Name: "main.tf", Data: []byte(src)}, {Name: "terraform.tfvars", Data: []byte(`secret = "from-tfvars"` + "\n")}}
	res := Load(files, Options{ReadFile: func(name string) ([]byte, error) {
		if name == "t.tpl" {
			return []byte("${pw}"), nil
		}
		return nil, os.ErrNotExist
	}})
	if len(res.Errors) > 0 {
		t.Fatalf("errors: %+v", res.Errors)
	}
	got := map[string]doc.Setting{}
	for _, b := range res.Brokers {
		for _, e := range b.Properties.Entries {
			got[e.Key] = e
		}
	}
	for _, tp := range res.Topics {
		for _, e := range tp.Config.Entries {
			got[tp.Name.Text+":"+e.Key] = e
		}
	}
	want := map[string]bool{
		"ssl.truststore.password": true, "ssl.keystore.password": true, "num.io.threads": false,
		"ssl.key.password": true, "ssl.key.password.x": true, "templated": true,
		"t:sasl.jaas.config": true, "t:retention.ms": true, "t:cleanup.policy": false, "t:from.json": true,
		"m:ssl.key.password": true,
	}
	for key, sensitive := range want {
		p, ok := got[key]
		switch {
		case !ok:
			t.Errorf("%s: not found in %v", key, keysOf(got))
		case p.Unknown:
			t.Errorf("%s: unknown (%s), want a known value", key, p.Expr)
		case p.Sensitive != sensitive:
			t.Errorf("%s = %q: sensitive %v, want %v", key, p.Value, p.Sensitive, sensitive)
		}
	}
	if p := got["ssl.truststore.password"]; p.Value != "from-tfvars" {
		t.Errorf("ssl.truststore.password = %q, want the tfvars value", p.Value)
	}
}

func keysOf(m map[string]doc.Setting) string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return fmt.Sprint(out)
}

// TestSensitiveNotLiteral: only a literal true makes a variable sensitive.
func TestSensitiveNotLiteral(t *testing.T) {
	for _, decl := range []string{"sensitive = false", `sensitive = "yes"`, ""} {
		src := `variable "v" {
  ` + decl + `
  default = "x"
}
resource "kafka_topic" "t" {
  name               = "t"
  replication_factor = 3
  partitions         = 3
  config             = { "retention.ms" = var.v }
}
`
		res := Load([]File{{Name: "main.tf", Data: []byte(src)}}, Options{})
		if len(res.Topics) != 1 || len(res.Topics[0].Config.Entries) != 1 {
			t.Fatalf("%s: topics %+v", decl, res.Topics)
		}
		if e := res.Topics[0].Config.Entries[0]; e.Sensitive || strings.Contains(decl, "false") && e.Value != "x" {
			t.Errorf("%q: entry %+v, want not sensitive", decl, e)
		}
	}
}

// TestSensitiveJSONSyntax: a .tf.json variable with "sensitive": true.
func TestSensitiveJSONSyntax(t *testing.T) {
	src := `{"variable": {"pw": {"sensitive": true, "default": "x"}},
 "resource": {"kafka_topic": {"t": {"name": "t", "replication_factor": 3, "partitions": 3, "config": {"retention.ms": "${var.pw}"}}}}}`
	res := Load([]File{{Name: "main.tf.json", Data: []byte(src)}}, Options{})
	if len(res.Topics) != 1 || len(res.Topics[0].Config.Entries) != 1 || !res.Topics[0].Config.Entries[0].Sensitive {
		t.Errorf("topics %+v: want one sensitive config entry", res.Topics)
	}
}

// TestSensitiveSet: a sensitive set (whose elements cty cannot mark one by
// one) and a sensitive null are marked without failing.
func TestSensitiveSet(t *testing.T) {
	src := `variable "s" {
  type      = set(string)
  sensitive = true
  default   = ["a", "b"]
}
variable "n" {
  sensitive = true
  default   = null
}
resource "kafka_topic" "t" {
  for_each           = var.s
  name               = each.key
  replication_factor = 3
  partitions         = 3
  config             = { "retention.ms" = join(",", var.s), "x" = var.n }
}
`
	res := Load([]File{{Name: "main.tf", Data: []byte(src)}}, Options{})
	// Terraform refuses a sensitive for_each: each.key would print the
	// secret, so the instances are unknown (one resource, name unknown).
	if len(res.Topics) != 1 || strings.Contains(fmt.Sprintf("%+v", *res.Topics[0]), `"a"`) {
		t.Fatalf("topics %+v: want one topic of unknown instances", res.Topics)
	}
	for _, tp := range res.Topics {
		for _, e := range tp.Config.Entries {
			if e.Key == "retention.ms" && (!e.Sensitive || e.Value != "a,b") {
				t.Errorf("%s: %+v, want a,b sensitive", tp.Address, e)
			}
		}
	}
}

// TestSensitiveKeysStaySecret: a sensitive value used as for_each key or as
// an object key never reaches a printed name or value (review of issue 14).
func TestSensitiveKeysStaySecret(t *testing.T) {
	src := `variable "pw" {
  sensitive = true
  default   = "MARKER1"
}
variable "m" {
  type      = map(string)
  sensitive = true
  default   = { "MARKER2" = "v" }
}
locals {
  q = { (var.pw) = 1 }
}
resource "kafka_topic" "a" {
  for_each           = toset([var.pw])
  name               = each.key
  replication_factor = 1
  partitions         = 1
}
resource "kafka_topic" "b" {
  for_each           = var.m
  name               = each.key
  replication_factor = 1
  partitions         = 1
}
resource "kafka_topic" "c" {
  name               = "c"
  replication_factor = 1
  partitions         = 1
  config             = { "cleanup.policy" = keys(local.q)[0] }
}
`
	res := Load([]File{{Name: "main.tf", Data: []byte(src)}}, Options{})
	for _, tp := range res.Topics {
		dump := fmt.Sprintf("%+v", *tp)
		for _, e := range tp.Config.Entries {
			if strings.Contains(e.Value, "MARKER") && !e.Sensitive {
				t.Errorf("%s: entry %+v carries the secret unmarked", tp.Address, e)
			}
			dump = strings.ReplaceAll(dump, e.Value, "")
		}
		if strings.Contains(dump, "MARKER") {
			t.Errorf("topic %s names the secret: %s", tp.Address, dump)
		}
	}
}
