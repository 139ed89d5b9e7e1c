package gen

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kafkalint/kafkalint/internal/testcorpus"
	"github.com/kafkalint/kafkalint/loader"
)

func corpusOrSkip(t *testing.T) string {
	t.Helper()
	return testcorpus.Dir(t)
}

// readTree maps every file's slash path under root to its content.
func readTree(t *testing.T, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		out[filepath.ToSlash(rel)] = string(b)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestDeterministic: the same options write the same bytes, and a smaller
// tree is a prefix of a larger one (repository i does not depend on the
// number of repositories).
func TestDeterministic(t *testing.T) {
	c := corpusOrSkip(t)
	a, b, small := t.TempDir(), t.TempDir(), t.TempDir()
	for _, dir := range []string{a, b} {
		if _, err := Write(dir, Options{Repos: 30, Files: 10, Seed: 7, Corpus: c}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := Write(small, Options{Repos: 12, Files: 10, Seed: 7, Corpus: c}); err != nil {
		t.Fatal(err)
	}
	ta, tb, ts := readTree(t, a), readTree(t, b), readTree(t, small)
	if len(ta) != 300 || len(tb) != 300 || len(ts) != 120 {
		t.Fatalf("files: %d, %d, %d; want 300, 300, 120", len(ta), len(tb), len(ts))
	}
	for p, data := range ta {
		if tb[p] != data {
			t.Errorf("%s differs between two runs with the same seed", p)
		}
	}
	for p, data := range ts {
		if ta[p] != data {
			t.Errorf("%s of a 12-repository tree differs from the 30-repository tree's", p)
		}
	}
	other := t.TempDir()
	if _, err := Write(other, Options{Repos: 30, Files: 10, Seed: 8, Corpus: c}); err != nil {
		t.Fatal(err)
	}
	same := 0
	for p, data := range readTree(t, other) {
		if ta[p] == data {
			same++
		}
	}
	if same == len(ta) {
		t.Error("another seed writes the same tree")
	}
}

// TestTreeShape: every repository holds exactly Files files, every format
// is present, and the loader never groups files of two repositories into
// one cluster (the generator gives each repository its own hosts and
// cluster ids), so that lint time grows with the number of repositories.
func TestTreeShape(t *testing.T) {
	c := corpusOrSkip(t)
	dir := t.TempDir()
	stats, err := Write(dir, Options{Repos: 60, Files: 10, Seed: 1, Corpus: c})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"properties", "tf", "yaml"} {
		if stats[f] == 0 {
			t.Errorf("no %s files: %s", f, stats)
		}
	}
	perRepo := map[string]int{}
	for p := range readTree(t, dir) {
		repo, _, _ := strings.Cut(p, "/")
		perRepo[repo]++
	}
	if len(perRepo) != 60 {
		t.Errorf("%d repositories, want 60", len(perRepo))
	}
	for repo, n := range perRepo {
		if n != 10 {
			t.Errorf("%s: %d files, want 10", repo, n)
		}
	}
	res, err := loader.Load([]string{dir}, loader.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	multi := 0
	for _, cl := range res.Clusters {
		repos := map[string]bool{}
		for _, f := range cl.Files {
			repo, _, _ := strings.Cut(f.Path, "/")
			repos[repo] = true
		}
		if len(repos) > 1 {
			t.Errorf("cluster %s spans repositories %v", cl.Name, repos)
		}
		if len(cl.Nodes) >= 3 {
			multi++
		}
	}
	if multi == 0 {
		t.Error("no cluster of 3 or more nodes: the kraft and zookeeper shapes are not grouped")
	}
}

// TestSharedLayout: the shared layout joins the node configs of many
// repositories into a few large clusters (copies of the same real
// clusters' configs), and a tree of twice the repositories makes them about
// twice as large; the default layout is the separate one.
func TestSharedLayout(t *testing.T) {
	if testing.Short() {
		t.Skip("generates and loads trees of 40 and 80 repositories (seconds): not in the -short tier")
	}
	c := corpusOrSkip(t)
	largest := func(repos int, layout string) (nodes, spanned int) {
		dir := t.TempDir()
		if _, err := Write(dir, Options{Repos: repos, Files: 10, Seed: 1, Corpus: c, Layout: layout}); err != nil {
			t.Fatal(err)
		}
		res, err := loader.Load([]string{dir}, loader.Options{Dir: dir})
		if err != nil {
			t.Fatal(err)
		}
		for _, cl := range res.Clusters {
			if len(cl.Nodes) <= nodes {
				continue
			}
			repos := map[string]bool{}
			for _, f := range cl.Files {
				repo, _, _ := strings.Cut(f.Path, "/")
				repos[repo] = true
			}
			nodes, spanned = len(cl.Nodes), len(repos)
		}
		return nodes, spanned
	}
	n1, spanned := largest(40, LayoutShared)
	if n1 < 40 || spanned < 8 {
		t.Errorf("shared layout, 40 repositories: the largest cluster has %d nodes from %d repositories, want >= 40 from >= 8", n1, spanned)
	}
	if n2, _ := largest(80, LayoutShared); n2 < n1*3/2 {
		t.Errorf("shared layout: the largest cluster has %d nodes for 40 repositories, %d for 80; want it to grow with the tree", n1, n2)
	}
	if _, spanned := largest(40, ""); spanned > 1 {
		t.Errorf("default layout: a cluster spans %d repositories", spanned)
	}
	if _, err := Write(t.TempDir(), Options{Repos: 1, Files: 10, Corpus: c, Layout: "monorepo"}); err == nil {
		t.Error("an unknown layout is accepted")
	}
}
