package policies

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRelatedCapped: a disagreement among many nodes lists the nearest 10
// other parties in Related and counts the rest in RelatedOmitted (decoded
// from the Rego finding's related_omitted), and its message names the
// first 5 files and how many more.
func TestRelatedCapped(t *testing.T) {
	dir := t.TempDir()
	const voters = "controller.quorum.voters=1@ctl-1.eu1.internal:9093\n"
	for i := range 14 {
		minISR := 2
		if i == 0 {
			minISR = 3
		}
		body := fmt.Sprintf("process.roles=broker\nnode.id=%d\nlisteners=PLAINTEXT://kafka-%d.eu1.internal:9092\ncontroller.listener.names=CONTROLLER\n%smin.insync.replicas=%d\n", 100+i, i, voters, minISR)
		p := filepath.Join(dir, fmt.Sprintf("svc-%02d", i), "broker.properties")
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	clusters := loadClusters(t, dir)
	if len(clusters) != 1 || len(clusters[0].Nodes) != 14 {
		t.Fatalf("want one cluster of 14 nodes, got %d clusters", len(clusters))
	}
	engine, err := Builtin()
	if err != nil {
		t.Fatal(err)
	}
	findings, err := engine.Evaluate(context.Background(), clusters[0])
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, f := range findings {
		if f.Slug != "cluster-setting-inconsistent" {
			continue
		}
		found = true
		if f.File != "svc-00/broker.properties" {
			t.Errorf("finding at %s, want the odd one out, svc-00/broker.properties", f.File)
		}
		if len(f.Related) != 10 || f.RelatedOmitted != 3 {
			t.Errorf("related: %d listed, %d omitted; want 10 and 3 (13 others)", len(f.Related), f.RelatedOmitted)
		}
		for i, r := range f.Related {
			if want := fmt.Sprintf("svc-%02d/broker.properties", i+1); r.File != want {
				t.Errorf("related[%d] = %s, want %s (path order)", i, r.File, want)
			}
		}
		if want := "svc-05/broker.properties and 8 more"; !strings.Contains(f.Why, want) {
			t.Errorf("why %q does not end its file list with %q", f.Why, want)
		}
	}
	if !found {
		t.Fatalf("no cluster-setting-inconsistent finding among %v", findings)
	}
}
