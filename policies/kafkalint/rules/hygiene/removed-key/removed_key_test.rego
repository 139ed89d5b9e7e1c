package kafkalint.rules.hygiene["removed-key_test"]

import data.kafkalint.lib.testing as t
import data.kafkalint.rules.hygiene["removed-key"] as rule

_removed(file, key, value, line) := t.annotated(t.setting(file, key, value, line), {"key_status": "removed", "removed_after": "3.9"})

_kraft_broker := t.node("server.properties", ["broker"], [["process.roles", "broker", 1]])

test_fail_zookeeper_key_left_on_kraft_node if {
	node := t.with_setting(_kraft_broker, _removed("server.properties", "zookeeper.connect", "zk-1:2181", 5))
	rule.report == {object.union(
		t.finding("server.properties", 5, "zookeeper.connect", "zookeeper.connect no longer exists in Kafka 4.3 (last defined in 3.9)"),
		{
			"why": "ZooKeeper mode was removed in Kafka 4.0, and with it every ZooKeeper setting: Kafka ignores the key silently, so whatever it was meant to do does not happen.",
			"fix": "Remove the line: a KRaft node reaches its controllers through the quorum settings.",
		},
	)} with input as t.cluster([node], [])
}

test_fail_other_removed_key if {
	node := t.with_setting(_kraft_broker, _removed("server.properties", "controlled.shutdown.max.retries", 3, 6))
	rule.report == {t.finding(
		"server.properties", 6, "controlled.shutdown.max.retries",
		"controlled.shutdown.max.retries no longer exists in Kafka 4.3 (last defined in 3.9)",
	)} with input as t.cluster([node], [])
}

test_fail_removed_mirror_maker_key if {
	mm := t.with_setting(t.mirror_maker("mm2.properties", [], [], []), _removed("mm2.properties", "A->B.topics.blacklist", "x", 4))
	rule.report == {t.finding(
		"mm2.properties", 4, "A->B.topics.blacklist",
		"A->B.topics.blacklist no longer exists in Kafka 4.3 (last defined in 3.9)",
	)} with input as t.mirror_cluster([mm])
}

test_fail_placeholder_value_does_not_matter if {
	s := t.annotated(t.unknown_setting("server.properties", "zookeeper.connect", "${env:ZK}", 5), {"key_status": "removed", "removed_after": "3.9"})
	node := t.with_setting(_kraft_broker, s)
	count(rule.report) == 1 with input as t.cluster([node], [])
}

# A ZooKeeper-mode file on 4.x: kafka-refuses-to-start reports the one cause.
test_success_zookeeper_node_on_4 if {
	node := t.with_setting(t.node("server.properties", [], []), _removed("server.properties", "zookeeper.connect", "zk-1:2181", 2))
	count(rule.report) == 0 with input as t.cluster([node], [])
}

test_success_known_key if {
	node := t.with_setting(_kraft_broker, t.annotated(t.setting("server.properties", "num.partitions", 3, 4), {"key_status": "known"}))
	count(rule.report) == 0 with input as t.cluster([node], [])
}

test_success_key_absent if {
	count(rule.report) == 0 with input as t.cluster([_kraft_broker], [])
}

# Built with the loader (kafkalint.parse), not fixtures: a key Kafka 4 no longer defines.
test_loader_removed_key if {
	reports := rule.report with input as kafkalint.parse("", "prod/kafka/server.properties", `process.roles=broker
node.id=4
controller.quorum.voters=1@c1:9093,2@c2:9093,3@c3:9093
controller.listener.names=CONTROLLER
listeners=SSL://:9093
zookeeper.connect=zk:2181
`)
	{[f.location.file, f.location.line, object.get(f, "key", "")] | some f in reports} == {["prod/kafka/server.properties", 6, "zookeeper.connect"]}
}
