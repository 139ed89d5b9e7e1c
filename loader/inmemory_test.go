package loader

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestLoadSourcesMatchesLoad loads every example from memory and requires
// the same result as loading the directory from disk. Directories with a
// file the adapters read beside a source (a compose .env) are left out:
// in-memory sources have no neighbors.
func TestLoadSourcesMatchesLoad(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", "examples"))
	if err != nil {
		t.Fatal(err)
	}
	neighbors := map[string]bool{}
	var sources []Source
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if d.Name() == ".env" || d.Name() == "Chart.yaml" {
			neighbors[filepath.Dir(p)] = true
			return nil
		}
		if formatFor(p, false) == nil {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		sources = append(sources, Source{Name: filepath.ToSlash(rel), Data: data})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var kept []Source
	var paths []string
	for _, s := range sources {
		dir := filepath.Join(root, filepath.Dir(filepath.FromSlash(s.Name)))
		if !neighbors[dir] {
			kept = append(kept, s)
			paths = append(paths, filepath.Join(root, filepath.FromSlash(s.Name)))
		}
	}
	if len(kept) < 20 {
		t.Fatalf("only %d example files to compare", len(kept))
	}
	opts := Options{Dir: root, DefaultKeys: map[string][]string{"broker": {"min.insync.replicas"}}}
	fromDisk, err := Load(paths, opts)
	if err != nil {
		t.Fatal(err)
	}
	// Files named on the command line are read whatever their name; name the
	// formats so that LoadSources reads each with the adapter Load picked.
	for i := range kept {
		kept[i].Format = formatFor(kept[i].Name, false).name()
	}
	fromMemory, err := LoadSources(kept, opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(fromDisk.Clusters) == 0 {
		t.Fatal("no clusters loaded from the examples")
	}
	if diff := cmp.Diff(jsonOf(t, fromDisk), jsonOf(t, fromMemory)); diff != "" {
		t.Errorf("LoadSources differs from Load (-disk +memory):\n%s", diff)
	}
}

func jsonOf(t *testing.T, v any) string {
	t.Helper()
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestLoadSourcesEnvironmentAndErrors(t *testing.T) {
	res, err := LoadSources([]Source{
		{Name: "prod/server.properties", Data: []byte("process.roles=broker\nnode.id=1\n")},
		{Name: "dev/broken.properties", Data: []byte("a=\\uZZZZ\n")},
	}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Clusters) != 1 || res.Clusters[0].Nodes[0].Environment != "production" {
		t.Fatalf("want one production cluster, got %s", jsonOf(t, res.Clusters))
	}
	if len(res.Errors) != 1 || res.Errors[0].File != "dev/broken.properties" || res.Errors[0].Line == 0 {
		t.Errorf("want the parse error of dev/broken.properties with its line, got %+v", res.Errors)
	}
	if res.Files != 2 {
		t.Errorf("Files = %d, want 2", res.Files)
	}

	for _, tc := range []struct {
		src  Source
		want string
	}{
		{Source{Name: "/abs/server.properties"}, "relative path"},
		{Source{Name: "../up.properties"}, "relative path"},
		{Source{Name: "main.tf", Format: "hcl"}, `unknown format "hcl"`},
		{Source{Name: "server.properties", Format: "terraform"}, "not a terraform file name"},
	} {
		if _, err := LoadSources([]Source{tc.src}, Options{}); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("LoadSources(%+v) error = %v, want %q", tc.src, err, tc.want)
		}
	}
	if _, err := LoadSources([]Source{{Name: "a.properties"}, {Name: "./a.properties"}}, Options{}); err == nil {
		t.Error("a name given twice is accepted")
	}
}
