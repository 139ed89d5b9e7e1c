package kafkalint.rules.operations["controlled-shutdown-not-explicit_test"]

import data.kafkalint.lib.testing as t
import data.kafkalint.rules.operations["controlled-shutdown-not-explicit"] as rule

_message := "controlled.shutdown.enable is not set, so the broker runs with Kafka's default (true)"

test_fail_default_on_kraft_broker if {
	node := t.node("server.properties", ["broker"], [["controlled.shutdown.enable", true, 0], ["node.id", 4, 2]])
	rule.report == {t.finding("server.properties", 1, "controlled.shutdown.enable", _message)} with input as t.cluster([node], [])
}

test_fail_key_missing_altogether if {
	node := t.node("server.properties", ["broker", "controller"], [["node.id", 1, 2]])
	rule.report == {t.finding("server.properties", 1, "controlled.shutdown.enable", _message)} with input as t.cluster([node], [])
}

test_fail_default_on_zookeeper_broker if {
	node := t.node("zk/server.properties", [], [["controlled.shutdown.enable", true, 0]])
	rule.report == {t.finding("zk/server.properties", 1, "controlled.shutdown.enable", _message)} with input as t.cluster([node], [])
}

test_fail_only_brokers_without_the_key if {
	missing := t.node("b1/server.properties", ["broker"], [["controlled.shutdown.enable", true, 0]])
	written := t.node("b2/server.properties", ["broker"], [["controlled.shutdown.enable", true, 12]])
	controller := t.node("c1/controller.properties", ["controller"], [["controlled.shutdown.enable", true, 0]])
	rule.report == {t.finding("b1/server.properties", 1, "controlled.shutdown.enable", _message)} with input as t.cluster([missing, written, controller], [])
}

test_success_explicit_true if {
	node := t.node("server.properties", ["broker"], [["controlled.shutdown.enable", true, 12]])
	count(rule.report) == 0 with input as t.cluster([node], [])
}

test_success_explicit_false_is_kfk4001 if {
	node := t.node("server.properties", ["broker"], [["controlled.shutdown.enable", false, 12]])
	count(rule.report) == 0 with input as t.cluster([node], [])
}

test_success_controller_only if {
	node := t.node("controller.properties", ["controller"], [["controlled.shutdown.enable", true, 0]])
	count(rule.report) == 0 with input as t.cluster([node], [])
}

test_success_unknown_placeholder_counts_as_set if {
	node := object.union(
		t.node("server.properties", ["broker"], []),
		{"settings": {"controlled.shutdown.enable": t.unknown_setting("server.properties", "controlled.shutdown.enable", "${env:CS}", 6)}},
	)
	count(rule.report) == 0 with input as t.cluster([node], [])
}

test_success_platform_manages_the_key if {
	node := object.union(t.node("main.tf", ["broker"], []), {"managed_keys": ["controlled.shutdown.enable"]})
	count(rule.report) == 0 with input as t.cluster([node], [])
}

# Built with the loader (kafkalint.parse), not fixtures: controlled.shutdown.enable not written.
test_loader_controlled_shutdown_not_explicit if {
	reports := rule.report with input as kafkalint.parse("", "prod/kafka/server.properties", `process.roles=broker
node.id=4
controller.quorum.voters=1@c1:9093,2@c2:9093,3@c3:9093
controller.listener.names=CONTROLLER
listeners=SSL://:9093
`)
	{[f.location.file, f.location.line, object.get(f, "key", "")] | some f in reports} == {["prod/kafka/server.properties", 1, "controlled.shutdown.enable"]}
}
