package loader

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestLoadSourcesMatchesLoad loads every example from memory and requires
// the same result as loading the files from disk. The files the adapters
// read beside a source (a compose .env, a chart's Chart.yaml) are not
// sources: they are read from Options.SourceRoot.
func TestLoadSourcesMatchesLoad(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", "examples"))
	if err != nil {
		t.Fatal(err)
	}
	neighbors := map[string]bool{}
	var kept []Source
	var paths []string
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
		kept = append(kept, Source{Name: filepath.ToSlash(rel), Data: data})
		paths = append(paths, p)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(kept) < 20 || len(neighbors) == 0 {
		t.Fatalf("only %d example files to compare, %d directories with files beside them", len(kept), len(neighbors))
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
	opts.SourceRoot = root
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

// TestLoadSourcesBesideFiles: a file read beside a source is another
// source of that name (an unsaved buffer) before the file in
// Options.SourceRoot, and missing without a root.
func TestLoadSourcesBesideFiles(t *testing.T) {
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "prod"), 0o750); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "prod", ".env"), []byte("RF=2\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	compose := Source{Name: "prod/docker-compose.yml", Data: []byte(`services:
  kafka:
    image: apache/kafka:3.9.0
    environment:
      KAFKA_PROCESS_ROLES: broker,controller
      KAFKA_NODE_ID: 1
      KAFKA_DEFAULT_REPLICATION_FACTOR: ${RF}
`)}
	rf := func(sources []Source, root string) string {
		t.Helper()
		res, err := LoadSources(sources, Options{SourceRoot: root})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Clusters) != 1 || len(res.Clusters[0].Nodes) != 1 {
			t.Fatalf("want one node, got %s", jsonOf(t, res.Clusters))
		}
		s := res.Clusters[0].Nodes[0].Settings["default.replication.factor"]
		if s == nil {
			return "unset"
		}
		return fmt.Sprint(s.Value)
	}
	if got := rf([]Source{compose}, root); got != "2" {
		t.Errorf("with the root, default.replication.factor = %q, want .env's 2", got)
	}
	buffer := Source{Name: "prod/.env", Format: "properties", Data: []byte("RF=3\n")}
	if got := rf([]Source{compose, buffer}, root); got != "3" {
		t.Errorf("with a .env source, default.replication.factor = %q, want its 3", got)
	}
	if got := rf([]Source{compose}, ""); got == "2" {
		t.Errorf("without a root, default.replication.factor = %q, read from the disk", got)
	}
	// Confined to the root: a .env linking outside it is refused.
	outside := filepath.Join(t.TempDir(), "secret.env")
	if err := os.WriteFile(outside, []byte("RF=2\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(root, "prod", ".env")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(root, "prod", ".env")); err != nil {
		t.Fatal(err)
	}
	res, err := LoadSources([]Source{compose}, Options{SourceRoot: root})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Errors) != 1 || res.Errors[0].File != "prod/.env" {
		t.Errorf("a .env linking outside the root: errors = %+v, want prod/.env refused", res.Errors)
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
