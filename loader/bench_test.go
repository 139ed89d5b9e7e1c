package loader_test

import (
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"

	"github.com/kafkalint/kafkalint/bench/gen"
	"github.com/kafkalint/kafkalint/loader"
	"github.com/kafkalint/kafkalint/policies"
)

// Benchmarks of loading (never timed assertions; run with
// go test -bench . -run '^$' ./loader). BENCH_REPOS sets the size of the
// generated tree (default 100 repositories x 10 files).

func root() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..")
}

func corpusDir(b *testing.B) string {
	b.Helper()
	dir := filepath.Join(root(), "..", "shared", "corpus", "real-world")
	if _, err := os.Stat(dir); err != nil {
		if os.Getenv("CI") != "" {
			b.Fatalf("real-world corpus missing in CI: %v", err)
		}
		b.Skipf("real-world corpus not found at %s", dir)
	}
	return dir
}

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
	if _, err := gen.Write(tree, gen.Options{Repos: repos, Files: 10, Seed: 1, Corpus: corpusDir(b)}); err != nil {
		b.Fatal(err)
	}
	benchLoad(b, tree)
}

// BenchmarkLoadCorpus loads the real-world corpus as it is.
func BenchmarkLoadCorpus(b *testing.B) {
	benchLoad(b, corpusDir(b))
}

// BenchmarkLoadExamples loads examples/.
func BenchmarkLoadExamples(b *testing.B) {
	benchLoad(b, filepath.Join(root(), "examples"))
}

func parsePositive(s string) (int, error) {
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 {
		return 0, os.ErrInvalid
	}
	return n, nil
}
