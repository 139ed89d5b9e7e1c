package kafkalint.rules.operations["auto-leader-rebalance-disabled_test"]

import data.kafkalint.lib.testing as t
import data.kafkalint.rules.operations["auto-leader-rebalance-disabled"] as rule

_message := "auto.leader.rebalance.enable=false: leadership never returns to the preferred replicas"

test_fail_disabled_on_controller if {
	node := t.node("controller.properties", ["controller"], [["auto.leader.rebalance.enable", false, 6]])
	rule.report == {t.finding("controller.properties", 6, "auto.leader.rebalance.enable", _message)} with input as t.cluster([node], [])
}

test_fail_disabled_on_broker if {
	node := t.node("server.properties", ["broker"], [["auto.leader.rebalance.enable", false, 9]])
	rule.report == {t.finding("server.properties", 9, "auto.leader.rebalance.enable", _message)} with input as t.cluster([node], [])
}

test_fail_disabled_on_zookeeper_broker if {
	node := t.node("server.properties", [], [["auto.leader.rebalance.enable", false, 2]])
	rule.report == {t.finding("server.properties", 2, "auto.leader.rebalance.enable", _message)} with input as t.cluster([node], [])
}

test_fail_each_node if {
	controller := t.node("c1/controller.properties", ["controller"], [["auto.leader.rebalance.enable", false, 3]])
	broker := t.node("b1/server.properties", ["broker"], [["auto.leader.rebalance.enable", false, 4]])
	other := t.node("b2/server.properties", ["broker"], [["auto.leader.rebalance.enable", true, 4]])
	rule.report == {
		t.finding("c1/controller.properties", 3, "auto.leader.rebalance.enable", _message),
		t.finding("b1/server.properties", 4, "auto.leader.rebalance.enable", _message),
	} with input as t.cluster([controller, broker, other], [])
}

test_success_enabled if {
	node := t.node("controller.properties", ["controller"], [["auto.leader.rebalance.enable", true, 6]])
	count(rule.report) == 0 with input as t.cluster([node], [])
}

test_success_absent_uses_default_true if {
	node := t.node("server.properties", ["broker", "controller"], [["auto.leader.rebalance.enable", true, 0]])
	count(rule.report) == 0 with input as t.cluster([node], [])
}

test_success_unknown_placeholder if {
	node := object.union(
		t.node("controller.properties", ["controller"], []),
		{"settings": {"auto.leader.rebalance.enable": t.unknown_setting("controller.properties", "auto.leader.rebalance.enable", "${env:REBALANCE}", 6)}},
	)
	count(rule.report) == 0 with input as t.cluster([node], [])
}

# Built with the loader (kafkalint.parse), not fixtures: auto.leader.rebalance.enable=false.
test_loader_auto_leader_rebalance_disabled if {
	reports := rule.report with input as kafkalint.parse("", "prod/kafka/server.properties", `process.roles=broker
node.id=4
controller.quorum.voters=1@c1:9093,2@c2:9093,3@c3:9093
controller.listener.names=CONTROLLER
listeners=SSL://:9093
auto.leader.rebalance.enable=false
`)
	{[f.location.file, f.location.line, object.get(f, "key", "")] | some f in reports} == {["prod/kafka/server.properties", 6, "auto.leader.rebalance.enable"]}
}
