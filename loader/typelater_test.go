package loader

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestTypeLater: a load with Options.TypeLater leaves the nodes' and
// clients' settings untyped, and once each cluster is typed the model is
// the one an eager load builds, on the examples and the corpus.
func TestTypeLater(t *testing.T) {
	keys := map[string][]string{
		"broker":   {"min.insync.replicas", "default.replication.factor", "controlled.shutdown.enable"},
		"producer": {"acks", "enable.idempotence"},
		"consumer": {"enable.auto.commit"},
	}
	for _, dir := range []string{filepath.Join("..", "examples"), corpusDir(t)} {
		eager := load(t, dir, Options{DefaultKeys: keys})
		later := load(t, dir, Options{DefaultKeys: keys, TypeLater: true})
		untyped := 0
		for _, c := range later.Clusters {
			for _, n := range c.Nodes {
				if n.Settings == nil {
					untyped++
				}
			}
			for _, cl := range c.Clients {
				if cl.Settings == nil {
					untyped++
				}
			}
			c.Type()
			c.Type() // a second call does nothing
		}
		if untyped == 0 {
			t.Errorf("%s: every node and client is typed before Cluster.Type", dir)
		}
		want, err := json.Marshal(eager)
		if err != nil {
			t.Fatal(err)
		}
		got, err := json.Marshal(later)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(string(want), string(got)); diff != "" {
			t.Errorf("%s: typed later, the model differs (-eager +later):\n%.2000s", dir, diff)
		}
	}
}
