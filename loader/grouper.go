package loader

import (
	"fmt"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// grouper decides which docs form one cluster. Each method is one step of
// docs/model.md, "Grouping files into clusters", run in this order by
// group: a later step sees the groups the earlier ones formed. Every step
// visits each doc once (a map lookup per key it holds), so grouping stays
// linear in the number of docs; only the same-directory step compares
// groups, and only those of one directory that weak evidence keeps apart.
type grouper struct {
	recs []*Doc // sorted by file
	u    *unionFind
	// repo is each doc's git work tree: the boundary no evidence crosses.
	repo []string
	// holders are the docs holding each linking key, in the order they
	// were linked; linked marks the docs that hold any key.
	holders map[string][]int
	linked  []bool
	// nodesIn: every node doc per directory (meta.properties attach to
	// one); looseIn: those without a source-stated Group (the same
	// directory and client steps group them).
	nodesIn, looseIn map[string][]int
}

// group runs the grouping steps over recs (sorted by file) and returns the
// union-find of their indexes, with the reasons of each group. dir is
// Options.Dir, against which display paths resolve on disk.
func group(recs []*Doc, dir string) *unionFind {
	g := newGrouper(recs, repoRoots(recs, dir))
	g.sourceGroups()
	g.quorumEndpoints()
	g.voterHosts()
	g.metaProperties()
	g.sameDirectory()
	g.clients()
	return g.u
}

func newGrouper(recs []*Doc, repo []string) *grouper {
	g := &grouper{
		recs: recs, u: newUnionFind(recs), repo: repo,
		holders: map[string][]int{}, linked: make([]bool, len(recs)),
		nodesIn: map[string][]int{}, looseIn: map[string][]int{},
	}
	for i, r := range recs {
		if r.Kind != KindNode {
			continue
		}
		dir := path.Dir(r.File)
		g.nodesIn[dir] = append(g.nodesIn[dir], i)
		if r.Group == "" {
			g.looseIn[dir] = append(g.looseIn[dir], i)
		}
	}
	return g
}

// link ties doc i to the docs that hold the same key. Strong keys (a real
// host, a cluster id, a source-stated group) always merge with the first
// holder; weak ones (loopback endpoints, bare service names) merge with the
// first holder whose group does not conflict (unionFind.weakUnion). Keys
// are scoped to the doc's work tree: files of different git work trees are
// never one cluster.
func (g *grouper) link(i int, key, why string, weak bool) {
	key = g.repo[i] + "\x00" + key
	g.linked[i] = true
	for _, j := range g.holders[key] {
		if !weak {
			g.u.union(j, i, why)
			break
		}
		if g.u.weakUnion(j, i, why) {
			break
		}
	}
	g.holders[key] = append(g.holders[key], i)
}

// sourceGroups links docs whose source ties them to one cluster (a Strimzi
// cluster, an MSK cluster resource, a compose project). A doc with a Group
// is grouped by it alone: the quorum, same-directory and client steps skip
// it, since compose service names and Strimzi cluster names are scoped to
// their project, not global.
func (g *grouper) sourceGroups() {
	for i, r := range g.recs {
		if r.Group != "" {
			g.link(i, "group "+r.Group, "same "+r.Group, false)
		}
	}
}

// quorumEndpoints links nodes that share an endpoint of their controller
// quorum (loopback ones: weakly, and only within a directory) or, in
// ZooKeeper mode, one ZooKeeper ensemble.
func (g *grouper) quorumEndpoints() {
	for i, r := range g.recs {
		if r.Kind != KindNode || r.Group != "" {
			continue
		}
		for _, k := range quorumKeys(r.node) {
			g.link(i, "quorum "+k, "shared controller quorum endpoint "+k, strings.HasPrefix(k, "local "))
		}
		if s, ok := r.get("zookeeper.connect"); ok && r.node.Mode == "zookeeper" && !isPlaceholder(s.Value) {
			k, weak := zookeeperKey(path.Dir(r.File), s.Value)
			g.link(i, "zookeeper "+k, "same ZooKeeper ensemble "+strings.TrimSpace(s.Value), weak)
		}
	}
}

// voterHosts joins the nodes of one directory whose controller.quorum.voters
// name the same voters (ids and hosts) with different ports: three
// localhost configs where one node's list has other ports than its peers'
// are one cluster with a disagreement (KFK3010), not alternatives, though
// weak evidence keeps differing voter sets apart. Nodes claiming one id or
// setting a cluster-wide key differently still stay apart. A node is
// compared with the earlier holders of its key until one takes it.
func (g *grouper) voterHosts() {
	holders := map[string][]int{}
	for i, r := range g.recs {
		k := voterHostsKey(r)
		if k == "" {
			continue
		}
		k = g.repo[i] + "\x00" + path.Dir(r.File) + "\x00" + k
		for _, j := range holders[k] {
			if g.u.find(j) == g.u.find(i) {
				break
			}
			if !g.u.idsClash(j, i) && !g.u.settingsClash(j, i) {
				g.u.union(j, i, "same voter ids and hosts in "+path.Dir(r.File))
				break
			}
		}
		holders[k] = append(holders[k], i)
	}
}

// voterHostsKey is a loose node's voter set without ports ("1@localhost,
// 2@localhost"), or "" when it has none or an entry does not parse.
func voterHostsKey(r *Doc) string {
	if r.Kind != KindNode || r.Group != "" || len(r.node.Quorum.Voters) == 0 {
		return ""
	}
	var vs []string
	for _, v := range r.node.Quorum.Voters {
		if v.Error != "" {
			return ""
		}
		h := strings.ToLower(v.Host)
		if isLocalHost(h) {
			h = "localhost"
		}
		vs = append(vs, fmt.Sprintf("%d@%s", v.ID, h))
	}
	slices.Sort(vs)
	return strings.Join(slices.Compact(vs), ",")
}

// metaProperties attaches each meta.properties to the only node config in
// its directory, else in its parent directory (of the same work tree), and
// links the metas that state one cluster.id.
func (g *grouper) metaProperties() {
	for i, r := range g.recs {
		if r.Kind != KindMeta {
			continue
		}
		dir := path.Dir(r.File)
		for _, d := range []string{dir, path.Dir(dir)} {
			if j := g.onlyNodeIn(d); j >= 0 && g.repo[j] == g.repo[i] {
				r.metaNode = g.recs[j].File
				g.u.union(j, i, "meta.properties beside its node config "+r.File)
				break
			}
		}
		if s, ok := r.get("cluster.id"); ok && strings.TrimSpace(s.Value) != "" {
			id := strings.TrimSpace(s.Value)
			g.link(i, "cluster.id "+id, "same cluster.id "+id, false)
		}
	}
}

// onlyNodeIn returns the index of the single node config in dir, or -1.
func (g *grouper) onlyNodeIn(dir string) int {
	if ids := g.nodesIn[dir]; len(ids) == 1 {
		return ids[0]
	}
	return -1
}

// sameDirectory joins the node configs of one directory, weakly, unless
// both groups already have a linking key (then what identifies their
// quorums keeps them apart). Directories go in order, and in each the
// group of the first node absorbs every later group it can, then the
// group of the next node not absorbed, and so on.
func (g *grouper) sameDirectory() {
	// Which groups have any linking key, computed once (not per pair).
	keyed := map[int]bool{}
	for i, l := range g.linked {
		if l {
			keyed[g.u.find(i)] = true
		}
	}
	for _, dir := range slices.Sorted(maps.Keys(g.looseIn)) {
		g.joinDirectory(dir, g.looseIn[dir], keyed)
	}
}

// joinDirectory is sameDirectory for the nodes idx of dir. A group that
// failed to absorb another never can later (groups only grow, and so do
// their conflicts and keys), so a group leads once: nodes already in a
// group that led are skipped, and a directory whose nodes all join costs
// one pass.
func (g *grouper) joinDirectory(dir string, idx []int, keyed map[int]bool) {
	led := map[int]bool{}
	for a, i := range idx {
		if led[g.u.find(i)] {
			continue
		}
		led[g.u.find(i)] = true
		for _, j := range idx[a+1:] {
			ri, rj := g.u.find(i), g.u.find(j)
			if ri == rj {
				continue
			}
			ki, kj := keyed[ri], keyed[rj]
			if (!ki || !kj) && g.u.weakUnion(i, j, "same directory "+dir) {
				keyed[g.u.find(i)] = ki || kj
			}
		}
	}
}

// clients joins each client to the cluster whose broker endpoints its
// bootstrap.servers name (loopback ones: in the same directory), else to
// the only cluster of node configs in its directory; otherwise it stays
// on its own.
func (g *grouper) clients() {
	brokerAt := map[string]int{}
	for i, r := range g.recs {
		if r.Kind == KindNode && r.node.IsBroker && r.Group == "" {
			for _, l := range brokerEndpoints(r.node) {
				brokerAt[g.repo[i]+"\x00"+endpointKey(path.Dir(r.File), l.Host, l.Port)] = i
			}
		}
	}
	for i, r := range g.recs {
		if r.Kind != KindClient || r.Group != "" {
			continue
		}
		if !g.joinBootstrap(i, brokerAt) {
			g.joinDirectoryCluster(i)
		}
	}
}

// joinBootstrap joins client i to the broker its first matching
// bootstrap.servers entry names, and reports whether it found one.
func (g *grouper) joinBootstrap(i int, brokerAt map[string]int) bool {
	r := g.recs[i]
	s, ok := r.get("bootstrap.servers")
	if !ok || isPlaceholder(s.Value) {
		return false
	}
	for _, e := range splitList(s.Value) {
		ep, msg := parseHostPort(e)
		if msg != "" {
			continue
		}
		if j, ok := brokerAt[g.repo[i]+"\x00"+endpointKey(path.Dir(r.File), ep.Host, ep.Port)]; ok {
			g.u.union(j, i, "client bootstrap.servers "+e+" in "+r.File)
			return true
		}
	}
	return false
}

// joinDirectoryCluster joins client i to the cluster of the node configs
// in its directory when they form exactly one.
func (g *grouper) joinDirectoryCluster(i int) {
	dir := path.Dir(g.recs[i].File)
	roots := map[int]bool{}
	for _, j := range g.looseIn[dir] {
		roots[g.u.find(j)] = true
	}
	if len(roots) == 1 {
		for root := range roots {
			g.u.union(root, i, "client in the same directory "+dir)
		}
	}
}

// repoRoots names, per doc, the git work tree its file belongs to: the
// deepest directory above it holding a .git entry (a directory, or the file
// a worktree or submodule has), "" when none does or the file is not on
// disk (sources loaded from memory). Directories are looked up once.
func repoRoots(recs []*Doc, dir string) []string {
	rootOf := map[string]string{} // directory -> its repository root
	var lookup func(d string) string
	lookup = func(d string) string {
		if r, ok := rootOf[d]; ok {
			return r
		}
		r := ""
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			r = d
		} else if parent := filepath.Dir(d); parent != d {
			r = lookup(parent)
		}
		rootOf[d] = r
		return r
	}
	out := make([]string, len(recs))
	for i, r := range recs {
		out[i] = lookup(filepath.Dir(absPath(r.File, dir)))
	}
	return out
}

// isLocalHost reports hosts that mean "this machine": they identify nothing
// across directories, since every quick-start uses them.
func isLocalHost(h string) bool {
	switch strings.ToLower(h) {
	case "", "localhost", "127.0.0.1", "::1", "0.0.0.0", "::":
		return true
	}
	return false
}

// endpointKey names an endpoint for grouping. Loopback endpoints only link
// files in the same directory.
func endpointKey(dir, host string, port int) string {
	if isLocalHost(host) {
		return fmt.Sprintf("local %s:%d in %s", "localhost", port, dir)
	}
	return fmt.Sprintf("%s:%d", strings.ToLower(host), port)
}

// zookeeperKey names a ZooKeeper connect string (hosts and chroot). An
// ensemble on loopback only links files in the same directory; one named
// by bare service names ("zookeeper:2181", every compose file's default)
// is weak evidence.
func zookeeperKey(dir, connect string) (key string, weak bool) {
	hosts, chroot, _ := strings.Cut(strings.TrimSpace(connect), "/")
	var parts []string
	local, bare := true, true
	for _, h := range splitList(hosts) {
		host, _, _ := strings.Cut(h, ":")
		if !isLocalHost(host) {
			local = false
		}
		if strings.Contains(host, ".") {
			bare = false
		}
		parts = append(parts, strings.ToLower(h))
	}
	slices.Sort(parts)
	key = strings.Join(parts, ",") + "/" + chroot
	if local {
		return "local " + key + " in " + dir, true
	}
	return key, bare
}

// nodeKeys are the endpoints that identify a node's controller quorum: its
// voter entries, its bootstrap servers, and its own controller listener.
func quorumKeys(n *Node) []string {
	dir := path.Dir(n.File)
	var keys []string
	for _, v := range n.Quorum.Voters {
		if v.Error == "" {
			keys = append(keys, endpointKey(dir, v.Host, v.Port))
		}
	}
	for _, b := range n.Quorum.BootstrapServers {
		keys = append(keys, endpointKey(dir, b.Host, b.Port))
	}
	if n.IsController {
		for _, l := range controllerEndpoints(n) {
			keys = append(keys, endpointKey(dir, l.Host, l.Port))
		}
	}
	slices.Sort(keys)
	return slices.Compact(keys)
}

// controllerEndpoints are the advertised (else bound) listeners named in
// controller.listener.names.
func controllerEndpoints(n *Node) []Listener {
	var out []Listener
	for _, name := range n.ControllerListenerNames {
		u := strings.ToUpper(name)
		found := false
		for _, l := range n.Advertised {
			if l.Name == u && l.Error == "" {
				out, found = append(out, l), true
			}
		}
		if found {
			continue
		}
		for _, l := range n.Listeners {
			if l.Name == u && l.Error == "" {
				out = append(out, l)
			}
		}
	}
	return out
}

// brokerEndpoints are the endpoints clients connect to: advertised
// listeners, else listeners, minus controller listeners.
func brokerEndpoints(n *Node) []Listener {
	ls := n.Advertised
	if len(ls) == 0 {
		ls = n.Listeners
	}
	var out []Listener
	for _, l := range ls {
		if l.Error == "" && !slices.ContainsFunc(n.ControllerListenerNames, func(c string) bool { return strings.EqualFold(c, l.Name) }) {
			out = append(out, l)
		}
	}
	return out
}
