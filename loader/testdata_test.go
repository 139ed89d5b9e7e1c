package loader

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kafkalint/kafkalint/internal/testcorpus"
)

// This file is where the package's tests find what lies outside them: the
// golden files (one -update flag rewrites them all) and the real-world
// corpus.

var update = flag.Bool("update", false, "rewrite the golden files (testdata/yaml/*.golden.json, terraform/testdata/*/model.golden.json)")

// checkGolden compares got with the golden file, or under -update writes
// got to it.
func checkGolden(t *testing.T, golden string, got []byte) {
	t.Helper()
	if *update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test ./loader -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s mismatch (-want +got); rerun with -update if intended:\n%s", golden, diff)
	}
}

// corpusDir is the real-world corpus beside the repository (testcorpus):
// real configuration files from public repositories.
func corpusDir(tb testing.TB) string {
	tb.Helper()
	return testcorpus.Dir(tb)
}

// CorpusDir is corpusDir for the package's external tests (bench_test.go).
var CorpusDir = corpusDir

// loadCorpusFolder loads one corpus folder (its files named one by one,
// or the folder walked), fails the test on any load error, and returns the
// folder's files (relative, slash-separated), every loaded file by path, and
// the result.
func loadCorpusFolder(t *testing.T, root, folder string, walk bool) ([]string, map[string]*SourceFile, *Result) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(root, folder, "*"))
	if err != nil || len(files) == 0 {
		t.Fatalf("%s: no files (%v)", folder, err)
	}
	paths := files
	if walk {
		paths = []string{filepath.Join(root, folder)}
	}
	res, err := Load(paths, Options{Dir: root})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range res.Errors {
		t.Errorf("load error: %v", e)
	}
	got := map[string]*SourceFile{}
	for _, c := range res.Clusters {
		for _, f := range c.Files {
			got[f.Path] = f
		}
	}
	rels := make([]string, len(files))
	for i, f := range files {
		rel, _ := filepath.Rel(root, f)
		rels[i] = filepath.ToSlash(rel)
	}
	return rels, got, res
}

// TestCorpusProperties loads every real-world properties file: no load
// error, and each file is recognized as what its corpus folder says it is.
func TestCorpusProperties(t *testing.T) {
	root := corpusDir(t)
	wantKind := map[string]string{
		"broker-properties": KindNode,
		"client-properties": KindClient,
		"meta-properties":   KindMeta,
		"mm2-properties":    KindMirrorMaker,
	}
	for folder, kind := range wantKind {
		// Walked too: the client samples named *.config are read when
		// found in a directory (issue 16).
		for _, walk := range []bool{false, true} {
			files, got, _ := loadCorpusFolder(t, root, folder, walk)
			for _, rel := range files {
				if f := got[rel]; f == nil || f.Kind != kind {
					t.Errorf("%s (walked %v): loaded as %+v, want kind %q", rel, walk, f, kind)
				}
			}
		}
	}
}
