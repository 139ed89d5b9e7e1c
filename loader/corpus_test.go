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
		files, err := filepath.Glob(filepath.Join(root, folder, "*"))
		if err != nil || len(files) == 0 {
			t.Fatalf("%s: no files (%v)", folder, err)
		}
		res, err := Load(files, Options{Dir: root})
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range res.Errors {
			t.Errorf("load error: %v", e)
		}
		got := map[string]string{}
		for _, c := range res.Clusters {
			for _, f := range c.Files {
				got[f.Path] = f.Kind
			}
		}
		for _, f := range files {
			rel, _ := filepath.Rel(root, f)
			rel = filepath.ToSlash(rel)
			if got[rel] != kind {
				t.Errorf("%s: kind %q, want %q", rel, got[rel], kind)
			}
		}
	}
}
