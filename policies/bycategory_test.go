package policies

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/kafkalint/kafkalint/loader"
)

// TestEvalByCategoryMatchesOneQuery: the category-at-a-time evaluation a
// large cluster gets finds exactly what the one query over every rule
// finds, on every cluster of examples/ and the corpus, for the embedded
// engine and for one loaded with parameters (prepared with other options).
func TestEvalByCategoryMatchesOneQuery(t *testing.T) {
	if testing.Short() {
		t.Skip("equivalence oracle over the corpus: runs without -short")
	}
	builtin, err := builtinInterpreter()
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	params := filepath.Join(t.TempDir(), "params.yaml")
	if err := os.WriteFile(params, []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	loaded, err := Load(ctx, Options{Data: []string{params}, Engine: EngineInterpreter})
	if err != nil {
		t.Fatal(err)
	}
	findings := 0
	var clusters []*loader.Cluster
	for _, dir := range []string{filepath.Join(repoRoot(), "examples"), corpusOrSkip(t)} {
		clusters = append(clusters, loadClusters(t, dir)...)
	}
	for _, engine := range []*Engine{builtin, loaded} {
		for _, cl := range clusters {
			in, err := toValue(cl)
			if err != nil {
				t.Fatal(err)
			}
			want, err := engine.eval(ctx, engine.query, in)
			if err != nil {
				t.Fatal(err)
			}
			got, err := engine.evalByCategory(ctx, in)
			if err != nil {
				t.Fatal(err)
			}
			sameReported(t, cl.Name+" (-one query +by category)", want, got)
			findings += len(got)
		}
	}
	if findings == 0 {
		t.Fatal("no finding at all: nothing was compared")
	}
}
