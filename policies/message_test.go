package policies

import (
	"context"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/kafkalint/kafkalint/bench/gen"
)

// maxMessage is the longest finding message: what is wrong, with the
// value, on one line of a CI log or an editor's hover (the why and the
// fix are separate fields).
const maxMessage = 120

// TestMessagesAreShort: every finding on examples/, the real-world corpus
// and a generated bulk tree has a message of at most maxMessage
// characters on one line, a why and a fix.
func TestMessagesAreShort(t *testing.T) {
	if testing.Short() {
		t.Skip("evaluates the whole corpus (seconds): not in the -short tier")
	}
	engine, err := Builtin()
	if err != nil {
		t.Fatal(err)
	}
	tree := t.TempDir()
	if _, err := gen.Write(tree, gen.Options{Repos: 20, Files: 10, Seed: 5, Corpus: corpusOrSkip(t), Layout: gen.LayoutShared}); err != nil {
		t.Fatal(err)
	}
	bad := map[string]string{} // rule id -> its first problem
	for _, dir := range []string{filepath.Join(repoRoot(), "examples"), corpusOrSkip(t), tree} {
		for _, c := range loadClusters(t, dir) {
			fs, err := engine.Evaluate(context.Background(), c)
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range fs {
				var problem string
				switch n := utf8.RuneCountInString(f.Message); {
				case n > maxMessage:
					problem = fmt.Sprintf("message of %d characters: %s", n, f.Message)
				case strings.ContainsAny(f.Message, "\n\r"):
					problem = "message of several lines: " + f.Message
				case f.Why == "" || f.Fix == "":
					problem = "no why or no fix: " + f.Message
				}
				if problem != "" && bad[f.ID] == "" {
					bad[f.ID] = problem
				}
			}
		}
	}
	for _, id := range slices.Sorted(maps.Keys(bad)) {
		t.Errorf("%s: %s", id, bad[id])
	}
}
