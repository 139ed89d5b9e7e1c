package kafkalint.rules.durability["min-insync-replicas-not-below-replication-factor_test"]

import data.kafkalint.lib.result
import data.kafkalint.lib.testing as t
import data.kafkalint.rules.durability["min-insync-replicas-not-below-replication-factor"] as rule

_message(prefix) := concat("", [prefix, ": one replica down fails acks=all writes"])

test_fail_equal_on_broker if {
	node := t.node("server.properties", ["broker"], [["default.replication.factor", 3, 5], ["min.insync.replicas", 3, 6]])
	rule.report == {t.finding("server.properties", 6, "min.insync.replicas", _message("min.insync.replicas=3 with default.replication.factor=3"))} with input as t.cluster([node], [])
}

test_fail_above_on_zookeeper_broker if {
	node := t.node("server.properties", [], [["default.replication.factor", 2, 5], ["min.insync.replicas", 3, 2]])
	rule.report == {t.finding("server.properties", 2, "min.insync.replicas", _message("min.insync.replicas=3 with default.replication.factor=2"))} with input as t.cluster([node], [])
}

test_fail_on_controller if {
	node := t.node("controller.properties", ["controller"], [["default.replication.factor", 2, 8], ["min.insync.replicas", 2, 9]])
	rule.report == {t.finding("controller.properties", 9, "min.insync.replicas", _message("min.insync.replicas=2 with default.replication.factor=2"))} with input as t.cluster([node], [])
}

test_fail_each_node_separately if {
	bad := t.node("b1/server.properties", ["broker"], [["default.replication.factor", 3, 1], ["min.insync.replicas", 3, 2]])
	good := t.node("b2/server.properties", ["broker"], [["default.replication.factor", 3, 1], ["min.insync.replicas", 2, 2]])
	rule.report == {t.finding("b1/server.properties", 2, "min.insync.replicas", _message("min.insync.replicas=3 with default.replication.factor=3"))} with input as t.cluster([bad, good], [])
}

# A default-source min.insync.replicas is anchored at line 1 of the file and
# named as Kafka's default (Kafka's real default, 1, can never trigger this
# rule; the value here only exercises the anchoring).
test_fail_default_min_isr_anchors_file_start if {
	node := t.node("server.properties", ["broker"], [["default.replication.factor", 2, 5], ["min.insync.replicas", 2, 0]])
	rule.report == {t.finding("server.properties", 1, "min.insync.replicas", _message("min.insync.replicas=2 (Kafka's default) with default.replication.factor=2"))} with input as t.cluster([node], [])
}

test_success_below_replication_factor if {
	node := t.node("server.properties", ["broker"], [["default.replication.factor", 3, 5], ["min.insync.replicas", 2, 6]])
	count(rule.report) == 0 with input as t.cluster([node], [])
}

test_success_replication_factor_one if {
	node := t.node("server.properties", ["broker"], [["default.replication.factor", 1, 5], ["min.insync.replicas", 1, 6]])
	count(rule.report) == 0 with input as t.cluster([node], [])
}

test_success_replication_factor_absent_defaults_to_one if {
	node := t.node("server.properties", ["broker"], [["default.replication.factor", 1, 0], ["min.insync.replicas", 2, 6]])
	count(rule.report) == 0 with input as t.cluster([node], [])
}

test_success_both_absent if {
	node := t.node("server.properties", ["broker"], [["default.replication.factor", 1, 0], ["min.insync.replicas", 1, 0]])
	count(rule.report) == 0 with input as t.cluster([node], [])
}

test_success_min_isr_absent_defaults_to_one if {
	node := t.node("server.properties", ["broker"], [["default.replication.factor", 3, 5], ["min.insync.replicas", 1, 0]])
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
		t.node("server.properties", ["broker"], [["min.insync.replicas", 3, 6]]),
		{"settings": {"default.replication.factor": t.unknown_setting("server.properties", "default.replication.factor", "${env:RF}", 5)}},
	)
	count(rule.report) == 0 with input as t.cluster([node], [])
}

# --- Topics ---------------------------------------------------------------------

_msk := ["default.replication.factor", "min.insync.replicas"]

test_fail_topic_sets_min_isr_equal_to_its_replication_factor if {
	topic := t.declared_topic("topics.tf", "orders", 3, 5, [["min.insync.replicas", 3, 8]])
	rule.report == {t.finding("topics.tf", 8, "min.insync.replicas", "topic orders: min.insync.replicas=3 is not below replication factor 3")} with input as t.full_cluster([], [], [], [topic])
}

test_fail_topic_with_platform_replication_factor if {
	topic := object.union(
		t.declared_topic("topics.tf", "orders", 3, 5, [["min.insync.replicas", 4, 8]]),
		{"replication_factor": {"source": "platform", "location": {"file": "topics.tf", "line": 1, "column": 1}}},
	)
	rule.report == {t.finding("topics.tf", 8, "min.insync.replicas", "topic orders: min.insync.replicas=4 is not below replication factor 3 (fixed by the platform)")} with input as t.full_cluster([], [], [], [topic])
}

test_fail_topic_inherits_the_nodes_value if {
	b1 := t.node("b1/server.properties", ["broker"], [["default.replication.factor", 1, 0], ["min.insync.replicas", 3, 4]])
	b2 := t.node("b2/server.properties", ["broker"], [["default.replication.factor", 1, 0], ["min.insync.replicas", 3, 6]])
	topic := t.declared_topic("topics.tf", "orders", 3, 5, [["retention.ms", 1000, 7]])
	rule.report == {result.explain(
		t.finding_related(
			"topics.tf", 5, "replication.factor",
			"topic orders: inherited min.insync.replicas=3 is not below replication factor 3",
			[["b1/server.properties", 4], ["b2/server.properties", 6]],
		),
		"Topic orders does not set min.insync.replicas, so it runs with min.insync.replicas=3 inherited from the cluster's nodes. As that is not below its replication factor 3, one replica that is restarting, lagging or down makes every acks=all write to the topic fail with NOT_ENOUGH_REPLICAS, so a rolling restart becomes a producer outage.",
		"Set min.insync.replicas on topic orders below its replication factor (the Kafka docs use 2 with a replication factor of 3), or lower min.insync.replicas on the cluster's nodes.",
	)} with input as t.full_cluster([b1, b2], [], [], [topic])
}

test_success_topic_below_its_replication_factor if {
	topic := t.declared_topic("topics.tf", "orders", 3, 5, [["min.insync.replicas", 2, 8]])
	count(rule.report) == 0 with input as t.full_cluster([], [], [], [topic])
}

test_success_topic_replication_factor_one if {
	topic := t.declared_topic("topics.tf", "logs", 1, 5, [["min.insync.replicas", 1, 8]])
	count(rule.report) == 0 with input as t.full_cluster([], [], [], [topic])
}

# Without the cluster's nodes in the model the inherited value is not known.
test_success_topic_min_isr_absent_without_nodes if {
	topic := t.declared_topic("topics.tf", "orders", 2, 5, [])
	count(rule.report) == 0 with input as t.full_cluster([], [], [], [topic])
}

test_success_topic_inherits_when_nodes_disagree if {
	b1 := t.node("b1/server.properties", ["broker"], [["default.replication.factor", 1, 0], ["min.insync.replicas", 3, 4]])
	b2 := t.node("b2/server.properties", ["broker"], [["default.replication.factor", 1, 0], ["min.insync.replicas", 2, 6]])
	topic := t.declared_topic("topics.tf", "orders", 3, 5, [])
	count(rule.report) == 0 with input as t.full_cluster([b1, b2], [], [], [topic])
}

test_success_topic_config_unknown if {
	b1 := t.node("b1/server.properties", ["broker"], [["default.replication.factor", 1, 0], ["min.insync.replicas", 3, 4]])
	topic := object.union(t.declared_topic("topics.tf", "orders", 3, 5, []), {"config_unknown": true})
	count(rule.report) == 0 with input as t.full_cluster([b1], [], [], [topic])
}

test_success_topic_unknown_min_isr if {
	topic := object.union(t.declared_topic("topics.tf", "orders", 3, 5, []), {"settings": {"min.insync.replicas": t.unknown_setting("topics.tf", "min.insync.replicas", "${var.min_isr}", 8)}})
	count(rule.report) == 0 with input as t.full_cluster([], [], [], [topic])
}

# On a managed platform (Amazon MSK) Kafka's default of a managed key is not
# the value that runs: neither the node nor an inheriting topic is judged.
test_success_managed_defaults_unknown if {
	node := t.with_managed_keys(t.node("main.tf", [], [["default.replication.factor", 1, 0], ["min.insync.replicas", 1, 0]]), _msk)
	explicit_min_isr := t.with_managed_keys(t.node("main.tf", [], [["default.replication.factor", 1, 0], ["min.insync.replicas", 3, 9]]), _msk)
	topic := t.declared_topic("topics.tf", "orders", 3, 5, [])
	count(rule.report) == 0 with input as t.full_cluster([node], [], [], [topic])
	count(rule.report) == 0 with input as t.full_cluster([explicit_min_isr], [], [], [])
}

# Built with the loader (kafkalint.parse), not fixtures: min.insync.replicas equals default.replication.factor.
test_loader_min_insync_replicas_not_below_replication_factor if {
	reports := rule.report with input as kafkalint.parse("", "prod/kafka/server.properties", `process.roles=broker
node.id=4
controller.quorum.voters=1@c1:9093,2@c2:9093,3@c3:9093
controller.listener.names=CONTROLLER
listeners=SSL://:9093
default.replication.factor=2
min.insync.replicas=2
`)
	{[f.location.file, f.location.line, object.get(f, "key", "")] | some f in reports} == {["prod/kafka/server.properties", 7, "min.insync.replicas"]}
}
