package terraform

import (
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/kafkalint/kafkalint/loader/doc"
	"github.com/kafkalint/kafkalint/loader/properties"
)

var heredocSeeds = []string{
	"default.replication.factor=3\nmin.insync.replicas=2",
	"# comment\n! other comment\nkey = value\n\nkey2:value2",
	"log.dirs=/a,\\\n  /b\nnext=1",
	"a\\=b=c\nunicode=\\u0041\\u00e9",
	"bad=\\uZZZZ",
	"  indented.key  =  spaced value  \n\tnum.partitions\t3",
	"dup=1\ndup=2\ndup=3",
	"empty=\n=novalue\nkeyonly",
	"k=v\\\n",
	"ümlaut=ö\nkey=日本",
}

// FuzzHeredoc checks the bridge on a server_properties heredoc: every key
// the properties reader finds in the text is found, with its value, at its
// own line of the .tf file; text the reader rejects is an error at a line
// of the heredoc.
func FuzzHeredoc(f *testing.F) {
	for _, s := range heredocSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		// Interpolation and directives ($, %), heredoc delimiters and
		// carriage returns change the text HCL produces; they are
		// covered by FuzzLoad.
		if strings.ContainsAny(text, "$%\r\x00") || strings.Contains(text, "EOT") || !utf8.ValidString(text) {
			return
		}
		src := "resource \"aws_msk_configuration\" \"c\" {\n  server_properties = <<EOT\n" + text + "\nEOT\n}\n"
		res := Load([]File{{Name: "main.tf", Data: []byte(src)}}, Options{})
		if len(res.Errors) > 0 {
			if res.Errors[0].Line < 1 {
				t.Fatalf("error without a line: %+v", res.Errors[0])
			}
			return
		}
		if len(res.Brokers) != 1 {
			t.Fatalf("got %d brokers, want 1", len(res.Brokers))
		}
		b := res.Brokers[0]
		// HCL (and so Terraform) normalizes string literals to Unicode NFC.
		pf, err := properties.Parse([]byte(norm.NFC.String(text) + "\n"))
		if err != nil {
			if b.PropertiesErr == nil {
				t.Fatalf("properties error %v not reported", err)
			}
			// The reader may name any inconsistent key (it checks them in
			// map order), so the error must be at some line of the text.
			if textLines := strings.Count(text, "\n") + 1; b.PropertiesErr.Line < 3 || b.PropertiesErr.Line > textLines+2 {
				t.Fatalf("error at line %d, outside the heredoc text (lines 3-%d)", b.PropertiesErr.Line, textLines+2)
			}
			return
		}
		if b.PropertiesErr != nil {
			t.Fatalf("unexpected error %+v", b.PropertiesErr)
		}
		got := map[string]doc.Setting{}
		for _, p := range b.Properties.Entries {
			got[p.Key] = p
		}
		last := pf.Last()
		if len(got) != len(last) {
			t.Fatalf("got %d keys, want %d", len(got), len(last))
		}
		for k, e := range last {
			p, ok := got[k]
			if !ok || p.Value != e.Value || p.Loc.Line != e.Line+2 || p.Loc.File != "main.tf" {
				t.Fatalf("key %q: got %+v, want value %q at line %d", k, p, e.Value, e.Line+2)
			}
		}
	})
}

// FuzzLoad feeds arbitrary text as a module file: nothing panics, and every
// position points into the file.
func FuzzLoad(f *testing.F) {
	for _, s := range heredocSeeds {
		f.Add("resource \"aws_msk_configuration\" \"c\" {\n  server_properties = <<-EOT\n" + s + "\n  EOT\n}\n")
	}
	f.Add(`locals { p = { "a.b" = 1, "c" = var.x } }
resource "aws_msk_configuration" "c" {
  server_properties = join("\n", [for k, v in local.p : format("%s = %s", k, v)])
}
resource "aws_msk_cluster" "k" {
  count = 2
  number_of_broker_nodes = 3
  configuration_info { arn = aws_msk_configuration.c.arn }
}`)
	f.Add(`resource "kafka_topic" "t" {
  for_each = { a = 1, b = 2 }
  name = each.key
  replication_factor = each.value
  config = { "min.insync.replicas" = "${each.value}" }
}`)
	f.Add(`module "m" {
  source = "cloudposse/msk-apache-kafka-cluster/aws"
  broker_per_zone = 2
  subnet_ids = ["a", "b", "c"]
  properties = { "x" = "%{ for i in [1,2] }${i}%{ endfor }" }
}`)
	f.Add(`resource "aws_msk_configuration" "c" { server_properties = "a=${upper("x")}\nb=${templatefile("x.tpl", {})}" }`)
	f.Add(`variable "n" { default = 1 }
module "again" {
  source = "./a"
  count  = 256
  n      = var.n + 1
}
resource "random_id" "r" { keepers = { p = "x=${var.n}" } }
resource "aws_msk_configuration" "c" { server_properties = random_id.r.keepers.p }`)
	for _, s := range hostileSeeds() {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) { checkLoad(t, "main.tf", src) })
}

// FuzzLoadJSON is FuzzLoad for a .tf.json file.
func FuzzLoadJSON(f *testing.F) {
	f.Add(`{"resource": {"aws_msk_configuration": {"c": {"server_properties": "a=1\nb=${var.x}"}}}}`)
	f.Add(`{"resource": {"kafka_topic": {"t": {"name": "a", "name": "b", "config": {"k": "1", "k": "2"}}}}}`)
	f.Add(`{"locals": {"p": {"a": 1}}, "resource": {"kafka_topic": {"t": {"for_each": "${local.p}", "name": "${each.key}"}}}}`)
	var doubling strings.Builder
	doubling.WriteString(`{"locals": {"s0": "ab"`)
	for i := 1; i <= 40; i++ {
		fmt.Fprintf(&doubling, `, "s%d": "${local.s%d}${local.s%d}"`, i, i-1, i-1)
	}
	doubling.WriteString("}}")
	f.Add(doubling.String())
	f.Add(`{"locals": {"x": "${[for a in range(1000) : [for b in range(1000) : [for c in range(1000) : c]]]}"}}`)
	f.Add(`{"locals": {"x": ` + strings.Repeat("[", 50_000) + strings.Repeat("]", 50_000) + `}}`)
	f.Fuzz(func(t *testing.T, src string) { checkLoad(t, "main.tf.json", src) })
}

// checkLoad loads src as a module file: nothing panics or runs away, and
// every position points into the file.
func checkLoad(t *testing.T, name, src string) {
	t.Helper()
	// Within the limits every input loads in well under a second; a
	// runaway evaluation stops the fuzzer at once.
	timer := time.AfterFunc(30*time.Second, func() { panic("Load took longer than 30s") })
	defer timer.Stop()
	// Every module called by a local path is this file again (the file
	// name is kept, so positions stay checkable): calls into calls, with
	// count, down to the nesting and instance limits.
	self := func(string) ([]File, func(string) ([]byte, error), error) {
		return []File{{Name: name, Data: []byte(src)}}, nil, nil
	}
	res := Load([]File{{Name: name, Data: []byte(src)}, {Name: "terraform.tfvars", Data: []byte("x = 1\n")}}, Options{Module: self})
	lines := strings.Count(src, "\n") + 2
	check := func(what string, p doc.Location) {
		if p.File != name && p.File != "terraform.tfvars" {
			t.Fatalf("%s: position in %q", what, p.File)
		}
		if p.File == name && (p.Line < 1 || p.Line > lines) {
			t.Fatalf("%s: line %d outside the file (%d lines)", what, p.Line, lines)
		}
	}
	for _, e := range res.Errors {
		check("error", doc.Location{File: e.File, Line: e.Line})
	}
	for _, b := range res.Brokers {
		check(b.Address, b.Loc)
		for _, p := range b.Properties.Entries {
			check(p.Key, p.Loc)
		}
		if b.PropertiesErr != nil {
			check("properties error", doc.Location{File: b.PropertiesErr.File, Line: b.PropertiesErr.Line})
		}
	}
	for _, tp := range res.Topics {
		check(tp.Address, tp.Loc)
		for _, p := range tp.Config.Entries {
			check(p.Key, p.Loc)
		}
	}
}

// hostileSeeds are small files that asked for absurd memory or time
// before evaluation had limits (see TestEvaluationBudgets).
func hostileSeeds() []string {
	var doubling strings.Builder
	doubling.WriteString("locals {\n  s0 = \"ab\"\n")
	for i := 1; i <= 40; i++ {
		fmt.Fprintf(&doubling, "  s%d = \"${local.s%d}${local.s%d}\"\n", i, i-1, i-1)
	}
	doubling.WriteString("}\nresource \"aws_msk_configuration\" \"c\" { server_properties = local.s40 }\n")
	deep := strings.Repeat("[", 50_000) + strings.Repeat("]", 50_000)
	return []string{
		doubling.String(),
		"locals { x = [for a in range(1000) : [for b in range(1000) : [for c in range(1000) : c]]] }\n",
		"locals { x = setproduct(range(1000), range(1000), range(1000)) }\n",
		"locals { x = indent(2000000000, \"x\\ny\") }\n",
		"locals { x = format(\"%2000000000s\", \"x\") }\n",
		"locals { x = range(1e9) }\n",
		"locals { x = \"${1e600000000}\" }\n",
		"resource \"kafka_topic\" \"t\" {\n  for_each = toset(flatten([for a in range(1000) : [for b in range(1000) : \"${a}-${b}\"]]))\n  name = each.key\n}\n",
		"resource \"kafka_topic\" \"t\" {\n  for_each = toset([for i in range(1000000) : tostring(i)])\n  name = each.key\n}\n",
		"locals { x = try([for a in range(1000) : [for b in range(1000) : [for c in range(1000) : c]]], 1) }\n",
		"x = " + deep + "\n",
		"locals {\n  x = " + deep + "\n}\n",
		"resource \"aws_msk_configuration\" \"c\" {\n  server_properties = <<EOT\n" + strings.Repeat("k=v\n", 20_000) + "EOT\n}\n",
		"locals {\n  x = [for i in range(1000) : format(\"%1000000s\", \"x\")]\n}\n",
		"locals { x = join(\"\\n\", [for i in range(1000) : \"k${i}=${format(\"%500000s\", \"v\")}\"]) }\n",
	}
}
