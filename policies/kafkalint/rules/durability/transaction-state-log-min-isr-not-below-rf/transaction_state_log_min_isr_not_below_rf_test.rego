package kafkalint.rules.durability["transaction-state-log-min-isr-not-below-rf_test"]

import data.kafkalint.lib.result
import data.kafkalint.lib.testing as t
import data.kafkalint.rules.durability["transaction-state-log-min-isr-not-below-rf"] as rule

_one_down := "so one broker down (a rolling restart) leaves transactional producers and exactly-once applications unable to begin or commit transactions until it is back"

_created := "__transaction_state is created with min.insync.replicas set to transaction.state.log.min.isr and written with acks=all."

_fix(n) := sprintf("Set transaction.state.log.min.isr to %d or less. An existing __transaction_state keeps its min.insync.replicas: change it with kafka-configs.sh --entity-type topics --entity-name __transaction_state.", [n])

_finding(line, key, message, why, n) := result.explain(t.finding("server.properties", line, key, message), sprintf("%s %s", [_created, why]), _fix(n))

test_fail_min_isr_equals_rf if {
	node := t.node("server.properties", ["broker"], [["transaction.state.log.replication.factor", 3, 5], ["transaction.state.log.min.isr", 3, 6]])
	rule.report == {_finding(
		6, "transaction.state.log.min.isr",
		"transaction.state.log.min.isr=3 with replication factor 3: one broker down stops transactions",
		sprintf("With transaction.state.log.min.isr=3 and transaction.state.log.replication.factor=3, writes to __transaction_state need every replica in sync, %s.", [_one_down]),
		2,
	)} with input as t.cluster([node], [])
}

test_fail_rf_two_with_default_min_isr_anchors_rf if {
	node := t.node("server.properties", ["broker"], [["transaction.state.log.replication.factor", 2, 5], ["transaction.state.log.min.isr", 2, 0]])
	rule.report == {_finding(
		5, "transaction.state.log.replication.factor",
		"transaction.state.log.min.isr=2 (Kafka's default) with replication factor 2: one broker down stops transactions",
		sprintf("With transaction.state.log.min.isr=2 (Kafka's default) and transaction.state.log.replication.factor=2, writes to __transaction_state need every replica in sync, %s.", [_one_down]),
		1,
	)} with input as t.cluster([node], [])
}

test_fail_min_isr_above_rf_capped_since_3_7 if {
	node := t.node("server.properties", [], [["transaction.state.log.replication.factor", 2, 5], ["transaction.state.log.min.isr", 3, 6]])
	rule.report == {_finding(
		6, "transaction.state.log.min.isr",
		"transaction.state.log.min.isr=3 with replication factor 2: one broker down stops transactions",
		sprintf("With transaction.state.log.min.isr=3 and transaction.state.log.replication.factor=2, writes to __transaction_state need more in-sync replicas than the 2 that exist; Kafka 3.7 caps the requirement at the replica count (since 3.7), %s.", [_one_down]),
		1,
	)} with input as t.at_version(t.cluster([node], []), "3.7")
}

test_fail_min_isr_above_rf_before_3_7 if {
	node := t.node("server.properties", [], [["transaction.state.log.replication.factor", 2, 5], ["transaction.state.log.min.isr", 3, 6]])
	rule.report == {_finding(
		6, "transaction.state.log.min.isr",
		"transaction.state.log.min.isr=3 with replication factor 2: no transaction can commit",
		"With transaction.state.log.min.isr=3 and transaction.state.log.replication.factor=2, writes to __transaction_state need more in-sync replicas than the 2 that exist, and Kafka 3.6 (before 3.7) rejects every such write, so no transaction can ever commit.",
		1,
	)} with input as t.at_version(t.cluster([node], []), "3.6")
}

test_success_defaults if {
	node := t.node("server.properties", ["broker"], [["transaction.state.log.replication.factor", 3, 0], ["transaction.state.log.min.isr", 2, 0]])
	count(rule.report) == 0 with input as t.cluster([node], [])
}

test_success_min_isr_below_rf if {
	node := t.node("server.properties", ["broker"], [["transaction.state.log.replication.factor", 3, 5], ["transaction.state.log.min.isr", 2, 6]])
	count(rule.report) == 0 with input as t.cluster([node], [])
}

test_success_rf_one_is_another_rule if {
	node := t.node("server.properties", ["broker"], [["transaction.state.log.replication.factor", 1, 5], ["transaction.state.log.min.isr", 1, 6]])
	count(rule.report) == 0 with input as t.cluster([node], [])
}

test_success_controller_only_node if {
	node := t.node("controller.properties", ["controller"], [["transaction.state.log.replication.factor", 3, 5], ["transaction.state.log.min.isr", 3, 6]])
	count(rule.report) == 0 with input as t.cluster([node], [])
}

test_success_unknown_placeholder if {
	node := t.with_setting(
		t.node("server.properties", ["broker"], [["transaction.state.log.replication.factor", 3, 5]]),
		t.unknown_setting("server.properties", "transaction.state.log.min.isr", "${env:MIN_ISR}", 6),
	)
	count(rule.report) == 0 with input as t.cluster([node], [])
}

# Built with the loader (kafkalint.parse), not fixtures: transaction.state.log.min.isr equals its replication factor.
test_loader_transaction_state_log_min_isr_not_below_rf if {
	reports := rule.report with input as kafkalint.parse("", "prod/kafka/server.properties", `process.roles=broker
node.id=4
controller.quorum.voters=1@c1:9093,2@c2:9093,3@c3:9093
controller.listener.names=CONTROLLER
listeners=SSL://:9093
transaction.state.log.replication.factor=3
transaction.state.log.min.isr=3
`)
	{[f.location.file, f.location.line, object.get(f, "key", "")] | some f in reports} == {["prod/kafka/server.properties", 7, "transaction.state.log.min.isr"]}
}
