package loader

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kafkalint/kafkalint/loader/doc"
)

// gdoc is a prepared doc for the grouping steps: kind, file and key=value
// settings.
func gdoc(kind, file string, kv ...string) *Doc {
	d := &Doc{Doc: doc.Doc{Kind: kind, File: file, Format: "properties"}}
	if kind == KindClient {
		d.ClientKind = "client"
	}
	for _, s := range kv {
		k, v, _ := strings.Cut(s, "=")
		d.Settings = append(d.Settings, doc.Setting{Key: k, Value: v})
	}
	prepare(d, Options{})
	return d
}

// withGroup sets a doc's source-stated group.
func withGroup(d *Doc, g string) *Doc {
	d.Group = g
	return d
}

// testGrouper is a grouper over recs, all in one work tree.
func testGrouper(recs ...*Doc) *grouper {
	return newGrouper(recs, make([]string, len(recs)))
}

// parts are the groups of g as lists of file names, each sorted, in the
// order of their first file.
func (g *grouper) parts() [][]string {
	byRoot := map[int][]string{}
	var order []int
	for i, r := range g.recs {
		root := g.u.find(i)
		if _, ok := byRoot[root]; !ok {
			order = append(order, root)
		}
		byRoot[root] = append(byRoot[root], r.File)
	}
	out := make([][]string, 0, len(order))
	for _, root := range order {
		out = append(out, byRoot[root])
	}
	return out
}

// reasonsOf is the sorted reasons of the group holding doc i.
func (g *grouper) reasonsOf(i int) []string {
	return slices.Sorted(slices.Values(g.u.reasons[g.u.find(i)]))
}

func checkParts(t *testing.T, g *grouper, want [][]string) {
	t.Helper()
	if diff := cmp.Diff(want, g.parts()); diff != "" {
		t.Errorf("groups (-want +got):\n%s", diff)
	}
}

func TestGroupSourceGroups(t *testing.T) {
	g := testGrouper(
		withGroup(gdoc(KindNode, "a/kafka.yaml", "process.roles=broker", "node.id=1"), "strimzi my-cluster"),
		withGroup(gdoc(KindTopic, "b/topic.yaml"), "strimzi my-cluster"),
		withGroup(gdoc(KindNode, "c/kafka.yaml", "process.roles=broker", "node.id=1"), "strimzi other"),
		gdoc(KindNode, "d/server.properties", "process.roles=broker", "node.id=1"),
	)
	g.sourceGroups()
	checkParts(t, g, [][]string{{"a/kafka.yaml", "b/topic.yaml"}, {"c/kafka.yaml"}, {"d/server.properties"}})
	if diff := cmp.Diff([]string{"same strimzi my-cluster"}, g.reasonsOf(0)); diff != "" {
		t.Errorf("reasons (-want +got):\n%s", diff)
	}
}

func TestGroupQuorumEndpoints(t *testing.T) {
	voters := "controller.quorum.voters=1@c1.example.com:9093"
	g := testGrouper(
		// A real host is strong: one id twice still merges (the cluster
		// rules report the clash).
		gdoc(KindNode, "a/server.properties", "process.roles=controller", "node.id=1", voters),
		gdoc(KindNode, "b/server.properties", "process.roles=controller", "node.id=1", voters),
		// A source-stated group is grouped by it alone.
		withGroup(gdoc(KindNode, "c/kafka.yaml", "process.roles=controller", "node.id=2", voters), "strimzi x"),
		// Loopback endpoints link only within a directory, and weakly:
		// q/one and q/two (ids 1, 2) merge, q/three (id 1 again) does not.
		gdoc(KindNode, "q/one.properties", "process.roles=broker,controller", "node.id=1", "controller.quorum.bootstrap.servers=localhost:9093"),
		gdoc(KindNode, "q/three.properties", "process.roles=broker,controller", "node.id=1", "controller.quorum.bootstrap.servers=localhost:9093"),
		gdoc(KindNode, "q/two.properties", "process.roles=broker,controller", "node.id=2", "controller.quorum.bootstrap.servers=localhost:9093"),
		gdoc(KindNode, "r/server.properties", "process.roles=broker,controller", "node.id=2", "controller.quorum.bootstrap.servers=localhost:9093"),
		// ZooKeeper: real hosts are strong, bare service names weak.
		gdoc(KindNode, "zk1/a.properties", "broker.id=1", "zookeeper.connect=zk-1.example.com:2181", "min.insync.replicas=2"),
		gdoc(KindNode, "zk2/b.properties", "broker.id=2", "zookeeper.connect=zk-1.example.com:2181", "min.insync.replicas=1"),
		gdoc(KindNode, "zk3/a.properties", "broker.id=1", "zookeeper.connect=zookeeper:2181", "min.insync.replicas=2"),
		gdoc(KindNode, "zk4/b.properties", "broker.id=2", "zookeeper.connect=zookeeper:2181", "min.insync.replicas=1"),
		gdoc(KindNode, "zk5/c.properties", "broker.id=3", "zookeeper.connect=zookeeper:2181", "min.insync.replicas=2"),
	)
	g.quorumEndpoints()
	checkParts(t, g, [][]string{
		{"a/server.properties", "b/server.properties"},
		{"c/kafka.yaml"},
		{"q/one.properties", "q/two.properties"},
		{"q/three.properties"},
		{"r/server.properties"},
		{"zk1/a.properties", "zk2/b.properties"},
		{"zk3/a.properties", "zk5/c.properties"},
		{"zk4/b.properties"},
	})
	if diff := cmp.Diff([]string{"shared controller quorum endpoint c1.example.com:9093"}, g.reasonsOf(0)); diff != "" {
		t.Errorf("reasons (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"same ZooKeeper ensemble zookeeper:2181"}, g.reasonsOf(9)); diff != "" {
		t.Errorf("reasons (-want +got):\n%s", diff)
	}
}

func TestGroupVoterHosts(t *testing.T) {
	peers := "controller.quorum.voters=1@localhost:9093,2@localhost:9094,3@localhost:9095"
	node := func(file string, id int, kv ...string) *Doc {
		return gdoc(KindNode, file, append([]string{"process.roles=broker,controller", fmt.Sprintf("node.id=%d", id),
			fmt.Sprintf("listeners=CONTROLLER://localhost:%d", 9092+id), "controller.listener.names=CONTROLLER"}, kv...)...)
	}
	g := testGrouper(
		// Issue 16: one node of three lists other ports for the same
		// voters: one cluster, so KFK3010 reports the disagreement.
		node("q/server-1.properties", 1, peers),
		node("q/server-2.properties", 2, peers),
		node("q/server-3.properties", 3, "controller.quorum.voters=1@127.0.0.1:19093,2@localhost:19094,3@localhost:19095"),
		// The same voters with one id twice are alternatives (Kafka's
		// own config/), as are nodes that set a cluster-wide key
		// differently ...
		node("r/a.properties", 1, peers),
		node("r/b.properties", 1, "controller.quorum.voters=1@localhost:19093,2@localhost:19094,3@localhost:19095"),
		node("s/a.properties", 1, peers, "min.insync.replicas=2"),
		node("s/b.properties", 2, "controller.quorum.voters=1@localhost:19093,2@localhost:19094,3@localhost:19095", "min.insync.replicas=1"),
		// ... and other voter ids or hosts, or another directory, are no evidence.
		node("t/a.properties", 1, peers),
		node("t/b.properties", 2, "controller.quorum.voters=1@localhost:19093,2@localhost:19094,4@localhost:19095"),
		node("u/a.properties", 1, "controller.quorum.voters=1@localhost:19093,2@localhost:19094,3@localhost:19095"),
	)
	g.quorumEndpoints()
	g.voterHosts()
	checkParts(t, g, [][]string{
		{"q/server-1.properties", "q/server-2.properties", "q/server-3.properties"},
		{"r/a.properties"},
		{"r/b.properties"},
		{"s/a.properties"},
		{"s/b.properties"},
		{"t/a.properties"},
		{"t/b.properties"},
		{"u/a.properties"},
	})
	if diff := cmp.Diff([]string{"same voter ids and hosts in q", "shared controller quorum endpoint local localhost:9093 in q"}, g.reasonsOf(0)); diff != "" {
		t.Errorf("reasons (-want +got):\n%s", diff)
	}
}

func TestGroupMetaProperties(t *testing.T) {
	g := testGrouper(
		gdoc(KindMeta, "a/data/meta.properties", "cluster.id=abc"),
		gdoc(KindNode, "a/server.properties", "broker.id=0"),
		// Two node configs: the meta beside them attaches to neither...
		gdoc(KindMeta, "b/meta.properties", "cluster.id=abc"),
		gdoc(KindNode, "b/one.properties", "broker.id=1"),
		gdoc(KindNode, "b/two.properties", "broker.id=2"),
		// ...and a meta without a node or a cluster.id stays alone.
		gdoc(KindMeta, "c/meta.properties", "version=1"),
	)
	g.metaProperties()
	// The same cluster.id links the two metas, and so a/ with b/'s meta.
	checkParts(t, g, [][]string{
		{"a/data/meta.properties", "a/server.properties", "b/meta.properties"},
		{"b/one.properties"},
		{"b/two.properties"},
		{"c/meta.properties"},
	})
	if got := g.recs[0].metaNode; got != "a/server.properties" {
		t.Errorf("metaNode = %q, want the node config of the parent directory", got)
	}
	if got := g.recs[2].metaNode; got != "" {
		t.Errorf("metaNode = %q, want none among two node configs", got)
	}
	want := []string{"meta.properties beside its node config a/data/meta.properties", "same cluster.id abc"}
	if diff := cmp.Diff(want, g.reasonsOf(0)); diff != "" {
		t.Errorf("reasons (-want +got):\n%s", diff)
	}
}

func TestGroupMetaPropertiesStopsAtWorkTrees(t *testing.T) {
	recs := []*Doc{gdoc(KindMeta, "a/data/meta.properties"), gdoc(KindNode, "a/server.properties", "broker.id=0")}
	g := newGrouper(recs, []string{"/repo/a/data", "/repo"})
	g.metaProperties()
	checkParts(t, g, [][]string{{"a/data/meta.properties"}, {"a/server.properties"}})
}

func TestGroupSameDirectory(t *testing.T) {
	g := testGrouper(
		// Kafka's own config/: the split pair joins, the combined node 1
		// is an alternative.
		gdoc(KindNode, "config/broker.properties", "process.roles=broker", "node.id=2"),
		gdoc(KindNode, "config/controller.properties", "process.roles=controller", "node.id=1"),
		gdoc(KindNode, "config/server.properties", "process.roles=broker,controller", "node.id=1"),
		// Two nodes whose quorums name different real hosts stay apart:
		// both have a linking key.
		gdoc(KindNode, "k/a.properties", "process.roles=controller", "node.id=1", "controller.quorum.voters=1@a.example.com:9093"),
		gdoc(KindNode, "k/b.properties", "process.roles=controller", "node.id=2", "controller.quorum.voters=2@b.example.com:9093"),
		// A node without a quorum joins a keyed one beside it.
		gdoc(KindNode, "k/c.properties", "process.roles=broker", "node.id=3"),
		// A cluster-wide key set differently keeps them apart.
		gdoc(KindNode, "m/a.properties", "broker.id=1", "min.insync.replicas=2"),
		gdoc(KindNode, "m/b.properties", "broker.id=2", "min.insync.replicas=1"),
		// A source-stated group takes no part.
		withGroup(gdoc(KindNode, "m/c.yaml", "broker.id=3", "min.insync.replicas=2"), "compose m"),
	)
	g.quorumEndpoints() // the keys of k/
	g.sameDirectory()
	checkParts(t, g, [][]string{
		{"config/broker.properties", "config/controller.properties"},
		{"config/server.properties"},
		{"k/a.properties", "k/c.properties"},
		{"k/b.properties"},
		{"m/a.properties"},
		{"m/b.properties"},
		{"m/c.yaml"},
	})
	if diff := cmp.Diff([]string{"same directory config"}, g.reasonsOf(0)); diff != "" {
		t.Errorf("reasons (-want +got):\n%s", diff)
	}
}

func TestGroupClients(t *testing.T) {
	g := testGrouper(
		gdoc(KindNode, "a/server.properties", "process.roles=broker", "node.id=1", "listeners=PLAINTEXT://b1.example.com:9092"),
		// Named by bootstrap.servers, from another directory.
		gdoc(KindClient, "apps/producer.properties", "bootstrap.servers=nowhere:1,b1.example.com:9092"),
		// No match: the only cluster of its directory.
		gdoc(KindClient, "a/client.properties", "bootstrap.servers=other.example.com:9092"),
		// Two clusters in the directory: on its own.
		gdoc(KindNode, "two/a.properties", "broker.id=1", "min.insync.replicas=2"),
		gdoc(KindNode, "two/b.properties", "broker.id=2", "min.insync.replicas=1"),
		gdoc(KindClient, "two/client.properties", "bootstrap.servers=${env:SERVERS}"),
		// A loopback endpoint names a broker of its own directory only.
		gdoc(KindNode, "q/server.properties", "process.roles=broker", "node.id=1", "listeners=PLAINTEXT://localhost:9092"),
		gdoc(KindClient, "r/client.properties", "bootstrap.servers=localhost:9092"),
	)
	g.clients()
	checkParts(t, g, [][]string{
		{"a/server.properties", "apps/producer.properties", "a/client.properties"},
		{"two/a.properties"},
		{"two/b.properties"},
		{"two/client.properties"},
		{"q/server.properties"},
		{"r/client.properties"},
	})
	want := []string{"client bootstrap.servers b1.example.com:9092 in apps/producer.properties", "client in the same directory a"}
	if diff := cmp.Diff(want, g.reasonsOf(0)); diff != "" {
		t.Errorf("reasons (-want +got):\n%s", diff)
	}
}

func TestRepoRoots(t *testing.T) {
	dir := t.TempDir()
	for _, d := range []string{"one/.git", "one/sub/kafka", "two/kafka", "plain/kafka"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "two", ".git"), []byte("gitdir: ../elsewhere\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	recs := []*Doc{{Doc: doc.Doc{File: "one/sub/kafka/a.properties"}}, {Doc: doc.Doc{File: "two/kafka/b.properties"}}, {Doc: doc.Doc{File: "plain/kafka/c.properties"}}}
	want := []string{filepath.Join(dir, "one"), filepath.Join(dir, "two"), ""}
	if diff := cmp.Diff(want, repoRoots(recs, dir)); diff != "" {
		t.Errorf("repoRoots (-want +got):\n%s", diff)
	}
}

// TestJoinDirectoryMatchesPairwise: joinDirectory lets each group lead
// once; it must group exactly as trying every pair of nodes in order,
// with the same reasons, whatever conflicts and keys the nodes carry.
func TestJoinDirectoryMatchesPairwise(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	runs := 300
	if testing.Short() {
		runs = 50
	}
	for run := range runs {
		recs := randomDirectory(rng, 2+rng.IntN(9))
		fast, slow := testGrouper(cloneDocs(recs)...), testGrouper(cloneDocs(recs)...)
		for _, g := range []*grouper{fast, slow} {
			g.quorumEndpoints()
		}
		fast.sameDirectory()
		pairwiseSameDirectory(slow)
		if diff := cmp.Diff(slow.parts(), fast.parts()); diff != "" {
			t.Fatalf("run %d: groups differ from the pairwise join (-pairwise +joinDirectory):\n%s", run, diff)
		}
		for i := range recs {
			if diff := cmp.Diff(slow.reasonsOf(i), fast.reasonsOf(i)); diff != "" {
				t.Fatalf("run %d: reasons of %s differ (-pairwise +joinDirectory):\n%s", run, recs[i].File, diff)
			}
		}
	}
}

// randomDirectory is n node configs in one directory with few ids, some
// loopback quorum endpoints (weak keys) and some real ones (strong), and
// cluster-wide values that may disagree.
func randomDirectory(rng *rand.Rand, n int) []*Doc {
	var recs []*Doc
	for i := range n {
		kv := []string{"process.roles=broker,controller", fmt.Sprintf("node.id=%d", 1+rng.IntN(3))}
		switch rng.IntN(4) {
		case 0:
			kv = append(kv, "controller.quorum.bootstrap.servers=localhost:9093")
		case 1:
			kv = append(kv, fmt.Sprintf("controller.quorum.voters=1@c%d.example.com:9093", rng.IntN(2)))
		}
		if rng.IntN(3) == 0 {
			kv = append(kv, fmt.Sprintf("min.insync.replicas=%d", 1+rng.IntN(2)))
		}
		recs = append(recs, gdoc(KindNode, fmt.Sprintf("d/%02d.properties", i), kv...))
	}
	return recs
}

func cloneDocs(recs []*Doc) []*Doc {
	out := make([]*Doc, len(recs))
	for i, r := range recs {
		c := *r
		out[i] = &c
	}
	return out
}

// pairwiseSameDirectory is the same-directory step as it was written
// first: every pair of nodes of a directory, in order.
func pairwiseSameDirectory(g *grouper) {
	keyed := map[int]bool{}
	for i, l := range g.linked {
		if l {
			keyed[g.u.find(i)] = true
		}
	}
	for _, dir := range slices.Sorted(maps.Keys(g.looseIn)) {
		idx := g.looseIn[dir]
		for a := range idx {
			for b := a + 1; b < len(idx); b++ {
				i, j := idx[a], idx[b]
				if g.u.find(i) == g.u.find(j) {
					continue
				}
				ki, kj := keyed[g.u.find(i)], keyed[g.u.find(j)]
				if (!ki || !kj) && g.u.weakUnion(i, j, "same directory "+dir) {
					keyed[g.u.find(i)] = ki || kj
				}
			}
		}
	}
}

// TestLoadLoopbackQuorumWithOtherPorts: issue 16's layout, end to end:
// three localhost KRaft configs in one directory, one listing other voter
// ports than its peers, load as one cluster (so the cluster rules compare
// their voter sets).
func TestLoadLoopbackQuorumWithOtherPorts(t *testing.T) {
	dir := t.TempDir()
	for id := 1; id <= 3; id++ {
		voters := "1@localhost:9093,2@localhost:9094,3@localhost:9095"
		if id == 3 {
			voters = "1@localhost:19093,2@localhost:19094,3@localhost:19095"
		}
		write(t, dir, fmt.Sprintf("quorum/server-%d.properties", id), fmt.Sprintf(
			"process.roles=broker,controller\nnode.id=%d\nlisteners=PLAINTEXT://localhost:%d,CONTROLLER://localhost:%d\ncontroller.listener.names=CONTROLLER\ncontroller.quorum.voters=%s\n",
			id, 9190+id, 9092+id, voters))
	}
	res := load(t, dir, Options{})
	if len(res.Clusters) != 1 || len(res.Clusters[0].Nodes) != 3 {
		var got [][]string
		for _, c := range res.Clusters {
			var files []string
			for _, f := range c.Files {
				files = append(files, f.Path)
			}
			got = append(got, files)
		}
		t.Errorf("clusters = %q, want one of the three nodes", got)
	}
}
