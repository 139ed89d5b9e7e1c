package terraform

import (
	"bytes"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function/stdlib"
)

// loadWithin loads files and stops the whole test binary if that takes
// longer than d: a runaway evaluation must fail fast, not hang CI. It also
// fails the test when loading allocated more than maxAlloc bytes in all.
func loadWithin(t *testing.T, d time.Duration, maxAlloc uint64, files []File, opts Options) *Result {
	t.Helper()
	timer := time.AfterFunc(d, func() { panic(fmt.Sprintf("%s: loading took longer than %s", t.Name(), d)) })
	defer timer.Stop()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	res := Load(files, opts)
	runtime.ReadMemStats(&after)
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > maxAlloc {
		t.Errorf("loading allocated %d MiB, want at most %d MiB", alloc>>20, maxAlloc>>20)
	}
	return res
}

// okTopic is a file of the module that every hostile case shares: it must
// still load, with its values, whatever the other file does.
const okTopic = `resource "kafka_topic" "ok" {
  name               = "ok"
  replication_factor = 3
  config             = { "min.insync.replicas" = "2" }
}
`

func checkOK(t *testing.T, res *Result) {
	t.Helper()
	for _, tp := range res.Topics {
		if tp.Address != "kafka_topic.ok" {
			continue
		}
		if tp.ReplicationFactor == nil || tp.ReplicationFactor.Unknown || tp.ReplicationFactor.Text != "3" ||
			len(tp.Config.Entries) != 1 || tp.Config.Entries[0].Value != "2" || tp.Config.Entries[0].Unknown {
			t.Errorf("kafka_topic.ok lost its values: %+v", tp)
		}
		return
	}
	t.Errorf("kafka_topic.ok is not loaded: %+v", res.Topics)
}

func topic(res *Result, addr string) *Topic {
	for _, tp := range res.Topics {
		if tp.Address == addr {
			return tp
		}
	}
	return nil
}

// partitionsUnknown: kafka_topic.bad's partitions = length(local.x) is
// unknown, i.e. local.x was given up.
func partitionsUnknown(t *testing.T, res *Result) {
	t.Helper()
	if tp := topic(res, "kafka_topic.bad"); tp == nil || tp.Partitions == nil || !tp.Partitions.Unknown {
		t.Errorf("kafka_topic.bad partitions: want unknown, got %+v", tp)
	}
}

const badTopic = `
resource "kafka_topic" "bad" {
  name       = "bad"
  partitions = length(local.x)
}
`

// TestEvaluationBudgets: small files that ask for absurd amounts of memory
// or time are evaluated within the limits, with default limits: the
// value is unknown, the module has one error naming the limit and where it
// was hit, and the module's other file still loads with its values.
func TestEvaluationBudgets(t *testing.T) {
	var b strings.Builder
	b.WriteString("locals {\n  s0 = \"ab\"\n")
	for i := 1; i <= 40; i++ {
		fmt.Fprintf(&b, "  s%d = \"${local.s%d}${local.s%d}\"\n", i, i-1, i-1)
	}
	upTo19, _, _ := strings.Cut(b.String(), "  s20") // s0 … s19: a 1 MiB string
	doubling := b.String() + "  x = local.s40\n}\n"  // s20 (line 22) is the first string over 1 MiB
	b.Reset()
	b.WriteString("locals {\n  l0 = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]\n")
	for i := 1; i <= 6; i++ {
		fmt.Fprintf(&b, "  l%d = [%s]\n", i, strings.TrimSuffix(strings.Repeat(fmt.Sprintf("local.l%d, ", i-1), 10), ", "))
	}
	sharing := b.String() + "  x = local.l4\n}\n" // l4 (line 6): 111,111 elements counted as a tree
	// Named so that the last of the chain is evaluated first, and the
	// whole chain with it.
	b.Reset()
	b.WriteString("locals {\n  c9999 = 1\n")
	for i := 1; i <= 1500; i++ {
		fmt.Fprintf(&b, "  c%d = local.c%d\n", 9999-i, 9999-i+1)
	}
	chain := b.String() + "  x = local.c8499\n}\n"
	b.Reset()
	b.WriteString("locals {\n  d0 = \"0,\"\n")
	for i := 1; i <= 17; i++ {
		fmt.Fprintf(&b, "  d%d = \"${local.d%d}${local.d%d}\"\n", i, i-1, i-1)
	}
	commas := b.String() + "  x = jsondecode(\"[${local.d17}0]\")\n}\n" // 131,073 elements, line 20
	cases := []struct {
		name, src string
		line      int
		want      string
		check     func(*testing.T, *Result)
	}{
		{"doubling locals", doubling, 22, "the length of a string", partitionsUnknown},
		{"nested for over range(1000) three deep",
			"locals {\n  x = [for a in range(1000) : [for b in range(1000) : [for c in range(1000) : c]]]\n}\n",
			2, "the module's evaluation work", partitionsUnknown},
		{"setproduct", "locals {\n  x = setproduct(range(1000), range(1000), range(1000))\n}\n",
			2, "the number of elements of a collection", partitionsUnknown},
		{"indent", "locals {\n  x = indent(2000000000, \"a\\nb\")\n}\n", 2, "the length of a string", partitionsUnknown},
		{"format padding", "locals {\n  x = format(\"%2000000000s\", \"x\")\n}\n", 2, "the length of a string", partitionsUnknown},
		{"formatlist padding", "locals {\n  x = formatlist(\"%200000s\", range(1000))\n}\n", 2, "the length of a string", partitionsUnknown},
		{"join repeats a large string", upTo19 +
			"  x = join(\"\", [for i in range(1000) : local.s19])\n}\n",
			22, "the length of a string", partitionsUnknown},
		{"regex replacement", upTo19 +
			"  x = replace(local.s19, \"/a/\", \"$0$0$0\")\n}\n",
			22, "the length of a string", partitionsUnknown},
		{"number magnitude", "locals {\n  x = \"${1e600000000}\"\n}\n", 2, "the magnitude of a number", partitionsUnknown},
		{"shared parts counted as a tree", sharing, 6, "the size of a value", partitionsUnknown},
		{"chain of locals", chain, 502, "the nesting of expressions", partitionsUnknown},
		{"for_each over a million keys", `resource "kafka_topic" "bad" {
  for_each = toset(flatten([for a in range(1000) : [for b in range(1000) : "${a}-${b}"]]))
  name     = each.key
}
`, 2, "the module's evaluation work", func(t *testing.T, res *Result) {
			if len(res.Topics) != 2 || topic(res, "kafka_topic.bad") == nil || !topic(res, "kafka_topic.bad").UnknownMultiplicity {
				t.Errorf("want kafka_topic.ok and one kafka_topic.bad of unknown multiplicity, got %+v", res.Topics)
			}
		}},
		{"padding in a loop", "locals {\n  x = [for i in range(1000) : format(\"%1000000s\", \"x\")]\n}\n",
			2, "the module's evaluation work", partitionsUnknown},
		{"jsondecode of many elements", commas, 20, "the size of a value", partitionsUnknown},
		{"regexall matches", upTo19 + "  x = regexall(\".\", local.s19)\n}\n", 22, "the number of elements of a collection", partitionsUnknown},
		{"templatefile in a loop", "locals {\n  x = [for i in range(1000) : [for j in range(100) : templatefile(\"t.tpl\", {})]]\n}\n",
			2, "the module's evaluation work", partitionsUnknown},
		{"try does not hide a limit",
			"locals {\n  x = try([for a in range(1000) : [for b in range(1000) : [for c in range(1000) : c]]], \"fallback\")\n}\n",
			2, "the module's evaluation work", partitionsUnknown},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := c.src
			if !strings.Contains(src, `"bad"`) {
				src += badTopic
			}
			tpl := []byte("k=" + strings.Repeat("v", 400_000))
			opts := Options{ReadFile: func(string) ([]byte, error) { return tpl, nil }}
			res := loadWithin(t, 20*time.Second, 256<<20, []File{{Name: "m/a.tf", Data: []byte(src)}, {Name: "m/b.tf", Data: []byte(okTopic)}}, opts)
			if len(res.Errors) != 1 {
				t.Fatalf("want one error, got %+v", res.Errors)
			}
			e := res.Errors[0]
			if e.File != "m/a.tf" || e.Line != c.line || !strings.Contains(e.Message, c.want) || !strings.Contains(e.Message, "gave up") {
				t.Errorf("got error %+v, want one at m/a.tf:%d about %q", e, c.line, c.want)
			}
			c.check(t, res)
			checkOK(t, res)
		})
	}
}

// TestBudgetsNoNotice: go-cty's own range limit (1024 elements, as in
// Terraform) already makes these unknown, without a limit of ours.
func TestBudgetsNoNotice(t *testing.T) {
	for _, src := range []string{
		"locals {\n  x = range(1e9)\n}\n" + badTopic,
		`resource "kafka_topic" "bad" {
  for_each = toset([for i in range(1000000) : tostring(i)])
  name     = each.key
}
`,
	} {
		res := loadWithin(t, 20*time.Second, 64<<20, []File{{Name: "m/a.tf", Data: []byte(src)}, {Name: "m/b.tf", Data: []byte(okTopic)}}, Options{})
		if len(res.Errors) != 0 {
			t.Errorf("errors: %+v", res.Errors)
		}
		bad := topic(res, "kafka_topic.bad")
		if bad == nil || !bad.UnknownMultiplicity && (bad.Partitions == nil || !bad.Partitions.Unknown) {
			t.Errorf("kafka_topic.bad: want an unknown value, got %+v", bad)
		}
		checkOK(t, res)
	}
}

// TestNestingLimit: text nested past the limit is refused before HCL's
// recursive parser sees it (50,000 levels made it exhaust memory); the
// module's other files still load.
func TestNestingLimit(t *testing.T) {
	deep := strings.Repeat("[", 50_000) + strings.Repeat("]", 50_000)
	for _, f := range []File{
		{Name: "m/a.tf", Data: []byte("locals {\n  x = " + deep + "\n}\n")},
		{Name: "m/a.tf.json", Data: []byte("{\n  \"locals\": {\"x\": " + deep + "}\n}\n")},
		{Name: "m/terraform.tfvars", Data: []byte("x = " + deep + "\n")},
	} {
		res := loadWithin(t, 20*time.Second, 64<<20, []File{f, {Name: "m/b.tf", Data: []byte(okTopic)}}, Options{})
		if len(res.Errors) != 1 || res.Errors[0].File != f.Name || res.Errors[0].Line != 2 && f.Name != "m/terraform.tfvars" ||
			!strings.Contains(res.Errors[0].Message, "nesting deeper than 500 levels") {
			t.Errorf("%s: want one nesting error at line 2, got %+v", f.Name, res.Errors)
		}
		checkOK(t, res)
	}
	// Just within the limit is read.
	within := strings.Repeat("[", 499) + strings.Repeat("]", 499)
	res := Load([]File{{Name: "m/a.tf", Data: []byte("locals {\n  x = " + within + "\n}\n")}}, Options{})
	if len(res.Errors) != 0 {
		t.Errorf("499 levels: %+v", res.Errors)
	}
}

// TestLimitsOption: limits set by the caller apply (zero fields keep the
// defaults).
func TestLimitsOption(t *testing.T) {
	src := "locals {\n  x = [for i in range(20) : i]\n}\n" + badTopic
	res := Load([]File{{Name: "m/a.tf", Data: []byte(src)}}, Options{Limits: Limits{MaxCollection: 10}})
	if len(res.Errors) != 1 || !strings.Contains(res.Errors[0].Message, "limit of 10;") {
		t.Fatalf("want the collection limit of 10, got %+v", res.Errors)
	}
	partitionsUnknown(t, res)
	res = Load([]File{{Name: "m/a.tf", Data: []byte(src)}}, Options{})
	if len(res.Errors) != 0 || topic(res, "kafka_topic.bad").Partitions.Text != "20" {
		t.Errorf("default limits: want partitions 20, got %+v %+v", res.Errors, topic(res, "kafka_topic.bad"))
	}
}

// TestJSONDuplicateKeys: a key repeated in a .tf.json object is an error
// at the repeated key, as in Terraform; the file is still read.
func TestJSONDuplicateKeys(t *testing.T) {
	src := `{
  "resource": {
    "kafka_topic": {
      "t": {
        "name": "a",
        "replication_factor": 3,
        "name": "b",
        "config": {"x": "1",
          "x": "2"}
      }
    }
  }
}
`
	res := Load([]File{{Name: "m/main.tf.json", Data: []byte(src)}}, Options{})
	var got []string
	for _, e := range res.Errors {
		got = append(got, fmt.Sprintf("%s:%d %s", e.File, e.Line, e.Message))
	}
	want := []string{
		`m/main.tf.json:7 duplicate key "name" in a JSON object (first at line 5); Terraform rejects the file`,
		`m/main.tf.json:9 duplicate key "x" in a JSON object (first at line 8); Terraform rejects the file`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("errors:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(res.Topics) != 1 {
		t.Errorf("the file is still read: got %d topics", len(res.Topics))
	}
	// The same key in different objects is no duplicate.
	res = Load([]File{{Name: "m/main.tf.json", Data: []byte(`{"locals": {"a": {"k": 1}, "b": {"k": 2}}, "variable": {"k": {}}}`)}}, Options{})
	if len(res.Errors) != 0 {
		t.Errorf("false duplicate: %+v", res.Errors)
	}
}

// TestProportional: many locals, or many clusters and configurations, cost
// memory in proportion to their number (building an evaluation context per
// local, or per block, cost its square, and counting declarations per
// reference its cube): doubling the module at most about doubles what
// loading it allocates.
func TestProportional(t *testing.T) {
	gen := map[string]func(n int) string{
		"locals": func(n int) string {
			var b strings.Builder
			b.WriteString("locals {\n")
			for i := range n {
				fmt.Fprintf(&b, "  l%d = \"v%d\"\n", i, i)
			}
			b.WriteString("}\n")
			return b.String()
		},
		"clusters": func(n int) string {
			var b strings.Builder
			for i := range n {
				fmt.Fprintf(&b, "resource \"aws_msk_configuration\" \"c%d\" {\n  server_properties = \"a=1\"\n}\n", i)
				fmt.Fprintf(&b, "resource \"aws_msk_cluster\" \"k%d\" {\n  configuration_info { arn = aws_msk_configuration.c%d.arn }\n}\n", i, i)
			}
			return b.String()
		},
	}
	for name, g := range gen {
		t.Run(name, func(t *testing.T) {
			alloc := func(n int) uint64 {
				files := []File{{Name: "m/main.tf", Data: []byte(g(n))}}
				var before, after runtime.MemStats
				runtime.ReadMemStats(&before)
				res := loadWithin(t, 20*time.Second, 1<<30, files, Options{})
				runtime.ReadMemStats(&after)
				if len(res.Errors) != 0 {
					t.Fatalf("errors: %+v", res.Errors)
				}
				return after.TotalAlloc - before.TotalAlloc
			}
			small, large := alloc(500), alloc(1000)
			if ratio := float64(large) / float64(small); ratio > 3 {
				t.Errorf("500 → 1000: allocations grew %.1f× (%d → %d KiB), want about 2×", ratio, small>>10, large>>10)
			}
		})
	}
}

// TestFileReadOnce: file() in a loop reads the file once, and the copies
// of its text the loop makes count against the module's work.
func TestFileReadOnce(t *testing.T) {
	reads := 0
	opts := Options{ReadFile: func(string) ([]byte, error) {
		reads++
		return []byte(strings.Repeat("x", 512<<10)), nil
	}}
	src := "locals {\n  x = [for i in range(1000) : \"${file(\"big.txt\")}!\"]\n}\n" + badTopic
	res := loadWithin(t, 20*time.Second, 256<<20, []File{{Name: "m/a.tf", Data: []byte(src)}, {Name: "m/b.tf", Data: []byte(okTopic)}}, opts)
	if reads != 1 {
		t.Errorf("big.txt read %d times, want once", reads)
	}
	if len(res.Errors) != 1 || !strings.Contains(res.Errors[0].Message, "the module's evaluation work") {
		t.Errorf("want the work limit, got %+v", res.Errors)
	}
	partitionsUnknown(t, res)
	checkOK(t, res)
}

// TestFileReadsBounded: file() through distinct spellings of one path
// reads it once, and a file longer than the string limit is not used (a
// 15 MB file read 60 times once took 2 GB).
func TestFileReadsBounded(t *testing.T) {
	reads := map[string]int{}
	opts := Options{ReadFile: func(name string) ([]byte, error) {
		reads[name]++
		if name == "big.txt" {
			return []byte(strings.Repeat("x", DefaultLimits.MaxString+1)), nil
		}
		return []byte("small"), nil
	}}
	src := "locals {\n  x = [for i in range(60) : length(file(\"./d${i}/../big.txt\"))]\n  y = [for i in range(60) : file(\"./d${i}/../small.txt\")]\n}\n" + okTopic
	res := loadWithin(t, 20*time.Second, 64<<20, []File{{Name: "m/a.tf", Data: []byte(src)}}, opts)
	if reads["big.txt"] != 1 || reads["small.txt"] != 1 || len(reads) != 2 {
		t.Errorf("reads %v, want each cleaned path once", reads)
	}
	checkOK(t, res)
}

// TestServerPropertiesText: a server_properties text is rendered piece by
// piece (to locate every line); the text as a whole is held to the string
// limit, though each piece is within it.
func TestServerPropertiesText(t *testing.T) {
	var b strings.Builder
	b.WriteString("locals {\n  s0 = \"ab\"\n")
	for i := 1; i <= 18; i++ {
		fmt.Fprintf(&b, "  s%d = \"${local.s%d}${local.s%d}\"\n", i, i-1, i-1)
	}
	b.WriteString("}\n") // local.s18: 512 KiB
	for name, props := range map[string]string{
		"join":    `join("\n", [for i in range(1000) : "k${i}=${local.s18}"])`,
		"heredoc": "<<EOT\n" + strings.Repeat("k=${local.s18}\n", 1000) + "EOT",
	} {
		t.Run(name, func(t *testing.T) {
			src := b.String() + "resource \"aws_msk_configuration\" \"c\" {\n  server_properties = " + props + "\n}\n"
			res := loadWithin(t, 20*time.Second, 256<<20, []File{{Name: "m/a.tf", Data: []byte(src)}, {Name: "m/b.tf", Data: []byte(okTopic)}}, Options{})
			if len(res.Errors) != 1 || !strings.Contains(res.Errors[0].Message, "gave up") {
				t.Errorf("want one limit error, got %+v", res.Errors)
			}
			if len(res.Brokers) != 1 || !res.Brokers[0].Properties.Incomplete || len(res.Brokers[0].Properties.Entries) != 0 {
				t.Errorf("want one configuration with an incomplete text, got %+v", res.Brokers)
			}
			checkOK(t, res)
		})
	}
}

// TestTemplateLines: HCL's parser takes time quadratic in a heredoc's
// lines (20,000 lines, 80 KB, took a minute): past the limit a file is
// refused before parsing, and a templatefile() template is unknown.
func TestTemplateLines(t *testing.T) {
	heredoc := func(n int) []byte {
		return []byte("resource \"aws_msk_configuration\" \"c\" {\n  server_properties = <<-EOT\n" + strings.Repeat("k=v\n", n) + "  EOT\n}\n")
	}
	res := loadWithin(t, 20*time.Second, 256<<20, []File{{Name: "m/a.tf", Data: heredoc(20_000)}, {Name: "m/b.tf", Data: []byte(okTopic)}}, Options{})
	if len(res.Errors) != 1 || res.Errors[0].File != "m/a.tf" || res.Errors[0].Line != 2 ||
		res.Errors[0].Message != "heredocs too long to parse (one of at most 3000 lines, or several shorter); the file is not read" {
		t.Errorf("20,000 lines: want the heredoc error at m/a.tf:2, got %+v", res.Errors)
	}
	checkOK(t, res)
	res = loadWithin(t, 20*time.Second, 256<<20, []File{{Name: "m/a.tf", Data: heredoc(2_500)}}, Options{})
	if len(res.Errors) != 0 || len(res.Brokers) != 1 || len(res.Brokers[0].Properties.Entries) != 1 {
		t.Errorf("2,500 lines: want the configuration read, got %+v", res.Errors)
	}
	// Two of 2,500 lines are too long together.
	two := append(heredoc(2_500), bytes.ReplaceAll(heredoc(2_500), []byte(`"c"`), []byte(`"d"`))...)
	if res = Load([]File{{Name: "m/a.tf", Data: two}}, Options{}); len(res.Errors) != 1 || res.Errors[0].Line != 2506 {
		t.Errorf("two of 2,500 lines: want the heredoc error at the second, got %+v", res.Errors)
	}
	// A << in a comment, never closed, is no heredoc.
	res = Load([]File{{Name: "m/a.tf", Data: []byte("# x <<EOT\n" + strings.Repeat("# line\n", 6_000) + okTopic)}}, Options{})
	if len(res.Errors) != 0 {
		t.Errorf("comment: %+v", res.Errors)
	}
	tpl := []byte(strings.Repeat("k=v\n", 20_000))
	opts := Options{ReadFile: func(string) ([]byte, error) { return tpl, nil }}
	res = loadWithin(t, 20*time.Second, 256<<20, []File{{Name: "m/a.tf", Data: []byte("locals {\n  x = templatefile(\"t.tpl\", {})\n}\n" + badTopic)}}, opts)
	if len(res.Errors) != 1 || !strings.Contains(res.Errors[0].Message, "the number of lines of t.tpl exceeds the limit of 3000") {
		t.Errorf("template: want the lines limit, got %+v", res.Errors)
	}
	partitionsUnknown(t, res)
}

// TestRangeInLoop: range() past go-cty's limit of 1,024 elements fails
// only after making them all; each of them counts as work, so a loop of
// such calls gives up at the work limit (uncounted, 30 × 30 of them took
// 1.4 s and 500 MiB without an error, 1000 × 1000 would take minutes), and
// the file's other values still load.
func TestRangeInLoop(t *testing.T) {
	src := "locals {\n  x = [for a in range(30) : [for b in range(30) : [for c in range(1080) : c]]]\n}\n" + badTopic + okTopic
	files := []File{{Name: "m/a.tf", Data: []byte(src)}}
	res := loadWithin(t, 20*time.Second, 128<<20, files, Options{})
	if len(res.Errors) != 1 || res.Errors[0].Line != 2 || !strings.Contains(res.Errors[0].Message, "gave up: the module's evaluation work") {
		t.Errorf("want the work limit at m/a.tf:2, got %+v", res.Errors)
	}
	partitionsUnknown(t, res)
	checkOK(t, res)
	m := parse(files, Options{})
	m.setup()
	if m.budget.work > 2*m.limits.MaxWork {
		t.Errorf("work %d, want at most %d", m.budget.work, 2*m.limits.MaxWork)
	}
}

// TestRangeFunc: range() with each element charged makes what go-cty's
// makes, or fails where it does.
func TestRangeFunc(t *testing.T) {
	nums := []cty.Value{cty.Zero, cty.NumberIntVal(-1), cty.NumberFloatVal(0.1), cty.NumberFloatVal(-2.5),
		cty.NumberIntVal(7), cty.NumberFloatVal(102.4), cty.NumberIntVal(1025),
		cty.NumberFloatVal(1 << 60), cty.NumberFloatVal(1<<60 + 1<<10)} // 53 bits: adding 1 changes nothing
	var calls [][]cty.Value
	for _, a := range nums {
		calls = append(calls, []cty.Value{a})
		for _, b := range nums {
			calls = append(calls, []cty.Value{a, b})
			for _, c := range nums {
				calls = append(calls, []cty.Value{a, b, c})
			}
		}
	}
	for _, args := range calls {
		want, wantErr := stdlib.RangeFunc.Call(args)
		got, err := parse(nil, Options{}).rangeFunc().Call(args)
		if (err != nil) != (wantErr != nil) || err != nil && err.Error() != wantErr.Error() || err == nil && !got.RawEquals(want) {
			t.Errorf("range%s: got %#v %v, want %#v %v", fmtArgs(args), got, err, want, wantErr)
		}
	}
}

func fmtArgs(args []cty.Value) []string {
	var s []string
	for _, a := range args {
		s = append(s, a.AsBigFloat().Text('g', 20))
	}
	return s
}
