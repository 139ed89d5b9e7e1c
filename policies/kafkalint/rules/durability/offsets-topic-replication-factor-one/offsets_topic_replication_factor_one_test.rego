package kafkalint.rules.durability["offsets-topic-replication-factor-one_test"]

import data.kafkalint.lib.testing as t
import data.kafkalint.rules.durability["offsets-topic-replication-factor-one"] as rule

_message := "offsets.topic.replication.factor=1: __consumer_offsets has a single replica"

test_fail_rf_one_on_broker if {
	node := t.node("server.properties", ["broker"], [["offsets.topic.replication.factor", 1, 7]])
	rule.report == {t.finding("server.properties", 7, "offsets.topic.replication.factor", _message)} with input as t.cluster([node], [])
}

test_fail_rf_one_on_zookeeper_broker if {
	node := t.node("server.properties", [], [["offsets.topic.replication.factor", 1, 3]])
	rule.report == {t.finding("server.properties", 3, "offsets.topic.replication.factor", _message)} with input as t.cluster([node], [])
}

test_success_rf_three if {
	node := t.node("server.properties", ["broker"], [["offsets.topic.replication.factor", 3, 7]])
	count(rule.report) == 0 with input as t.cluster([node], [])
}

test_success_controller_only if {
	node := t.node("controller.properties", ["controller"], [["offsets.topic.replication.factor", 1, 7]])
	count(rule.report) == 0 with input as t.cluster([node], [])
}

test_success_absent_uses_default_three if {
	node := t.node("server.properties", ["broker"], [["offsets.topic.replication.factor", 3, 0]])
	count(rule.report) == 0 with input as t.cluster([node], [])
}

test_success_unknown_placeholder if {
	node := object.union(
		t.node("server.properties", ["broker"], []),
		{"settings": {"offsets.topic.replication.factor": t.unknown_setting("server.properties", "offsets.topic.replication.factor", "${env:RF}", 4)}},
	)
	count(rule.report) == 0 with input as t.cluster([node], [])
}

# Built with the loader (kafkalint.parse), not fixtures: offsets.topic.replication.factor=1.
test_loader_offsets_topic_replication_factor_one if {
	reports := rule.report with input as kafkalint.parse("", "prod/kafka/server.properties", `process.roles=broker
node.id=4
controller.quorum.voters=1@c1:9093,2@c2:9093,3@c3:9093
controller.listener.names=CONTROLLER
listeners=SSL://:9093
offsets.topic.replication.factor=1
`)
	{[f.location.file, f.location.line, object.get(f, "key", "")] | some f in reports} == {["prod/kafka/server.properties", 6, "offsets.topic.replication.factor"]}
}
