package kafkalint.rules.durability["min-insync-replicas-one_test"]

import data.kafkalint.lib.result
import data.kafkalint.lib.testing as t
import data.kafkalint.rules.durability["min-insync-replicas-one"] as rule

_message(prefix) := concat("", [prefix, ": acks=all writes need only the leader"])

test_fail_explicit_one_with_rf_three if {
	node := t.node("server.properties", ["broker"], [["default.replication.factor", 3, 5], ["min.insync.replicas", 1, 6]])
	rule.report == {t.finding("server.properties", 6, "min.insync.replicas", _message("min.insync.replicas=1 with default.replication.factor=3"))} with input as t.cluster([node], [])
}

test_fail_default_one_anchors_file_start if {
	node := t.node("server.properties", ["broker"], [["default.replication.factor", 3, 5], ["min.insync.replicas", 1, 0]])
	rule.report == {t.finding("server.properties", 1, "min.insync.replicas", _message("min.insync.replicas=1 (Kafka's default) with default.replication.factor=3"))} with input as t.cluster([node], [])
}

test_fail_rf_five_on_zookeeper_broker if {
	node := t.node("server.properties", [], [["default.replication.factor", 5, 2], ["min.insync.replicas", 1, 3]])
	rule.report == {t.finding("server.properties", 3, "min.insync.replicas", _message("min.insync.replicas=1 with default.replication.factor=5"))} with input as t.cluster([node], [])
}

test_fail_on_controller if {
	node := t.node("controller.properties", ["controller"], [["default.replication.factor", 3, 4], ["min.insync.replicas", 1, 0]])
	rule.report == {t.finding("controller.properties", 1, "min.insync.replicas", _message("min.insync.replicas=1 (Kafka's default) with default.replication.factor=3"))} with input as t.cluster([node], [])
}

test_success_min_isr_two if {
	node := t.node("server.properties", ["broker"], [["default.replication.factor", 3, 5], ["min.insync.replicas", 2, 6]])
	count(rule.report) == 0 with input as t.cluster([node], [])
}

test_success_rf_two if {
	node := t.node("server.properties", ["broker"], [["default.replication.factor", 2, 5], ["min.insync.replicas", 1, 6]])
	count(rule.report) == 0 with input as t.cluster([node], [])
}

test_success_both_absent if {
	node := t.node("server.properties", ["broker"], [["default.replication.factor", 1, 0], ["min.insync.replicas", 1, 0]])
	count(rule.report) == 0 with input as t.cluster([node], [])
}

test_success_rf_absent_defaults_to_one if {
	node := t.node("server.properties", ["broker"], [["default.replication.factor", 1, 0], ["min.insync.replicas", 1, 6]])
	count(rule.report) == 0 with input as t.cluster([node], [])
}

test_success_unknown_min_isr if {
	node := object.union(
		t.node("server.properties", ["broker"], [["default.replication.factor", 3, 5]]),
		{"settings": {"min.insync.replicas": t.unknown_setting("server.properties", "min.insync.replicas", "${env:MIN_ISR}", 6)}},
	)
	count(rule.report) == 0 with input as t.cluster([node], [])
}

test_success_unknown_replication_factor if {
	node := object.union(
		t.node("server.properties", ["broker"], [["min.insync.replicas", 1, 0]]),
		{"settings": {"default.replication.factor": t.unknown_setting("server.properties", "default.replication.factor", "${env:RF}", 5)}},
	)
	count(rule.report) == 0 with input as t.cluster([node], [])
}

# --- Topics ---------------------------------------------------------------------

test_fail_topic_sets_min_isr_one if {
	topic := t.declared_topic("topics.tf", "orders", 3, 5, [["min.insync.replicas", 1, 8]])
	rule.report == {t.finding("topics.tf", 8, "min.insync.replicas", "topic orders: min.insync.replicas=1 with replication factor 3")} with input as t.full_cluster([], [], [], [topic])
}

test_fail_confluent_topic_min_isr_one if {
	topic := object.union(
		t.declared_topic("topics.tf", "payments", 3, 1, [["min.insync.replicas", 1, 9]]),
		{"replication_factor": {"source": "platform"}},
	)
	rule.report == {t.finding("topics.tf", 9, "min.insync.replicas", "topic payments: min.insync.replicas=1 with replication factor 3 (fixed by the platform)")} with input as t.full_cluster([], [], [], [topic])
}

test_fail_topic_inherits_kafkas_default if {
	node := t.node("server.properties", ["broker"], [["default.replication.factor", 1, 0], ["min.insync.replicas", 1, 0]])
	topic := t.declared_topic("topics.tf", "orders", 3, 5, [])
	rule.report == {result.explain(
		t.finding_related(
			"topics.tf", 5, "replication.factor",
			"topic orders: inherited min.insync.replicas=1 with replication factor 3",
			[["server.properties", 1]],
		),
		"Topic orders does not set min.insync.replicas, so it runs with min.insync.replicas=1 inherited from the cluster (Kafka's default, not set on its nodes). Once the followers drop out of the in-sync replica set the leader alone acknowledges acks=all writes, so losing that broker loses records producers were told were safe.",
		"Set min.insync.replicas=2 on topic orders (or on the cluster's nodes) and use acks=all in producers.",
	)} with input as t.full_cluster([node], [], [], [topic])
}

test_success_topic_min_isr_two if {
	topic := t.declared_topic("topics.tf", "orders", 3, 5, [["min.insync.replicas", 2, 8]])
	count(rule.report) == 0 with input as t.full_cluster([], [], [], [topic])
}

test_success_topic_rf_two if {
	topic := t.declared_topic("topics.tf", "orders", 2, 5, [["min.insync.replicas", 1, 8]])
	count(rule.report) == 0 with input as t.full_cluster([], [], [], [topic])
}

test_success_topic_min_isr_absent_without_nodes if {
	topic := t.declared_topic("topics.tf", "orders", 3, 5, [])
	count(rule.report) == 0 with input as t.full_cluster([], [], [], [topic])
}

test_success_topic_overrides_the_nodes_value if {
	node := t.node("server.properties", ["broker"], [["default.replication.factor", 1, 0], ["min.insync.replicas", 1, 0]])
	topic := t.declared_topic("topics.tf", "orders", 3, 5, [["min.insync.replicas", 2, 8]])
	count(rule.report) == 0 with input as t.full_cluster([node], [], [], [topic])
}

test_success_topic_unknown_replication_factor if {
	topic := object.union(
		object.remove(t.declared_topic("topics.tf", "orders", 3, 5, [["min.insync.replicas", 1, 8]]), ["replication_factor"]),
		{"replication_factor": t.unknown_setting("topics.tf", "replication.factor", "${each.value.rf}", 5)},
	)
	count(rule.report) == 0 with input as t.full_cluster([], [], [], [topic])
}

# Amazon MSK sets min.insync.replicas itself (2 on a three-zone cluster):
# Kafka's default 1 is not what runs.
test_success_managed_default_min_isr if {
	node := t.with_managed_keys(
		t.node("main.tf", [], [["default.replication.factor", 3, 7], ["min.insync.replicas", 1, 0]]),
		["default.replication.factor", "min.insync.replicas"],
	)
	topic := t.declared_topic("topics.tf", "orders", 3, 5, [])
	count(rule.report) == 0 with input as t.full_cluster([node], [], [], [topic])
}

# Built with the loader (kafkalint.parse), not fixtures: min.insync.replicas=1 with replication factor 3.
test_loader_min_insync_replicas_one if {
	reports := rule.report with input as kafkalint.parse("", "prod/kafka/server.properties", `process.roles=broker
node.id=4
controller.quorum.voters=1@c1:9093,2@c2:9093,3@c3:9093
controller.listener.names=CONTROLLER
listeners=SSL://:9093
default.replication.factor=3
min.insync.replicas=1
`)
	{[f.location.file, f.location.line, object.get(f, "key", "")] | some f in reports} == {["prod/kafka/server.properties", 7, "min.insync.replicas"]}
}
