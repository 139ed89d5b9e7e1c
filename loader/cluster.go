package loader

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/kafkalint/kafkalint/loader/catalog"
)

// unionFind groups doc indexes, remembers why, and tracks the node ids
// in each group so that weak evidence never merges two nodes claiming the
// same id.
type unionFind struct {
	parent  []int
	reasons map[int][]string
	ids     map[int]map[int]bool
	quorums map[int]map[string]bool   // quorum signatures per group
	agreed  map[int]map[string]string // cluster-wide settings per group
}

// clusterWideKeys must agree across one cluster's nodes; weak evidence
// never merges nodes that set them differently.
var clusterWideKeys = []string{
	"controller.listener.names", "inter.broker.listener.name", "sasl.mechanism.inter.broker.protocol",
	"authorizer.class.name", "min.insync.replicas", "default.replication.factor", "unclean.leader.election.enable",
}

func newUnionFind(recs []*Doc) *unionFind {
	u := &unionFind{
		parent: make([]int, len(recs)), reasons: map[int][]string{}, ids: map[int]map[int]bool{},
		quorums: map[int]map[string]bool{}, agreed: map[int]map[string]string{},
	}
	for i, r := range recs {
		u.parent[i] = i
		if r.Kind != KindNode {
			continue
		}
		if r.node.ID != nil {
			u.ids[i] = map[int]bool{*r.node.ID: true}
		}
		if sig := quorumSignature(r.node); sig != "" {
			u.quorums[i] = map[string]bool{sig: true}
		}
		// Per role class (as the cluster rules compare them), an absent key
		// counts as Kafka's default; an unknown value agrees with anything.
		u.agreed[i] = map[string]string{}
		for _, k := range clusterWideKeys {
			s, ok := r.get(k)
			if ok && isPlaceholder(s.Value) {
				continue
			}
			u.agreed[i][roleClass(r.node)+" "+k] = strings.TrimSpace(s.Value)
		}
	}
	return u
}

// roleClass is the class of nodes whose settings must agree.
func roleClass(n *Node) string {
	switch {
	case n.Mode == "zookeeper":
		return "zookeeper"
	case n.IsBroker && n.IsController:
		return "combined"
	case n.IsBroker:
		return "broker"
	case n.IsController:
		return "controller"
	}
	return n.Mode
}

// quorumSignature summarizes how a node finds its quorum: "static:<voters>",
// "dynamic", "both:<voters>", or "" when it names no quorum.
func quorumSignature(n *Node) string {
	var voters []string
	for _, v := range n.Quorum.Voters {
		voters = append(voters, strings.ToLower(v.Raw))
	}
	slices.Sort(voters)
	switch n.Quorum.Mode {
	case "static":
		return "static:" + strings.Join(voters, ",")
	case "both":
		return "both:" + strings.Join(voters, ",")
	case "dynamic":
		return "dynamic"
	}
	return ""
}

// quorumsCompatible: two quorum signatures could describe one cluster
// without any disagreement.
func quorumsCompatible(a, b string) bool {
	ka, va, _ := strings.Cut(a, ":")
	kb, vb, _ := strings.Cut(b, ":")
	switch {
	case ka == "dynamic" && kb == "dynamic":
		return true
	case ka == "dynamic" || kb == "dynamic":
		return ka == "both" || kb == "both"
	}
	return va == vb
}

// conflict reports whether merging the groups of a and b would put two
// nodes with one id, or two incompatible quorum definitions, together.
func (u *unionFind) conflict(a, b int) bool {
	ia, ib := u.ids[u.find(a)], u.ids[u.find(b)]
	for id := range ia {
		if ib[id] {
			return true
		}
	}
	for qa := range u.quorums[u.find(a)] {
		for qb := range u.quorums[u.find(b)] {
			if !quorumsCompatible(qa, qb) {
				return true
			}
		}
	}
	sb := u.agreed[u.find(b)]
	for k, v := range u.agreed[u.find(a)] {
		if w, ok := sb[k]; ok && w != v {
			return true
		}
	}
	return false
}

// weakUnion merges a and b unless that puts conflicting nodes together:
// for evidence that only suggests a cluster (a shared loopback endpoint or
// bare service name, a shared directory), two configs claiming the same
// node id, describing the quorum differently or setting a cluster-wide key
// differently are alternatives (Kafka's own config/ holds
// server.properties and controller.properties, both node 1), not one
// cluster. Real host names are strong evidence and merge regardless, so
// disagreements there are reported by the cluster rules.
func (u *unionFind) weakUnion(a, b int, reason string) bool {
	if u.find(a) == u.find(b) {
		return true
	}
	if u.conflict(a, b) {
		return false
	}
	u.union(a, b, reason)
	return true
}

func (u *unionFind) find(i int) int {
	for u.parent[i] != i {
		u.parent[i] = u.parent[u.parent[i]]
		i = u.parent[i]
	}
	return i
}

func (u *unionFind) union(a, b int, reason string) {
	ra, rb := u.find(a), u.find(b)
	if ra == rb {
		return
	}
	u.parent[rb] = ra
	u.reasons[ra] = append(append(u.reasons[ra], u.reasons[rb]...), reason)
	delete(u.reasons, rb)
	if u.ids[rb] != nil {
		if u.ids[ra] == nil {
			u.ids[ra] = map[int]bool{}
		}
		for id := range u.ids[rb] {
			u.ids[ra][id] = true
		}
		delete(u.ids, rb)
	}
	if u.agreed[rb] != nil {
		if u.agreed[ra] == nil {
			u.agreed[ra] = map[string]string{}
		}
		for k, v := range u.agreed[rb] {
			if _, ok := u.agreed[ra][k]; !ok {
				u.agreed[ra][k] = v
			}
		}
		delete(u.agreed, rb)
	}
	if u.quorums[rb] != nil {
		if u.quorums[ra] == nil {
			u.quorums[ra] = map[string]bool{}
		}
		for q := range u.quorums[rb] {
			u.quorums[ra][q] = true
		}
		delete(u.quorums, rb)
	}
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

// buildClusters groups records into clusters (see docs/model.md, "Grouping").
// It consumes recs: each entry is set to nil once its cluster is built.
// It stops, returning nil, when ctx is done.
func buildClusters(ctx context.Context, recs []*Doc, opts Options) []*Cluster {
	slices.SortFunc(recs, func(a, b *Doc) int { return cmp.Compare(a.File, b.File) })
	u := newUnionFind(recs)
	holders := map[string][]int{}
	keysOf := map[int][]string{}
	repo := repoRoots(recs, opts.Dir)
	// link ties docs that share a key. Strong keys (a real host, a cluster
	// id, a source-stated group) always merge; weak ones (loopback
	// endpoints) merge with the first holder whose group does not already
	// hold the same node id. Keys are scoped to the doc's repository: files
	// of different git work trees are never one cluster.
	link := func(i int, key, why string, weak bool) {
		key = repo[i] + "\x00" + key
		keysOf[i] = append(keysOf[i], key)
		for _, j := range holders[key] {
			if !weak {
				u.union(j, i, why)
				break
			}
			if u.weakUnion(j, i, why) {
				break
			}
		}
		holders[key] = append(holders[key], i)
	}
	// 0. Docs whose source ties them to one cluster (a Strimzi cluster, an
	// MSK cluster resource, a compose project).
	for i, r := range recs {
		if r.Group != "" {
			link(i, "group "+r.Group, "same "+r.Group, false)
		}
	}
	// 1. Nodes that share a quorum endpoint. A doc with a Group is grouped
	// by it alone (steps 1, 3 and 4 skip it): compose service names and
	// Strimzi cluster names are scoped to their project, not global.
	for i, r := range recs {
		if r.Kind == KindNode && r.Group == "" {
			for _, k := range quorumKeys(r.node) {
				link(i, "quorum "+k, "shared controller quorum endpoint "+k, strings.HasPrefix(k, "local "))
			}
			if s, ok := r.get("zookeeper.connect"); ok && r.node.Mode == "zookeeper" && !isPlaceholder(s.Value) {
				k, weak := zookeeperKey(path.Dir(r.File), s.Value)
				link(i, "zookeeper "+k, "same ZooKeeper ensemble "+strings.TrimSpace(s.Value), weak)
			}
		}
	}
	nodesIn := map[string][]int{}
	for i, r := range recs {
		if r.Kind == KindNode {
			nodesIn[path.Dir(r.File)] = append(nodesIn[path.Dir(r.File)], i)
		}
	}
	// 2. meta.properties attach to a node config in the same or parent
	// directory, and metas with one cluster.id link their nodes.
	for i, r := range recs {
		if r.Kind != KindMeta {
			continue
		}
		dir := path.Dir(r.File)
		for _, d := range []string{dir, path.Dir(dir)} {
			if j := onlyNodeIn(nodesIn, d); j >= 0 && repo[j] == repo[i] {
				r.metaNode = recs[j].File
				u.union(j, i, "meta.properties beside its node config "+r.File)
				break
			}
		}
		if s, ok := r.get("cluster.id"); ok && strings.TrimSpace(s.Value) != "" {
			link(i, "cluster.id "+strings.TrimSpace(s.Value), "same cluster.id "+strings.TrimSpace(s.Value), false)
		}
	}
	// Which groups have any linking key, computed once (not per pair).
	keyed := map[int]bool{}
	for i := range keysOf {
		keyed[u.find(i)] = true
	}
	// 3. Same directory: nodes there are one cluster unless what identifies
	// their quorums keeps them apart.
	byDir := map[string][]int{}
	for i, r := range recs {
		if r.Kind == KindNode && r.Group == "" {
			byDir[path.Dir(r.File)] = append(byDir[path.Dir(r.File)], i)
		}
	}
	for _, dir := range slices.Sorted(maps.Keys(byDir)) {
		idx := byDir[dir]
		for a := range idx {
			for b := a + 1; b < len(idx); b++ {
				i, j := idx[a], idx[b]
				if u.find(i) == u.find(j) {
					continue
				}
				ki, kj := keyed[u.find(i)], keyed[u.find(j)]
				if (!ki || !kj) && u.weakUnion(i, j, "same directory "+dir) {
					keyed[u.find(i)] = ki || kj
				}
			}
		}
	}
	// 4. Clients join the cluster whose broker endpoints their
	// bootstrap.servers name, else the only cluster in their directory.
	brokerAt := map[string]int{}
	for i, r := range recs {
		if r.Kind == KindNode && r.node.IsBroker && r.Group == "" {
			for _, l := range brokerEndpoints(r.node) {
				brokerAt[repo[i]+"\x00"+endpointKey(path.Dir(r.File), l.Host, l.Port)] = i
			}
		}
	}
	for i, r := range recs {
		if r.Kind != KindClient || r.Group != "" {
			continue
		}
		joined := false
		if s, ok := r.get("bootstrap.servers"); ok && !isPlaceholder(s.Value) {
			for _, e := range splitList(s.Value) {
				ep, msg := parseHostPort(e)
				if msg != "" {
					continue
				}
				if j, ok := brokerAt[repo[i]+"\x00"+endpointKey(path.Dir(r.File), ep.Host, ep.Port)]; ok {
					u.union(j, i, "client bootstrap.servers "+e+" in "+r.File)
					joined = true
					break
				}
			}
		}
		if !joined {
			roots := map[int]bool{}
			for _, j := range byDir[path.Dir(r.File)] {
				roots[u.find(j)] = true
			}
			if len(roots) == 1 {
				for root := range roots {
					u.union(root, i, "client in the same directory "+path.Dir(r.File))
				}
			}
		}
	}
	groups := map[int][]int{}
	for i := range recs {
		groups[u.find(i)] = append(groups[u.find(i)], i)
	}
	var clusters []*Cluster
	for root, members := range groups {
		if ctx.Err() != nil {
			return nil
		}
		c := newCluster(opts)
		c.GroupedBy = u.reasons[root]
		if c.GroupedBy == nil {
			c.GroupedBy = []string{}
		}
		slices.Sort(c.GroupedBy)
		c.GroupedBy = slices.Compact(c.GroupedBy)
		setVersion(c, recs, members, opts)
		c.KafkaRelease = release(c.KafkaVersion)
		for _, i := range members {
			addRecord(c, recs[i], opts)
		}
		setCounts(c, recs, members)
		c.Name = clusterName(c)
		clusters = append(clusters, c)
		// The cluster holds what it needs of its docs now: let the rest
		// of them go while the next clusters are typed (the documents of
		// a bulk tree are tens of MB).
		for _, i := range members {
			recs[i] = nil
		}
	}
	slices.SortFunc(clusters, func(a, b *Cluster) int {
		return cmp.Or(cmp.Compare(a.Name, b.Name), cmp.Compare(a.Files[0].Path, b.Files[0].Path), cmp.Compare(firstLine(a), firstLine(b)))
	})
	for i := 1; i < len(clusters); i++ {
		if clusters[i].Name == clusters[i-1].Name {
			clusters[i].Name = fmt.Sprintf("%s (%s)", clusters[i].Name, path.Base(clusters[i].Files[0].Path))
		}
	}
	return clusters
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

// firstLine orders clusters declared in one file by where they start.
func firstLine(c *Cluster) int {
	line := 0
	for _, n := range c.Nodes {
		if line == 0 || n.Loc.Line < line {
			line = n.Loc.Line
		}
	}
	for _, t := range c.Topics {
		if line == 0 || t.Loc.Line < line {
			line = t.Loc.Line
		}
	}
	for _, m := range c.MirrorMakers {
		if line == 0 || m.Loc.Line < line {
			line = m.Loc.Line
		}
	}
	for _, cl := range c.Clients {
		if line == 0 || cl.Loc.Line < line {
			line = cl.Loc.Line
		}
	}
	return line
}

// onlyNodeIn returns the index of the single node config in dir, or -1.
func onlyNodeIn(nodesIn map[string][]int, dir string) int {
	if ids := nodesIn[dir]; len(ids) == 1 {
		return ids[0]
	}
	return -1
}

func newCluster(opts Options) *Cluster {
	c := &Cluster{
		KafkaVersion: catalog.Newest(), KafkaVersionSource: "default",
		Files: []*SourceFile{}, Nodes: []*Node{}, Clients: []*Client{}, Meta: []*MetaProperties{}, MirrorMakers: []*MirrorMaker{},
		Topics: []*Topic{},
	}
	if opts.KafkaVersion != "" {
		c.KafkaVersion, c.KafkaVersionSource = opts.KafkaVersion, "flag"
	}
	return c
}

// release parses "X.Y" into [X, Y].
func release(version string) []int {
	out := []int{0, 0}
	for i, p := range strings.SplitN(catalog.MajorMinor(version), ".", 2) {
		out[i], _ = strconv.Atoi(p)
	}
	return out
}

// setVersion takes the Kafka version a source states (Strimzi
// spec.kafka.version, MSK kafka_version, an image tag) over --kafka-version:
// the flag is the target for files that do not say.
func setVersion(c *Cluster, recs []*Doc, members []int, _ Options) {
	for _, i := range members {
		if v := recs[i].KafkaVersion; v != nil && catalog.ValidVersion(catalog.MajorMinor(v.Text)) {
			c.KafkaVersion, c.KafkaVersionSource = catalog.MajorMinor(v.Text), "config"
			loc := v.Loc
			c.KafkaVersionLoc = &loc
			return
		}
	}
}

// setCounts records broker and controller counts that a source states, or
// that follow from node entries which all state their replica count.
func setCounts(c *Cluster, recs []*Doc, members []int) {
	for _, i := range members {
		if recs[i].BrokerCount != nil && c.BrokerCount == nil {
			c.BrokerCount = recs[i].BrokerCount
		}
		if recs[i].ControllerCount != nil && c.ControllerCount == nil {
			c.ControllerCount = recs[i].ControllerCount
		}
	}
	if len(c.Nodes) == 0 || slices.ContainsFunc(c.Nodes, func(n *Node) bool { return n.Replicas == nil }) {
		return
	}
	sum := func(pick func(*Node) bool) *Count {
		var total *Count
		for _, n := range c.Nodes {
			if !pick(n) {
				continue
			}
			if total == nil {
				total = &Count{Source: "sum of replicas", Loc: n.Replicas.Loc}
			}
			total.Value += n.Replicas.Value
		}
		return total
	}
	if c.BrokerCount == nil {
		c.BrokerCount = sum(func(n *Node) bool { return n.IsBroker })
	}
	if c.ControllerCount == nil {
		c.ControllerCount = sum(func(n *Node) bool { return n.IsController })
	}
}

// clusterName is the deepest directory holding all of the cluster's files.
func clusterName(c *Cluster) string {
	if len(c.Nodes) == 0 {
		return c.Files[0].Path
	}
	dir := path.Dir(c.Files[0].Path)
	for _, f := range c.Files[1:] {
		for dir != "." && dir != "/" && !strings.HasPrefix(f.Path, dir+"/") {
			dir = path.Dir(dir)
		}
	}
	return dir
}

// addRecord types a record's settings for the cluster's Kafka version and
// adds it to the cluster.
func addRecord(c *Cluster, r *Doc, opts Options) {
	c.Files = append(c.Files, &SourceFile{
		Path: r.File, Kind: r.Kind, Format: r.Format, Environment: r.env, EnvironmentSource: r.envSource, Template: r.Template,
		Duplicates: nonNil(r.Duplicates),
	})
	switch r.Kind {
	case KindNode:
		r.node.Settings = typedSettings(r, c.KafkaVersion, []string{catalog.Broker}, opts.DefaultKeys[catalog.Broker])
		c.Nodes = append(c.Nodes, r.node)
	case KindClient:
		scopes := clientScopes(r.ClientKind)
		cl := &Client{File: r.File, Environment: r.env, Loc: r.Loc, Kind: r.ClientKind, BootstrapServers: []Endpoint{}}
		if s, ok := r.get("bootstrap.servers"); ok && !isPlaceholder(s.Value) {
			for _, e := range splitList(s.Value) {
				if ep, msg := parseHostPort(e); msg == "" {
					ep.Loc = s.Loc
					cl.BootstrapServers = append(cl.BootstrapServers, ep)
				}
			}
		}
		var defaults []string
		if r.ClientKind != "client" { // a file mixing roles gets no guessed defaults
			defaults = opts.DefaultKeys[scopes[0]]
		}
		cl.Settings = typedSettings(r, c.KafkaVersion, scopes, defaults)
		c.Clients = append(c.Clients, cl)
	case KindMeta:
		c.Meta = append(c.Meta, &MetaProperties{File: r.File, Environment: r.env, NodeFile: r.metaNode, Settings: typedSettings(r, c.KafkaVersion, nil, nil)})
	case KindMirrorMaker:
		mm := &MirrorMaker{File: r.File, Environment: r.env, Clusters: []string{}}
		if s, ok := r.get("clusters"); ok {
			mm.Clusters = splitList(s.Value)
		}
		mm.Settings = typedSettings(r, c.KafkaVersion, []string{catalog.Mirror}, opts.DefaultKeys[catalog.Mirror])
		buildMirror(mm, r)
		c.MirrorMakers = append(c.MirrorMakers, mm)
	case KindTopic:
		t := r.Topic
		t.File, t.Environment = r.File, r.env
		if t.Loc.File == "" {
			t.Loc = r.Loc
		}
		t.Settings = typedSettings(r, c.KafkaVersion, []string{catalog.Topic}, nil)
		c.Topics = append(c.Topics, t)
	}
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

func clientScopes(kind string) []string {
	switch kind {
	case "producer":
		return []string{catalog.Producer, catalog.Admin}
	case "consumer":
		return []string{catalog.Consumer, catalog.Admin}
	case "admin":
		return []string{catalog.Admin}
	}
	return []string{catalog.Producer, catalog.Consumer, catalog.Admin}
}

// metaTypes are the typed fields of meta.properties.
var metaTypes = map[string]string{"version": "int", "node.id": "int", "broker.id": "int"}

// typedSettings types every explicit setting and adds the documented
// default of each key in defaults that the file does not set.
func typedSettings(r *Doc, version string, scopes []string, defaults []string) map[string]*Setting {
	out := make(map[string]*Setting, len(r.Settings)+len(defaults))
	for _, s := range r.Settings {
		typ := typeOf(version, scopes, s.Key)
		if r.Kind == KindMeta {
			typ = cmp.Or(metaTypes[s.Key], "string")
		}
		out[s.Key] = newSetting(s.Key, s.Value, typ, SourceExplicit, s.Loc)
		out[s.Key].Origin = s.Origin
		out[s.Key].Sensitive = out[s.Key].Sensitive || s.Sensitive
		if s.Unknown {
			out[s.Key].Value, out[s.Key].Unknown, out[s.Key].Invalid = nil, true, ""
			if s.Expr != "" {
				out[s.Key].Raw = s.Expr
			}
		}
	}
	for _, key := range defaults {
		if slices.Contains(r.ManagedKeys, key) {
			continue // the platform sets it; Kafka's default is not what runs
		}
		if _, ok := out[key]; ok || len(scopes) == 0 {
			continue
		}
		if d, ok := catalog.Default(version, scopes[0], key); ok {
			out[key] = newSetting(key, d, typeOf(version, scopes, key), SourceDefault, r.Loc)
		}
	}
	annotate(r, version, out)
	return out
}

// typeOf returns a key's ConfigDef type: from the cluster's version, else
// from any cataloged version (keys removed in newer Kafka keep their type),
// else "string".
func typeOf(version string, scopes []string, key string) string {
	for _, s := range scopes {
		if k, ok := catalog.Lookup(version, s, key); ok {
			return k.Type
		}
	}
	vs := catalog.Versions()
	for i := len(vs) - 1; i >= 0; i-- {
		for _, s := range scopes {
			if k, ok := catalog.Lookup(vs[i], s, key); ok {
				return k.Type
			}
		}
	}
	return "string"
}

func newSetting(key, raw, typ, source string, loc Location) *Setting {
	s := &Setting{Key: key, Raw: raw, Type: typ, Source: source, Loc: loc}
	s.markSecret()
	if isPlaceholder(raw) {
		s.Unknown = true
		return s
	}
	s.Value, s.Invalid = typedValue(typ, raw)
	return s
}

// typedValue parses raw as ConfigDef would for typ. On failure it returns a
// nil value and the reason.
func typedValue(typ, raw string) (value any, invalid string) {
	v := strings.TrimSpace(raw)
	switch typ {
	case "boolean":
		switch strings.ToLower(v) {
		case "true":
			return true, ""
		case "false":
			return false, ""
		}
		return nil, fmt.Sprintf("%q is not a boolean (true or false)", v)
	case "int", "short", "long":
		bits := map[string]int{"int": 32, "short": 16, "long": 64}[typ]
		n, err := strconv.ParseInt(v, 10, bits)
		if err != nil {
			return nil, fmt.Sprintf("%q is not a valid %s", v, typ)
		}
		return n, ""
	case "double":
		f, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return nil, fmt.Sprintf("%q is not a number", v)
		}
		return f, ""
	case "list":
		return splitList(v), ""
	}
	return v, ""
}
