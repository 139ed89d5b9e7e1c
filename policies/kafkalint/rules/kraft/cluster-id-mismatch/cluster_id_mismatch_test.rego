package kafkalint.rules.kraft["cluster-id-mismatch_test"]

import data.kafkalint.lib.result
import data.kafkalint.lib.testing as t
import data.kafkalint.rules.kraft["cluster-id-mismatch"] as rule

_meta(n, cluster_id, id) := t.meta(sprintf("data-%d/meta.properties", [n]), sprintf("node-%d.properties", [n]), [
	["version", 1, 1],
	["cluster.id", cluster_id, 2],
	["node.id", id, 3],
])

_node(n) := t.with_id(t.node(sprintf("node-%d.properties", [n]), ["broker"], []), n, 2)

_cluster(nodes, metas) := t.full_cluster(nodes, [], metas, [])

_id_finding(file, id, others, count_text, other_ids, related) := result.explain(
	t.finding_related(file, 2, "cluster.id", sprintf("cluster.id=%s differs from %s", [id, count_text]), related),
	sprintf(
		"Every log directory of every node of a cluster must be formatted with one cluster id, but %s name cluster.id %s. A node whose directories disagree refuses to start (\"Invalid cluster.id in: ...\"), and a node formatted with another cluster's id is not a member of this cluster.",
		[others, other_ids],
	),
	"Reformat the odd directory with the cluster's id (kafka-storage format --cluster-id, the same value everywhere; it holds no data of this cluster), or check that these files really belong together.",
)

_node_finding(file, line, key, stored, id, node_file, related) := result.explain(
	t.finding_related(file, line, key, sprintf("%s=%d differs from the configured %s=%d: Kafka refuses to start the node", [key, stored, key, id]), related),
	sprintf(
		"This meta.properties stores %s=%d, and its node config %s sets %s=%d. Kafka compares the id stored in every log directory with the configured one and refuses to start the node (\"... If you moved your data, make sure your configured node id matches ...\").",
		[key, stored, node_file, key, id],
	),
	sprintf("If the directory moved here from another node, give this node its old id %d back or reformat the directory; otherwise correct %s in %s.", [stored, key, node_file]),
)

test_fail_odd_cluster_id if {
	metas := [_meta(1, "MkU3OEVBNTcwNTJENDM2Qg", 1), _meta(2, "MkU3OEVBNTcwNTJENDM2Qg", 2), _meta(3, "x7GZCdrZQFmi3qLGYyYo1w", 3)]
	rule.report == {_id_finding("data-3/meta.properties", "x7GZCdrZQFmi3qLGYyYo1w", "data-1/meta.properties, data-2/meta.properties", "2 other meta.properties", "MkU3OEVBNTcwNTJENDM2Qg", [
		["data-1/meta.properties", 2],
		["data-2/meta.properties", 2],
	])} with input as _cluster([_node(1), _node(2), _node(3)], metas)
}

test_fail_two_cluster_ids_no_majority if {
	metas := [_meta(1, "a", 1), _meta(2, "b", 2)]
	rule.report == {
		_id_finding("data-1/meta.properties", "a", "data-2/meta.properties", "another meta.properties", "b", [["data-2/meta.properties", 2]]),
		_id_finding("data-2/meta.properties", "b", "data-1/meta.properties", "another meta.properties", "a", [["data-1/meta.properties", 2]]),
	} with input as _cluster([], metas)
}

test_fail_stored_node_id_differs if {
	rule.report == {_node_finding("data-1/meta.properties", 3, "node.id", 7, 1, "node-1.properties", [["node-1.properties", 2]])} with input as _cluster([_node(1)], [_meta(1, "a", 7)])
}

test_fail_version_0_broker_id if {
	meta := t.meta("data/meta.properties", "server.properties", [["version", 0, 1], ["broker.id", 3, 2], ["cluster.id", "a", 3]])
	node := object.union(t.node("server.properties", [], [["broker.id", 0, 4]]), {"id": 0})
	rule.report == {_node_finding("data/meta.properties", 2, "broker.id", 3, 0, "server.properties", [["server.properties", 4]])} with input as _cluster([node], [meta])
}

test_success_consistent if {
	metas := [_meta(1, "a", 1), _meta(2, "a", 2)]
	count(rule.report) == 0 with input as _cluster([_node(1), _node(2)], metas)
}

test_success_meta_without_certain_node if {
	meta := t.meta("data/meta.properties", "", [["cluster.id", "a", 2], ["node.id", 9, 3]])
	count(rule.report) == 0 with input as _cluster([_node(1)], [meta])
}

test_success_key_absent if {
	meta := t.meta("data-1/meta.properties", "node-1.properties", [["version", 1, 1]])
	count(rule.report) == 0 with input as _cluster([_node(1)], [meta, _meta(2, "a", 2)])
}

test_success_unknown_placeholder if {
	meta := t.meta("data-1/meta.properties", "node-1.properties", [])
	unknown := object.union(meta, {"settings": {
		"cluster.id": t.unknown_setting("data-1/meta.properties", "cluster.id", "${env:CLUSTER_ID}", 2),
		"node.id": t.unknown_setting("data-1/meta.properties", "node.id", "${env:NODE_ID}", 3),
	}})
	count(rule.report) == 0 with input as _cluster([_node(1)], [unknown, _meta(2, "a", 2)])
}

# Built with the loader (kafkalint.parse), not fixtures: two log directories of one node name different clusters.
test_loader_cluster_id_mismatch if {
	clusters := kafkalint.parse_files({
		"prod/kafka/server.properties": `process.roles=broker
node.id=4
controller.quorum.voters=1@c1:9093,2@c2:9093,3@c3:9093
controller.listener.names=CONTROLLER
listeners=SSL://:9093
log.dirs=/data/a,/data/b
`,
		"prod/kafka/a/meta.properties": `version=1
node.id=4
cluster.id=AAAAAAAAAAAAAAAAAAAAAA
`,
		"prod/kafka/b/meta.properties": `version=1
node.id=4
cluster.id=BBBBBBBBBBBBBBBBBBBBBB
`,
	})
	count(clusters) == 1
	reports := rule.report with input as clusters[0]
	{[f.location.file, f.location.line, object.get(f, "key", "")] | some f in reports} == {["prod/kafka/a/meta.properties", 3, "cluster.id"], ["prod/kafka/b/meta.properties", 3, "cluster.id"]}
}
