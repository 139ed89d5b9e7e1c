package lint

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kafkalint/kafkalint/bench/gen"
	"github.com/kafkalint/kafkalint/internal/testcorpus"
	"github.com/kafkalint/kafkalint/policies"
	"github.com/kafkalint/kafkalint/report"
)

// TestEnginesIdentical: the report (JSON, as `kafkalint lint --format
// json` writes it) is byte for byte the same with the built-in rules
// compiled and on OPA's interpreter, on examples/, the real-world corpus
// and small generated trees of both bench layouts; with parameters that
// override a built-in one; and with custom policies beside them.
func TestEnginesIdentical(t *testing.T) {
	if testing.Short() {
		t.Skip("lints the corpus and generated trees with both engines (seconds): not in the -short tier")
	}
	ctx := context.Background()
	corpus := testcorpus.Dir(t)
	trees := map[string]string{"examples": filepath.Join("..", "examples"), "corpus": corpus}
	for _, layout := range []string{gen.LayoutSeparate, gen.LayoutShared} {
		dir := filepath.Join(t.TempDir(), layout)
		if _, err := gen.Write(dir, gen.Options{Repos: 8, Files: 10, Seed: 11, Corpus: corpus, Layout: layout}); err != nil {
			t.Fatal(err)
		}
		trees["bench-"+layout] = dir
	}
	params := filepath.Join(t.TempDir(), "params.yaml")
	if err := os.WriteFile(params, []byte("quorum:\n  min_voters: 5\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	custom := filepath.Join("..", "examples", "custom-policies")
	runs := []struct {
		name  string
		opts  policies.Options
		paths []string
	}{
		{"examples", policies.Options{}, []string{trees["examples"]}},
		{"corpus", policies.Options{}, []string{trees["corpus"]}},
		{"bench-separate", policies.Options{}, []string{trees["bench-separate"]}},
		{"bench-shared", policies.Options{}, []string{trees["bench-shared"]}},
		// The parameters are the plan's data: an override must apply.
		{"examples-params", policies.Options{Data: []string{params}}, []string{trees["examples"]}},
		{"custom-policies", policies.Options{
			Policies: []string{filepath.Join(custom, "policies")},
			Data:     []string{filepath.Join(custom, "thresholds.yaml")},
		}, []string{filepath.Join(custom, "configs")}},
	}
	out := map[string]string{}
	for _, r := range runs {
		t.Run(r.name, func(t *testing.T) {
			var reports [2][]byte
			for i, kind := range []policies.EngineKind{policies.EngineInterpreter, policies.EngineCompiled} {
				opts := r.opts
				opts.Engine = kind
				engine, err := Compile(ctx, opts)
				if err != nil {
					t.Fatal(err)
				}
				rep, err := Run(ctx, r.paths, Options{Engine: engine})
				if err != nil {
					t.Fatal(err)
				}
				if len(rep.Findings) == 0 {
					t.Fatalf("%s: no finding: nothing compared", kind)
				}
				var buf bytes.Buffer
				if err := report.Write(&buf, "json", rep, report.Options{}); err != nil {
					t.Fatal(err)
				}
				reports[i] = buf.Bytes()
			}
			if !bytes.Equal(reports[0], reports[1]) {
				t.Fatalf("the reports differ (-interpreter +compiled):\n%s", lineDiff(string(reports[0]), string(reports[1])))
			}
			out[r.name] = string(reports[1])
		})
	}
	if out["examples"] != "" && out["examples"] == out["examples-params"] {
		t.Error("quorum.min_voters: 5 changed no finding on examples/: the parameters did not reach the rules")
	}
	if s := out["custom-policies"]; s != "" && !strings.Contains(s, `"ACME`) {
		t.Error("no custom rule's finding in the custom-policies run")
	}
}

// lineDiff lists the lines of a and b that the other lacks (enough to see
// which finding differs).
func lineDiff(a, b string) string {
	in := func(s string) map[string]int {
		m := map[string]int{}
		for l := range strings.SplitSeq(s, "\n") {
			m[l]++
		}
		return m
	}
	ma, mb := in(a), in(b)
	var out []string
	for l := range strings.SplitSeq(a, "\n") {
		if mb[l] < ma[l] {
			out = append(out, "-"+l)
		}
	}
	for l := range strings.SplitSeq(b, "\n") {
		if ma[l] < mb[l] {
			out = append(out, "+"+l)
		}
	}
	if len(out) > 40 {
		out = append(out[:40], "...")
	}
	return strings.Join(out, "\n")
}
