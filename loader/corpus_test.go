package loader

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// corpusDir is ../shared/corpus/real-world beside the repository: real
// configuration files from public repositories.
func corpusDir(t *testing.T) string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	dir := filepath.Join(filepath.Dir(file), "..", "..", "shared", "corpus", "real-world")
	if _, err := os.Stat(dir); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("real-world corpus missing in CI: %v", err)
		}
		t.Skipf("real-world corpus not found at %s", dir)
	}
	return dir
}

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
		files, got, _ := loadCorpusFolder(t, root, folder, false)
		for _, rel := range files {
			if f := got[rel]; f == nil || f.Kind != kind {
				t.Errorf("%s: loaded as %+v, want kind %q", rel, f, kind)
			}
		}
	}
}
