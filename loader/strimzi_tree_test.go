package loader_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kafkalint/kafkalint/lint"
	"github.com/kafkalint/kafkalint/loader"
)

// strimziTree lints one layout of testdata/strimzi-tree (a Kafka resource
// and its node pools, in one file or spread over a directory tree) in
// production and returns its findings as "ID message", sorted, and the
// files of each of its clusters.
func strimziTree(t *testing.T, layout string) (findings, clusters []string) {
	t.Helper()
	return lintTree(t, treeSources(t, layout))
}

// treeSources are the files of one layout, named relative to it.
func treeSources(t *testing.T, layout string) []loader.Source {
	t.Helper()
	dir := filepath.Join("testdata", "strimzi-tree", layout)
	var sources []loader.Source
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		sources = append(sources, loader.Source{Name: filepath.ToSlash(rel), Data: data})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return sources
}

func lintTree(t *testing.T, sources []loader.Source) (findings, clusters []string) {
	t.Helper()
	rep, err := lint.Run(t.Context(), nil, lint.Options{Sources: sources, Load: loader.Options{Environment: "production"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Errors) > 0 {
		t.Fatalf("load errors: %+v", rep.Errors)
	}
	for _, f := range rep.Findings {
		findings = append(findings, f.ID+" "+f.Message)
	}
	slices.Sort(findings)
	res, err := loader.LoadSources(sources, loader.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// Every file but a kustomization holds a resource of a cluster.
	kustomizations := 0
	for _, s := range sources {
		if strings.HasSuffix(s.Name, "kustomization.yaml") {
			kustomizations++
		}
	}
	if res.Skipped != kustomizations {
		t.Errorf("%d files skipped, want %d (the kustomizations)", res.Skipped, kustomizations)
	}
	for _, c := range res.Clusters {
		var files []string
		for _, f := range c.Files {
			files = append(files, f.Path)
		}
		slices.Sort(files)
		clusters = append(clusters, strings.Join(slices.Compact(files), " "))
	}
	return findings, clusters
}

// TestStrimziResourcePerFile: a Kafka resource and its node pools in
// separate files — beside each other, pools in a subfolder, or siblings a
// kustomization builds together — are the cluster they are in one file,
// with the same findings (the Kafka resource's RF 1 settings and plain
// listener judged, no RF-above-brokers error from Kafka's defaults).
func TestStrimziResourcePerFile(t *testing.T) {
	t.Parallel()
	want, clusters := strimziTree(t, "single")
	if len(clusters) != 1 {
		t.Fatalf("single file: clusters %q, want one", clusters)
	}
	for _, id := range []string{"KFK1001", "KFK2001"} {
		if !slices.ContainsFunc(want, func(f string) bool { return strings.HasPrefix(f, id+" ") }) {
			t.Errorf("single file: no %s among %q", id, want)
		}
	}
	for _, layout := range []string{"flat", "nested", "kustomize"} {
		got, clusters := strimziTree(t, layout)
		if len(clusters) != 1 {
			t.Errorf("%s: clusters %q, want one", layout, clusters)
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("%s: findings differ from the single-file cluster (-single +%s):\n%s", layout, layout, d)
		}
	}
}

// TestStrimziResourcePerFileApart: without a kustomization, a pool in a
// sibling directory, or one whose label names two Kafka resources of its
// directory, stays without a Kafka resource.
func TestStrimziResourcePerFileApart(t *testing.T) {
	t.Parallel()
	for layout, pool := range map[string]string{"apart": "pools/broker.yaml", "ambiguous": "pool-broker.yaml"} {
		_, clusters := strimziTree(t, layout)
		i := slices.IndexFunc(clusters, func(c string) bool { return strings.Contains(c, pool) })
		if i < 0 || strings.Contains(clusters[i], "kafka") {
			t.Errorf("%s: clusters %q: want %s apart from any Kafka resource", layout, clusters, pool)
		}
	}
}

// TestStrimziResourcePerFileDirective: an inline directive in the Kafka
// resource's file applies to the findings there when its pools are in
// other files.
func TestStrimziResourcePerFileDirective(t *testing.T) {
	t.Parallel()
	sources := treeSources(t, "nested")
	i := slices.IndexFunc(sources, func(s loader.Source) bool { return s.Name == "kafka.yaml" })
	line := "offsets.topic.replication.factor: 1\n"
	if i < 0 || !strings.Contains(string(sources[i].Data), line) {
		t.Fatalf("nested/kafka.yaml does not set %q", line)
	}
	before, _ := lintTree(t, sources)
	sources[i].Data = []byte(strings.Replace(string(sources[i].Data), line,
		"offsets.topic.replication.factor: 1 # kafkalint:ignore KFK1001 -- single-broker lab\n", 1))
	after, _ := lintTree(t, sources)
	has := func(fs []string) bool {
		return slices.ContainsFunc(fs, func(f string) bool { return strings.HasPrefix(f, "KFK1001 ") })
	}
	if !has(before) || has(after) {
		t.Errorf("KFK1001 before the directive: %v, after: %v; want it, then not", has(before), has(after))
	}
}
