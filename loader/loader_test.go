package loader

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func write(t *testing.T, dir, name, text string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
}

func load(t *testing.T, dir string, opts Options) *Result {
	t.Helper()
	opts.Dir = dir
	res, err := Load([]string{dir}, opts)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestEnvironmentOf(t *testing.T) {
	tests := []struct{ path, env, source string }{
		{"deploy/prod/kafka/server.properties", "production", EnvFromPath},
		{"deploy/prod/dev-tools/server.properties", "development", EnvFromPath}, // nearest wins
		{"envs/uat/server.properties", "staging", EnvFromPath},
		{"kafka/server-live.properties", "production", EnvFromPath},
		{"kafka/server.properties", EnvUnknown, EnvUnknown},
		{"production-eu/a/b.properties", "production", EnvFromPath},
		{"products/server.properties", EnvUnknown, EnvUnknown}, // no partial-word match
		// Sample and test material is development (issue 16) ...
		{"repo/examples/kafka/server.properties", "development", EnvFromPath},
		{"docs/kafka-quickstart/client.properties", "development", EnvFromPath},
		{"src/testresources/broker.properties", "development", EnvFromPath},
		{"src/testdata/broker.properties", "development", EnvFromPath},
		{"systemtest/broker.properties", "development", EnvFromPath},
		{"e2e/broker.properties", "development", EnvFromPath},
		{"kafka/demo_broker.properties", "development", EnvFromPath},
		// ... but a word naming an environment wins wherever it is ...
		{"examples/properties/production/broker.properties", "production", EnvFromPath},
		{"examples/compose/production/quickstart/compose.yaml", "production", EnvFromPath},
		{"prod/examples/server.properties", "production", EnvFromPath},
		// ... and words that only end in "test" are not tests.
		{"kafka/latest/server.properties", EnvUnknown, EnvUnknown},
		{"contest/server.properties", EnvUnknown, EnvUnknown},
		{"examplesite/server.properties", EnvUnknown, EnvUnknown},
	}
	for _, tt := range tests {
		env, src := environmentOf(tt.path, "")
		if env != tt.env || src != tt.source {
			t.Errorf("environmentOf(%q) = %s, %s; want %s, %s", tt.path, env, src, tt.env, tt.source)
		}
	}
	if env, src := environmentOf("deploy/prod/x.properties", "development"); env != "development" || src != EnvFromFlag {
		t.Errorf("forced environment = %s, %s", env, src)
	}
}

func TestClassify(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "a/server.properties", "process.roles=broker\nnode.id=1\n")
	write(t, dir, "a/zk.properties", "broker.id=0\nzookeeper.connect=zk:2181\n")
	write(t, dir, "b/producer.properties", "bootstrap.servers=k:9092\nacks=all\n")
	write(t, dir, "b/consumer.properties", "bootstrap.servers=k:9092\ngroup.id=g\n")
	write(t, dir, "b/admin.properties", "bootstrap.servers=k:9092\nsecurity.protocol=SSL\n")
	write(t, dir, "c/data/meta.properties", "version=1\ncluster.id=abc\nnode.id=1\n")
	write(t, dir, "d/mm2.properties", "clusters=a,b\na->b.enabled=true\n")
	write(t, dir, "e/log4j.properties", "log4j.rootLogger=INFO, stdout\n")
	write(t, dir, "e/notes.txt", "not read\n")
	res := load(t, dir, Options{})
	kinds := map[string]string{}
	for _, c := range res.Clusters {
		for _, f := range c.Files {
			kinds[f.Path] = f.Kind
		}
		for _, cl := range c.Clients {
			kinds[cl.File] += "/" + cl.Kind
		}
	}
	want := map[string]string{
		"a/server.properties": "node", "a/zk.properties": "node",
		"b/producer.properties": "client/producer", "b/consumer.properties": "client/consumer", "b/admin.properties": "client/admin",
		"c/data/meta.properties": "meta", "d/mm2.properties": "mirrormaker",
	}
	if diff := cmp.Diff(want, kinds); diff != "" {
		t.Errorf("kinds mismatch (-want +got):\n%s", diff)
	}
	if res.Files != 8 || res.Skipped != 1 {
		t.Errorf("files = %d, skipped = %d; want 8 read (notes.txt is not walked) and log4j skipped", res.Files, res.Skipped)
	}
}

func TestNodeModel(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "prod/c1.properties", "process.roles=controller\nnode.id=1\n"+
		"controller.quorum.voters=1@c1.example.com:9093,2@[::1]:9093,bad,3@c3.example.com:70000\n"+
		"listeners=CONTROLLER://c1.example.com:9093\ncontroller.listener.names=CONTROLLER\n")
	write(t, dir, "prod/b1.properties", "process.roles=broker\nbroker.id=7\n"+
		"controller.quorum.bootstrap.servers=c1.example.com:9093\n"+
		"listeners=INTERNAL://:9092,EXTERNAL://b1.example.com:9094\n"+
		"listener.security.protocol.map=INTERNAL:PLAINTEXT,EXTERNAL:SASL_SSL,CONTROLLER:SSL\n"+
		"controller.listener.names=CONTROLLER\nmin.insync.replicas=2\nunclean.leader.election.enable=TRUE\nnum.partitions=many\n")
	res := load(t, dir, Options{DefaultKeys: map[string][]string{"broker": {"min.insync.replicas", "offsets.topic.replication.factor"}}})
	if len(res.Clusters) != 1 {
		t.Fatalf("clusters = %d, want 1 (the broker bootstraps from the controller)", len(res.Clusters))
	}
	c := res.Clusters[0]
	ctrl, broker := c.Nodes[1], c.Nodes[0]
	if ctrl.File != "prod/c1.properties" || !ctrl.IsController || ctrl.IsBroker || ctrl.Quorum.Mode != "static" {
		t.Errorf("controller = %+v", ctrl)
	}
	var voters []string
	for _, v := range ctrl.Quorum.Voters {
		if v.Error != "" {
			voters = append(voters, v.Raw+" ERR")
			continue
		}
		voters = append(voters, v.Raw)
	}
	if diff := cmp.Diff([]string{"1@c1.example.com:9093", "2@[::1]:9093", "bad ERR", "3@c3.example.com:70000 ERR"}, voters); diff != "" {
		t.Errorf("voters mismatch (-want +got):\n%s", diff)
	}
	if v := ctrl.Quorum.Voters[1]; v.Host != "::1" || v.Port != 9093 || v.ID != 2 {
		t.Errorf("IPv6 voter = %+v", v)
	}
	if broker.ID == nil || *broker.ID != 7 || broker.Quorum.Mode != "dynamic" || !broker.IsBroker {
		t.Errorf("broker = %+v", broker)
	}
	got := map[string]string{}
	for _, l := range broker.Listeners {
		got[l.Name] = l.Host + "|" + l.Protocol
	}
	if diff := cmp.Diff(map[string]string{"INTERNAL": "|PLAINTEXT", "EXTERNAL": "b1.example.com|SASL_SSL"}, got); diff != "" {
		t.Errorf("listeners mismatch (-want +got):\n%s", diff)
	}
	s := broker.Settings
	if s["min.insync.replicas"].Value != int64(2) || s["min.insync.replicas"].Source != SourceExplicit || s["min.insync.replicas"].Loc.Line != 7 {
		t.Errorf("min.insync.replicas = %+v", s["min.insync.replicas"])
	}
	if s["unclean.leader.election.enable"].Value != true {
		t.Errorf("boolean parsing is case-insensitive like Kafka: %+v", s["unclean.leader.election.enable"])
	}
	if d := s["offsets.topic.replication.factor"]; d.Value != int64(3) || d.Source != SourceDefault || d.Loc.Line != 1 {
		t.Errorf("default = %+v", d)
	}
	if bad := s["num.partitions"]; bad.Value != nil || bad.Invalid == "" {
		t.Errorf("invalid int = %+v, want no value and a reason", bad)
	}
	if _, ok := ctrl.Settings["offsets.topic.replication.factor"]; !ok {
		t.Error("defaults apply to every node config")
	}
}

func TestDuplicates(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "s.properties", "node.id=1\na=1\na=2\nb=1\na=3\n")
	res := load(t, dir, Options{})
	d := res.Clusters[0].Files[0].Duplicates
	want := []Duplicate{
		{Key: "a", Loc: Location{File: "s.properties", Line: 3, Column: 1}, Previous: []Location{{File: "s.properties", Line: 2, Column: 1}}},
		{Key: "a", Loc: Location{File: "s.properties", Line: 5, Column: 1}, Previous: []Location{{File: "s.properties", Line: 2, Column: 1}, {File: "s.properties", Line: 3, Column: 1}}},
	}
	if diff := cmp.Diff(want, d); diff != "" {
		t.Errorf("duplicates mismatch (-want +got):\n%s", diff)
	}
	if v := res.Clusters[0].Nodes[0].Settings["a"].Raw; v != "3" {
		t.Errorf("a = %q, want the last value as Java keeps it", v)
	}
}

func TestTemplateIsMarkedAndBranchesAreNotDuplicates(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "s.properties", "node.id=1\n{% if combined %}\nprocess.roles=broker,controller\n{% else %}\nprocess.roles=broker\n{% endif %}\n")
	res := load(t, dir, Options{})
	if f := res.Clusters[0].Files[0]; !f.Template {
		t.Error("a file with {% %} lines is not marked as a template")
	}
	if d := res.Clusters[0].Files[0].Duplicates; len(d) != 0 {
		t.Errorf("duplicates = %+v, want none: template branches are alternatives", d)
	}
}

func clusterFiles(res *Result) [][]string {
	var out [][]string
	for _, c := range res.Clusters {
		var files []string
		for _, f := range c.Files {
			files = append(files, f.Path)
		}
		slices.Sort(files)
		out = append(out, files)
	}
	return out
}

func TestGrouping(t *testing.T) {
	dir := t.TempDir()
	// Cluster A: controllers in their own directories, linked by voters.
	voters := "controller.quorum.voters=1@a1.example.com:9093,2@a2.example.com:9093,3@a3.example.com:9093\n"
	write(t, dir, "a/c1/server.properties", "process.roles=controller\nnode.id=1\n"+voters)
	write(t, dir, "a/c2/server.properties", "process.roles=controller\nnode.id=2\n"+voters)
	// Overlapping but different voter list: still cluster A.
	write(t, dir, "a/c3/server.properties", "process.roles=controller\nnode.id=3\ncontroller.quorum.voters=1@a1.example.com:9093,2@a2.example.com:9093,4@a4.example.com:9093\n")
	write(t, dir, "a/b1/server.properties", "process.roles=broker\nnode.id=4\ncontroller.quorum.bootstrap.servers=a1.example.com:9093\nlisteners=PLAINTEXT://b1.a.example.com:9092\n")
	// A producer elsewhere that names cluster A's broker.
	write(t, dir, "apps/producer.properties", "bootstrap.servers=b1.a.example.com:9092\nacks=all\n")
	// Cluster B in a sibling directory with the same ids but other hosts.
	write(t, dir, "b/c1/server.properties", "process.roles=controller\nnode.id=1\ncontroller.quorum.voters=1@b1.example.com:9093\n")
	// Two quick-starts on localhost in different directories stay apart.
	write(t, dir, "q1/server.properties", "process.roles=broker,controller\nnode.id=1\ncontroller.quorum.voters=1@localhost:9093\n")
	write(t, dir, "q2/server.properties", "process.roles=broker,controller\nnode.id=1\ncontroller.quorum.voters=1@localhost:9093\n")
	// A ZooKeeper broker and its meta.properties.
	write(t, dir, "zk/server.properties", "broker.id=0\nzookeeper.connect=zk:2181\n")
	write(t, dir, "zk/data/meta.properties", "version=0\nbroker.id=0\ncluster.id=xyz\n")
	res := load(t, dir, Options{})
	want := [][]string{
		{"a/b1/server.properties", "a/c1/server.properties", "a/c2/server.properties", "a/c3/server.properties", "apps/producer.properties"},
		{"b/c1/server.properties"},
		{"q1/server.properties"},
		{"q2/server.properties"},
		{"zk/data/meta.properties", "zk/server.properties"},
	}
	if diff := cmp.Diff(want, clusterFiles(res)); diff != "" {
		t.Errorf("grouping mismatch (-want +got):\n%s", diff)
	}
	if res.Clusters[0].Name != "." && res.Clusters[0].Name == "" {
		t.Errorf("cluster name empty")
	}
	if len(res.Clusters[0].GroupedBy) == 0 {
		t.Error("grouped_by should say why the files form one cluster")
	}
}

// TestGroupingWeakEvidence: loopback endpoints, bare service names and a
// shared directory never merge configs that claim one node id, describe the
// quorum differently or disagree on a cluster-wide key.
func TestGroupingWeakEvidence(t *testing.T) {
	dir := t.TempDir()
	// Kafka 4.x's own config/: a combined server.properties and a split
	// controller.properties + broker.properties, all on localhost: two
	// alternatives, not one cluster with node 1 twice.
	boot := "controller.quorum.bootstrap.servers=localhost:9093\n"
	write(t, dir, "config/server.properties", "process.roles=broker,controller\nnode.id=1\n"+boot+"listeners=PLAINTEXT://:9092,CONTROLLER://:9093\ncontroller.listener.names=CONTROLLER\n")
	write(t, dir, "config/controller.properties", "process.roles=controller\nnode.id=1\n"+boot+"listeners=CONTROLLER://:9093\ncontroller.listener.names=CONTROLLER\n")
	write(t, dir, "config/broker.properties", "process.roles=broker\nnode.id=2\n"+boot+"listeners=PLAINTEXT://localhost:9092\ncontroller.listener.names=CONTROLLER\n")
	// Two compose-style ZooKeeper brokers naming the ensemble "zookeeper":
	// different min.insync.replicas, so different clusters.
	write(t, dir, "zk/a.properties", "broker.id=1\nzookeeper.connect=zookeeper:2181\nmin.insync.replicas=2\n")
	write(t, dir, "zk/b.properties", "broker.id=2\nzookeeper.connect=zookeeper:2181\nmin.insync.replicas=1\n")
	// A real ensemble host is strong evidence: merged even when they disagree.
	write(t, dir, "zk2/a.properties", "broker.id=1\nzookeeper.connect=zk-1.example.com:2181\nmin.insync.replicas=2\n")
	write(t, dir, "zk2/b.properties", "broker.id=1\nzookeeper.connect=zk-1.example.com:2181\nmin.insync.replicas=1\n")
	res := load(t, dir, Options{})
	want := [][]string{
		{"config/broker.properties", "config/controller.properties"},
		{"config/server.properties"},
		{"zk/a.properties"},
		{"zk/b.properties"},
		{"zk2/a.properties", "zk2/b.properties"},
	}
	if diff := cmp.Diff(want, clusterFiles(res)); diff != "" {
		t.Errorf("grouping mismatch (-want +got):\n%s", diff)
	}
}

func TestUnreadablePathIsAnError(t *testing.T) {
	dir := t.TempDir()
	res, err := Load([]string{filepath.Join(dir, "missing")}, Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Errors) != 1 {
		t.Errorf("errors = %+v, want one", res.Errors)
	}
}

// cancelAfter is a context that reports cancellation from its n+1-th Err
// call on: it cancels a load at a chosen point without timing.
type cancelAfter struct {
	context.Context
	mu sync.Mutex
	n  int
}

func (c *cancelAfter) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.n <= 0 {
		return context.Canceled
	}
	c.n--
	return nil
}

// TestLoadContextStops: a load whose context is done, before or while the
// files are read, returns the context's error and no result; an undisturbed
// one returns what Load does.
func TestLoadContextStops(t *testing.T) {
	dir := t.TempDir()
	for i := range 20 {
		write(t, dir, fmt.Sprintf("n%02d/server.properties", i), fmt.Sprintf("process.roles=broker\nnode.id=%d\n", i))
	}
	want := load(t, dir, Options{})
	if len(want.Clusters) != 20 {
		t.Fatalf("%d clusters, want 20", len(want.Clusters))
	}
	// The walk asks once per entry (root, 20 directories, 20 files): 41
	// calls; the parsing once per file and once at its end (21 more), the
	// grouping once per cluster: canceling on the 45th call stops the
	// parsing part-way, on the 71st the grouping.
	for _, n := range []int{0, 5, 44, 70} {
		res, err := LoadContext(&cancelAfter{Context: context.Background(), n: n}, []string{dir}, Options{Dir: dir})
		if !errors.Is(err, context.Canceled) || res != nil {
			t.Errorf("canceled after %d checks: got %v, %v; want no result and context.Canceled", n, res, err)
		}
	}
	got, err := LoadContext(context.Background(), []string{dir}, Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	// untyped: nil in both, a load without TypeLater types every cluster.
	if diff := cmp.Diff(want, got, cmpopts.IgnoreUnexported(Cluster{})); diff != "" {
		t.Errorf("LoadContext differs from Load (-Load +LoadContext):\n%s", diff)
	}
}

// Files under different git work trees are never one cluster, whatever
// hosts they share (a monorepo audit of copied configs); within one work
// tree the same files are one cluster with a disagreement.
func TestGroupingStopsAtRepositories(t *testing.T) {
	dir := t.TempDir()
	voters := "controller.quorum.voters=1@ctl-1.x.internal:9093,2@ctl-2.x.internal:9093,3@ctl-3.x.internal:9093\n"
	write(t, dir, "one/kafka/server.properties", "process.roles=controller\nnode.id=1\n"+voters)
	write(t, dir, "two/kafka/server.properties", "process.roles=controller\nnode.id=1\n"+voters)
	if got := clusterFiles(load(t, dir, Options{})); len(got) != 1 {
		t.Fatalf("one work tree: want one cluster, got %v", got)
	}
	if err := os.Mkdir(filepath.Join(dir, "one", ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, dir, "two/.git", "gitdir: ../elsewhere\n") // a worktree's .git file
	want := [][]string{{"one/kafka/server.properties"}, {"two/kafka/server.properties"}}
	if diff := cmp.Diff(want, clusterFiles(load(t, dir, Options{}))); diff != "" {
		t.Errorf("grouping across work trees (-want +got):\n%s", diff)
	}
}

// TestCollectedCountsFilesBeforeReading: Options.Collected hears how many
// files will be read (excluded ones not), before any is read: a file
// removed from the callback is a read error. LoadSources tells it too.
func TestCollectedCountsFilesBeforeReading(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "a/server.properties", "process.roles=broker\n")
	write(t, dir, "b/server.properties", "process.roles=broker\n")
	write(t, dir, "skip/server.properties", "process.roles=broker\n")
	got := -1
	res, err := LoadContext(t.Context(), []string{dir}, Options{
		Dir:     dir,
		Exclude: func(abs string) bool { return filepath.Base(filepath.Dir(abs)) == "skip" },
		Collected: func(n int) {
			got = n
			if err := os.Remove(filepath.Join(dir, "b", "server.properties")); err != nil {
				t.Error(err)
			}
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if got != 2 {
		t.Errorf("Load: Collected(%d), want 2", got)
	}
	if len(res.Errors) != 1 || res.Errors[0].File != "b/server.properties" {
		t.Errorf("errors %+v, want b/server.properties unreadable (removed after Collected, before reading)", res.Errors)
	}
	got = -1
	if _, err := LoadSources([]Source{{Name: "x/server.properties", Data: []byte("process.roles=broker\n")}}, Options{Collected: func(n int) { got = n }}); err != nil {
		t.Fatal(err)
	}
	if got != 1 {
		t.Errorf("LoadSources: Collected(%d), want 1", got)
	}
}
