package kafkalint.rules.durability["transaction-state-log-replication-factor-one_test"]

import data.kafkalint.lib.testing as t
import data.kafkalint.rules.durability["transaction-state-log-replication-factor-one"] as rule

_message := "transaction.state.log.replication.factor=1: __transaction_state has a single replica"

test_fail_rf_one_on_broker if {
	node := t.node("server.properties", ["broker"], [["transaction.state.log.replication.factor", 1, 9]])
	rule.report == {t.finding("server.properties", 9, "transaction.state.log.replication.factor", _message)} with input as t.cluster([node], [])
}

test_fail_rf_one_on_combined_node if {
	node := t.node("server.properties", ["broker", "controller"], [["transaction.state.log.replication.factor", 1, 4]])
	rule.report == {t.finding("server.properties", 4, "transaction.state.log.replication.factor", _message)} with input as t.cluster([node], [])
}

test_fail_rf_one_on_zookeeper_broker if {
	node := t.node("server.properties", [], [["transaction.state.log.replication.factor", 1, 3]])
	rule.report == {t.finding("server.properties", 3, "transaction.state.log.replication.factor", _message)} with input as t.cluster([node], [])
}

test_fail_only_the_broker_with_rf_one if {
	bad := t.node("b1/server.properties", ["broker"], [["transaction.state.log.replication.factor", 1, 2]])
	good := t.node("b2/server.properties", ["broker"], [["transaction.state.log.replication.factor", 3, 2]])
	rule.report == {t.finding("b1/server.properties", 2, "transaction.state.log.replication.factor", _message)} with input as t.cluster([bad, good], [])
}

test_success_rf_three if {
	node := t.node("server.properties", ["broker"], [["transaction.state.log.replication.factor", 3, 9]])
	count(rule.report) == 0 with input as t.cluster([node], [])
}

test_success_rf_two if {
	node := t.node("server.properties", ["broker"], [["transaction.state.log.replication.factor", 2, 9]])
	count(rule.report) == 0 with input as t.cluster([node], [])
}

test_success_controller_only if {
	node := t.node("controller.properties", ["controller"], [["transaction.state.log.replication.factor", 1, 7]])
	count(rule.report) == 0 with input as t.cluster([node], [])
}

test_success_absent_uses_default_three if {
	node := t.node("server.properties", ["broker"], [["transaction.state.log.replication.factor", 3, 0]])
	count(rule.report) == 0 with input as t.cluster([node], [])
}

test_success_absent_without_default if {
	node := t.node("server.properties", ["broker"], [])
	count(rule.report) == 0 with input as t.cluster([node], [])
}

test_success_unknown_placeholder if {
	node := object.union(
		t.node("server.properties", ["broker"], []),
		{"settings": {"transaction.state.log.replication.factor": t.unknown_setting("server.properties", "transaction.state.log.replication.factor", "${env:TX_RF}", 4)}},
	)
	count(rule.report) == 0 with input as t.cluster([node], [])
}

# Built with the loader (kafkalint.parse), not fixtures: transaction.state.log.replication.factor=1.
test_loader_transaction_state_log_replication_factor_one if {
	reports := rule.report with input as kafkalint.parse("", "prod/kafka/server.properties", `process.roles=broker
node.id=4
controller.quorum.voters=1@c1:9093,2@c2:9093,3@c3:9093
controller.listener.names=CONTROLLER
listeners=SSL://:9093
transaction.state.log.replication.factor=1
`)
	{[f.location.file, f.location.line, object.get(f, "key", "")] | some f in reports} == {["prod/kafka/server.properties", 6, "transaction.state.log.replication.factor"]}
}
