package kafkalint.rules.durability["min-insync-replicas-one_test"]

import data.kafkalint.lib.testing as t
import data.kafkalint.rules.durability["min-insync-replicas-one"] as rule

_rest := ": once the followers drop out of the in-sync replica set the leader alone acknowledges acks=all writes, so losing that broker loses records producers were told were safe; set min.insync.replicas=2 and use acks=all"

_message(prefix) := concat("", [prefix, _rest])

test_fail_explicit_one_with_rf_three if {
	node := t.node("server.properties", ["broker"], [["default.replication.factor", 3, 5], ["min.insync.replicas", 1, 6]])
	rule.report == {t.finding("server.properties", 6, "min.insync.replicas", _message("min.insync.replicas=1 with default.replication.factor=3"))} with input as t.cluster([node], [])
}

test_fail_default_one_anchors_file_start if {
	node := t.node("server.properties", ["broker"], [["default.replication.factor", 3, 5], ["min.insync.replicas", 1, 0]])
	rule.report == {t.finding("server.properties", 1, "min.insync.replicas", _message("min.insync.replicas=1 (Kafka's default, not set in the file) with default.replication.factor=3"))} with input as t.cluster([node], [])
}

test_fail_rf_five_on_zookeeper_broker if {
	node := t.node("server.properties", [], [["default.replication.factor", 5, 2], ["min.insync.replicas", 1, 3]])
	rule.report == {t.finding("server.properties", 3, "min.insync.replicas", _message("min.insync.replicas=1 with default.replication.factor=5"))} with input as t.cluster([node], [])
}

test_fail_on_controller if {
	node := t.node("controller.properties", ["controller"], [["default.replication.factor", 3, 4], ["min.insync.replicas", 1, 0]])
	rule.report == {t.finding("controller.properties", 1, "min.insync.replicas", _message("min.insync.replicas=1 (Kafka's default, not set in the file) with default.replication.factor=3"))} with input as t.cluster([node], [])
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
