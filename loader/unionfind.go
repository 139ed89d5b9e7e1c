package loader

import (
	"maps"
	"slices"
	"strings"
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
// nodes with one id, two incompatible quorum definitions, or two values
// of a cluster-wide key together.
func (u *unionFind) conflict(a, b int) bool {
	return u.idsClash(a, b) || u.quorumsClash(a, b) || u.settingsClash(a, b)
}

func (u *unionFind) idsClash(a, b int) bool {
	ia, ib := u.ids[u.find(a)], u.ids[u.find(b)]
	if len(ia) > len(ib) {
		ia, ib = ib, ia // probe the larger set with the smaller: a group absorbing a directory holds thousands
	}
	for id := range ia {
		if ib[id] {
			return true
		}
	}
	return false
}

func (u *unionFind) quorumsClash(a, b int) bool {
	for qa := range u.quorums[u.find(a)] {
		for qb := range u.quorums[u.find(b)] {
			if !quorumsCompatible(qa, qb) {
				return true
			}
		}
	}
	return false
}

func (u *unionFind) settingsClash(a, b int) bool {
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
	// The order of reasons does not matter (a cluster sorts its own), nor
	// which set of ids is added to which: the smaller goes into the larger,
	// so that a group absorbing one node at a time stays linear.
	small, large := u.reasons[rb], u.reasons[ra]
	if len(small) > len(large) {
		small, large = large, small
	}
	u.reasons[ra] = append(append(large, small...), reason)
	delete(u.reasons, rb)
	if u.ids[rb] != nil {
		u.ids[ra] = mergeSets(u.ids[ra], u.ids[rb])
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
		u.quorums[ra] = mergeSets(u.quorums[ra], u.quorums[rb])
		delete(u.quorums, rb)
	}
}

// mergeSets returns the union of a and b, added to the larger of them.
func mergeSets[K comparable](a, b map[K]bool) map[K]bool {
	if len(a) < len(b) {
		a, b = b, a
	}
	if a == nil {
		a = map[K]bool{}
	}
	maps.Copy(a, b)
	return a
}
