package policies

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/kafkalint/kafkalint/loader"
)

// evaluateSources loads in-memory files and evaluates every cluster with
// the built-in rules.
func evaluateSources(t *testing.T, sources ...loader.Source) (*loader.Result, map[string][]string) {
	t.Helper()
	engine, err := Builtin()
	if err != nil {
		t.Fatal(err)
	}
	res, err := loader.LoadSources(sources, loader.Options{DefaultKeys: engine.DefaultKeys()})
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string][]string{}
	for _, c := range res.Clusters {
		fs, err := engine.Evaluate(context.Background(), c)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range fs {
			byID[f.ID] = append(byID[f.ID], f.Message)
		}
	}
	return res, byID
}

// TestSensitiveTerraformValueNotQuoted: KFK9005 quoted the value of a
// variable declared sensitive (and of a value derived from it); it now
// says (sensitive).
func TestSensitiveTerraformValueNotQuoted(t *testing.T) {
	_, byID := evaluateSources(t, loader.Source{Name: "prod/tf/main.tf", Data: []byte(`
variable "retention" {
  type      = string
  sensitive = true
  default   = "hunter2"
}
resource "kafka_topic" "t" {
  name               = "t"
  replication_factor = 3
  partitions         = 3
  config = {
    "retention.ms"  = var.retention
    "segment.bytes" = "${upper(var.retention)}!"
  }
}
`)})
	msgs := byID["KFK9005"]
	if len(msgs) != 2 {
		t.Fatalf("KFK9005 = %q, want two findings", msgs)
	}
	for _, m := range msgs {
		if strings.Contains(strings.ToLower(m), "hunter2") {
			t.Errorf("KFK9005 quotes the sensitive value: %s", m)
		}
		if !strings.Contains(m, "=(sensitive) is not a valid value") {
			t.Errorf("KFK9005 = %s, want the value shown as (sensitive)", m)
		}
	}
}

// TestLongValuesCut: a long or multi-line value is quoted as its first
// line, cut at maxQuoted characters with "…".
func TestLongValuesCut(t *testing.T) {
	long := strings.Repeat("x", 3*maxQuoted)
	_, byID := evaluateSources(t, loader.Source{Name: "prod/server.properties", Data: []byte(
		"process.roles=broker\nnode.id=1\ncontroller.quorum.bootstrap.servers=c:9093\ncontroller.listener.names=CONTROLLER\n" +
			"num.io.threads=" + long + "\n")})
	msgs := byID["KFK9005"]
	if len(msgs) != 1 {
		t.Fatalf("KFK9005 = %q, want one finding", msgs)
	}
	want := "num.io.threads=" + strings.Repeat("x", maxQuoted) + "… is not a valid value"
	if !strings.Contains(msgs[0], want) || strings.Contains(msgs[0], long[:maxQuoted+1]) {
		t.Errorf("KFK9005 = %s, want the value cut: %s", msgs[0], want)
	}
}

func TestRedactor(t *testing.T) {
	c := &loader.Cluster{Nodes: []*loader.Node{{Settings: map[string]*loader.Setting{
		"ssl.key.password": {Key: "ssl.key.password", Raw: " confluent ", Sensitive: true},
		"jaas":             {Key: "jaas", Raw: `a "q" b`, Sensitive: true},
		"multi":            {Key: "multi", Raw: "line one\nline two"},
		"long":             {Key: "long", Raw: strings.Repeat("é", maxQuoted+5)},
		"short":            {Key: "short", Raw: "fine"},
		"sasl.jaas.config": {Key: "sasl.jaas.config", Raw: `PlainLoginModule required username="alice" password="al1ce-pw" user_bob='b0b';`, Sensitive: true},
	}}}}
	r := newRedactor(c)
	for _, tc := range []struct{ in, want string }{
		{"ssl.key.password=confluent is set", "ssl.key.password=(sensitive) is set"},
		{"ssl.key.password= confluent ", "ssl.key.password=(sensitive)"},
		{`password="confluent";`, `password="(sensitive)";`},
		{"the value is confluent.", "the value is (sensitive)."},
		// The secret as part of a longer word or dotted name is not the value.
		{"confluent.metadata.server.ssl.key.password and /etc/confluent/x and confluents", "confluent.metadata.server.ssl.key.password and /etc/confluent/x and confluents"},
		{`"a \"q\" b" is not a valid int`, `(sensitive) is not a valid int`},
		{"x=line one\nline two!", "x=line one…!"},
		{"long=" + strings.Repeat("é", maxQuoted+5), "long=" + strings.Repeat("é", maxQuoted) + "…"},
		{"short=fine", "short=fine"},
		// One option of a JAAS configuration.
		{`its password="al1ce-pw" and user_bob=b0b`, `its password="(sensitive)" and user_bob=(sensitive)`},
	} {
		if got := r.replace(tc.in); got != tc.want {
			t.Errorf("replace(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	if newRedactor(&loader.Cluster{}) != nil {
		t.Error("a cluster with nothing to redact has a redactor")
	}
}

// TestRedactorLinear: a message quoting a huge value is rewritten in time
// proportional to its length (a quadratic scan of a 2 MB value would take
// minutes).
func TestRedactorLinear(t *testing.T) {
	huge := strings.Repeat("a", 2<<20)
	c := &loader.Cluster{Clients: []*loader.Client{{Settings: map[string]*loader.Setting{
		"x": {Key: "x", Raw: huge},
		"y": {Key: "y", Raw: "a", Sensitive: true},
	}}}}
	got := newRedactor(c).replace("x=" + huge + " and x=" + huge)
	want := "x=" + strings.Repeat("a", maxQuoted) + "… and x=" + strings.Repeat("a", maxQuoted) + "…"
	if got != want {
		t.Errorf("replace = %.300q…, want %q", got, want)
	}
}

// BenchmarkRedact is the cost of collecting what a cluster's messages must
// not quote (once per evaluated cluster), over the bulk tree of
// BenchmarkEvaluate: compare its ns/op with Evaluate's.
func BenchmarkRedact(b *testing.B) {
	clusters := benchClusters(b)
	for b.Loop() {
		for _, c := range clusters {
			newRedactor(c)
		}
	}
	b.ReportMetric(float64(len(clusters)*b.N)/b.Elapsed().Seconds(), "clusters/s")
}

// TestRedactorNearMisses: a text that matches a long value's head at every
// position but never the whole value (a periodic text, built by a hostile
// file) is still rewritten in linear time (a quadratic scan of this one
// takes minutes), and a secret after it is still hidden.
func TestRedactorNearMisses(t *testing.T) {
	n := 1 << 20
	secret := strings.Repeat("s", n)
	c := &loader.Cluster{Clients: []*loader.Client{{Settings: map[string]*loader.Setting{
		"long":   {Key: "long", Raw: strings.Repeat("a", n) + "b"},
		"secret": {Key: "secret", Raw: secret, Sensitive: true},
	}}}}
	nearMiss := strings.Repeat("a", n) + "c"
	got := newRedactor(c).replace(nearMiss + " " + secret + " end")
	if want := nearMiss + " (sensitive) end"; got != want {
		t.Errorf("replace = %.100q… (%d bytes, %d of the secret), want %.100q…", got, len(got), strings.Count(got, "s"), want)
	}
}

// TestRedactorLongestMatch: with many secrets of many lengths and first
// bytes, each position is replaced by the longest secret written there
// (not glued to a word), as a scan of every secret at every position
// finds it.
func TestRedactorLongestMatch(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	word := func(n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = ".-:/ ab"[rng.IntN(7)] // mostly not word characters: secrets match anywhere
		}
		return string(b)
	}
	settings := map[string]*loader.Setting{}
	var secrets []string
	bases := []string{word(45), word(45), word(45)}
	for i := range 60 {
		// Prefixes of a few values: secrets that start alike, of many
		// lengths, so the longest must be chosen.
		b := bases[rng.IntN(len(bases))]
		v := b[:1+rng.IntN(len(b))]
		if strings.TrimSpace(v) == "" {
			continue
		}
		key := fmt.Sprintf("s%d.password", i)
		settings[key] = &loader.Setting{Key: key, Raw: v, Sensitive: true}
	}
	c := &loader.Cluster{Nodes: []*loader.Node{{Settings: settings}}}
	r := newRedactor(c)
	for _, s := range settings {
		secrets = append(secrets, s.SecretForms()...)
	}
	for range 300 {
		text := word(rng.IntN(100)) + bases[rng.IntN(len(bases))] + word(rng.IntN(100))
		var want strings.Builder
		for i := 0; i < len(text); {
			best := ""
			for _, p := range secrets {
				if len(p) > len(best) && strings.HasPrefix(text[i:], p) && !joined(text, i, i+len(p)) {
					best = p
				}
			}
			if best == "" {
				want.WriteByte(text[i])
				i++
				continue
			}
			want.WriteString(loader.Redacted)
			i += len(best)
		}
		if got := r.replace(text); got != want.String() {
			t.Fatalf("replace(%q) = %q, want %q", text, got, want.String())
		}
	}
}
