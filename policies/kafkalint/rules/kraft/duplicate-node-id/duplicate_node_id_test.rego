package kafkalint.rules.kraft["duplicate-node-id_test"]

import data.kafkalint.lib.result
import data.kafkalint.lib.testing as t
import data.kafkalint.rules.kraft["duplicate-node-id"] as rule

_node(file, roles, id) := t.with_id(t.node(file, roles, []), id, 2)

_finding(file, line, key, id, roles, others, count_text, related) := result.explain(
	t.finding_related(file, line, key, sprintf("%s=%d (%s) is also the id of %s", [key, id, roles, count_text]), related),
	sprintf(
		"The same id is also set in %s. Kafka identifies brokers and controllers by this id alone (broker registration, partition replicas, the quorum's voters, meta.properties), so the processes claim one identity and cannot all run as themselves.",
		[others],
	),
	"Give every broker and controller of the cluster its own id. A node's id is also stored in its log directories' meta.properties, so change it only together with them.",
)

test_fail_two_brokers_share_an_id if {
	nodes := [
		_node("b1.properties", ["broker"], 4),
		_node("b2.properties", ["broker"], 4),
		_node("b3.properties", ["broker"], 6),
	]
	rule.report == {
		_finding("b1.properties", 2, "node.id", 4, "broker", "b2.properties (broker)", "another node", [["b2.properties", 2]]),
		_finding("b2.properties", 2, "node.id", 4, "broker", "b1.properties (broker)", "another node", [["b1.properties", 2]]),
	} with input as t.cluster(nodes, [])
}

test_fail_whatever_the_roles if {
	nodes := [
		_node("c1.properties", ["controller"], 1),
		_node("b1.properties", ["broker"], 1),
		_node("x1.properties", ["broker", "controller"], 1),
	]
	rule.report == {
		_finding("b1.properties", 2, "node.id", 1, "broker", "c1.properties (controller), x1.properties (broker and controller)", "2 other nodes", [["c1.properties", 2], ["x1.properties", 2]]),
		_finding("c1.properties", 2, "node.id", 1, "controller", "b1.properties (broker), x1.properties (broker and controller)", "2 other nodes", [["b1.properties", 2], ["x1.properties", 2]]),
		_finding("x1.properties", 2, "node.id", 1, "broker and controller", "b1.properties (broker), c1.properties (controller)", "2 other nodes", [["b1.properties", 2], ["c1.properties", 2]]),
	} with input as t.cluster(nodes, [])
}

test_fail_broker_id_of_zookeeper_brokers if {
	nodes := [
		object.union(t.node("b1.properties", [], [["broker.id", 0, 3]]), {"id": 0}),
		object.union(t.node("b2.properties", [], [["broker.id", 0, 5]]), {"id": 0}),
	]
	rule.report == {
		_finding("b1.properties", 3, "broker.id", 0, "ZooKeeper-mode broker", "b2.properties (ZooKeeper-mode broker)", "another node", [["b2.properties", 5]]),
		_finding("b2.properties", 5, "broker.id", 0, "ZooKeeper-mode broker", "b1.properties (ZooKeeper-mode broker)", "another node", [["b1.properties", 3]]),
	} with input as t.cluster(nodes, [])
}

test_success_distinct_ids if {
	nodes := [_node("c1.properties", ["controller"], 1), _node("b1.properties", ["broker"], 4)]
	count(rule.report) == 0 with input as t.cluster(nodes, [])
}

test_success_generated_broker_ids if {
	nodes := [
		object.union(t.node("b1.properties", [], [["broker.id", -1, 3]]), {"id": -1}),
		object.union(t.node("b2.properties", [], [["broker.id", -1, 3]]), {"id": -1}),
	]
	count(rule.report) == 0 with input as t.cluster(nodes, [])
}

test_success_key_absent if {
	nodes := [t.node("b1.properties", ["broker"], []), t.node("b2.properties", ["broker"], [])]
	count(rule.report) == 0 with input as t.cluster(nodes, [])
}

test_success_unknown_placeholder if {
	unknown := object.union(t.node("b2.properties", ["broker"], []), {"settings": {"node.id": t.unknown_setting("b2.properties", "node.id", "${env:NODE_ID}", 2)}})
	count(rule.report) == 0 with input as t.cluster([_node("b1.properties", ["broker"], 4), unknown], [])
}

# Built with the loader (kafkalint.parse), not fixtures: two brokers share node.id 4.
test_loader_duplicate_node_id if {
	clusters := kafkalint.parse_files({
		"prod/kafka/b1.properties": `process.roles=broker
node.id=4
controller.quorum.voters=1@c1:9093,2@c2:9093,3@c3:9093
controller.listener.names=CONTROLLER
listeners=SSL://:9093
`,
		"prod/kafka/b2.properties": `process.roles=broker
node.id=4
controller.quorum.voters=1@c1:9093,2@c2:9093,3@c3:9093
controller.listener.names=CONTROLLER
listeners=SSL://:9093
`,
	})
	count(clusters) == 1
	reports := rule.report with input as clusters[0]
	{[f.location.file, f.location.line, object.get(f, "key", "")] | some f in reports} == {["prod/kafka/b1.properties", 2, "node.id"], ["prod/kafka/b2.properties", 2, "node.id"]}
}
