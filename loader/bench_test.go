package loader_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/kafkalint/kafkalint/bench/gen"
	"github.com/kafkalint/kafkalint/loader"
	"github.com/kafkalint/kafkalint/policies"
)

// Benchmarks of loading (never timed assertions; run with
// go test -bench . -run '^$' ./loader). BENCH_REPOS sets the size of the
// generated tree (default 100 repositories x 10 files).

func defaultKeys(b *testing.B) map[string][]string {
	b.Helper()
	engine, err := policies.Builtin()
	if err != nil {
		b.Fatal(err)
	}
	return engine.DefaultKeys()
}

func benchLoad(b *testing.B, dir string) {
	b.Helper()
	opts := loader.Options{Dir: dir, DefaultKeys: defaultKeys(b)}
	files := 0
	for b.Loop() {
		res, err := loader.Load([]string{dir}, opts)
		if err != nil {
			b.Fatal(err)
		}
		files = res.Files
	}
	b.ReportMetric(float64(files*b.N)/b.Elapsed().Seconds(), "files/s")
}

// BenchmarkLoadTree loads a generated bulk tree (bench/gen): every format
// the loader reads, clusters of up to 8 files, 10 files per repository.
func BenchmarkLoadTree(b *testing.B) {
	tree := b.TempDir()
	repos := 100
	if n, err := parsePositive(os.Getenv("BENCH_REPOS")); err == nil {
		repos = n
	}
	if _, err := gen.Write(tree, gen.Options{Repos: repos, Files: 10, Seed: 1, Corpus: loader.CorpusDir(b)}); err != nil {
		b.Fatal(err)
	}
	benchLoad(b, tree)
}

// BenchmarkLoadCorpus loads the real-world corpus as it is.
func BenchmarkLoadCorpus(b *testing.B) {
	benchLoad(b, loader.CorpusDir(b))
}

// BenchmarkLoadExamples loads examples/.
func BenchmarkLoadExamples(b *testing.B) {
	benchLoad(b, filepath.Join("..", "examples"))
}

func parsePositive(s string) (int, error) {
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 {
		return 0, os.ErrInvalid
	}
	return n, nil
}

// hostileShapes are the inputs of one file that were once quadratic or
// ran out of memory, each at sizes n and 2n below the limits
// (docs/model.md "Limits"): ns/op should double with the size, B/op too.
// Run with go test -bench Shapes -run '^$' ./loader.
var hostileShapes = []struct {
	name  string
	sizes []int
	text  func(n int) string
}{
	{"continuations", []int{20_000, 40_000}, func(n int) string {
		return "process.roles=broker\nnode.id=1\nx=" + strings.Repeat("abcd\\\n", n) + "end\n"
	}},
	{"keys", []int{loader.MaxKeysPerFile / 2, loader.MaxKeysPerFile - 2}, func(n int) string {
		var b strings.Builder
		b.WriteString("process.roles=broker\nnode.id=1\n")
		for i := range n {
			fmt.Fprintf(&b, "k%d=v%d\n", i, i)
		}
		return b.String()
	}},
	{"long-line", []int{loader.MaxLineBytes / 4, loader.MaxLineBytes / 2}, func(n int) string {
		return "process.roles=broker\nnode.id=1\nx=" + strings.Repeat("a", n) + "\n"
	}},
	{"voters", []int{500, 1_000}, func(n int) string {
		return "process.roles=broker,controller\nnode.id=1\ncontroller.quorum.voters=" + votersLine(n) + "\n"
	}},
	// Past the limit of entries of one list: refused, at the cost of
	// reading the line.
	{"voters-refused", []int{2_000, 4_000}, func(n int) string {
		return "process.roles=broker,controller\nnode.id=1\ncontroller.quorum.voters=" + votersLine(n) + "\n"
	}},
}

func votersLine(n int) string {
	entries := make([]string, n)
	for i := range entries {
		entries[i] = fmt.Sprintf("%d@ctl-%d.internal:9093", i, i)
	}
	return strings.Join(entries, ",")
}

// BenchmarkShapesLoad loads each hostile shape from memory.
func BenchmarkShapesLoad(b *testing.B) {
	benchShapes(b, loader.Options{DefaultKeys: defaultKeys(b)}, nil)
}

// BenchmarkShapesLint loads and evaluates each hostile shape with the
// built-in rules: the rules' share (the voters shape is quadratic in
// Rego until the rules comparing voters are linear).
func BenchmarkShapesLint(b *testing.B) {
	engine, err := policies.Builtin()
	if err != nil {
		b.Fatal(err)
	}
	benchShapes(b, loader.Options{DefaultKeys: engine.DefaultKeys()}, engine)
}

// benchShapes loads every size of every shape, and evaluates the clusters
// when engine is not nil.
func benchShapes(b *testing.B, opts loader.Options, engine *policies.Engine) {
	for _, shape := range hostileShapes {
		for _, n := range shape.sizes {
			src := []loader.Source{{Name: "server.properties", Data: []byte(shape.text(n))}}
			b.Run(fmt.Sprintf("%s/n=%d", shape.name, n), func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(len(src[0].Data)))
				for b.Loop() {
					res, err := loader.LoadSources(src, opts)
					if err != nil {
						b.Fatal(err)
					}
					if engine == nil {
						continue
					}
					for _, c := range res.Clusters {
						if _, err := engine.Evaluate(b.Context(), c); err != nil {
							b.Fatal(err)
						}
					}
				}
			})
		}
	}
}
