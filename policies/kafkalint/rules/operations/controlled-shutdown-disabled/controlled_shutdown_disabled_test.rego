package kafkalint.rules.operations["controlled-shutdown-disabled_test"]

import data.kafkalint.lib.testing as t
import data.kafkalint.rules.operations["controlled-shutdown-disabled"] as rule

_enable_message := "controlled.shutdown.enable=false: a stopping broker does not hand over its partition leadership"

# _retries is the finding about controlled.shutdown.max.retries=0 at line 5.
_retries := object.union(
	t.finding("server.properties", 5, "controlled.shutdown.max.retries", "controlled.shutdown.max.retries=0: the ZooKeeper-mode broker never attempts a controlled shutdown"),
	{
		"why": "With no attempt allowed the broker shuts down uncleanly, so the partitions it leads have no leader until the controller notices that the broker is gone.",
		"fix": "Remove the line (the default is 3).",
	},
)

test_fail_disabled_on_kraft_broker if {
	node := t.node("server.properties", ["broker"], [["controlled.shutdown.enable", false, 8]])
	rule.report == {t.finding("server.properties", 8, "controlled.shutdown.enable", _enable_message)} with input as t.cluster([node], [])
}

test_fail_disabled_on_combined_node if {
	node := t.node("server.properties", ["broker", "controller"], [["controlled.shutdown.enable", false, 3]])
	rule.report == {t.finding("server.properties", 3, "controlled.shutdown.enable", _enable_message)} with input as t.cluster([node], [])
}

test_fail_disabled_on_zookeeper_broker if {
	node := t.node("server.properties", [], [["controlled.shutdown.enable", false, 4]])
	rule.report == {t.finding("server.properties", 4, "controlled.shutdown.enable", _enable_message)} with input as t.cluster([node], [])
}

test_fail_zero_retries_on_zookeeper_broker if {
	node := t.node("server.properties", [], [["controlled.shutdown.enable", true, 4], ["controlled.shutdown.max.retries", 0, 5]])
	rule.report == {_retries} with input as t.cluster([node], [])
}

test_fail_both_on_zookeeper_broker if {
	node := t.node("server.properties", [], [["controlled.shutdown.enable", false, 4], ["controlled.shutdown.max.retries", 0, 5]])
	rule.report == {
		t.finding("server.properties", 4, "controlled.shutdown.enable", _enable_message),
		_retries,
	} with input as t.cluster([node], [])
}

test_success_enabled if {
	node := t.node("server.properties", ["broker"], [["controlled.shutdown.enable", true, 8]])
	count(rule.report) == 0 with input as t.cluster([node], [])
}

test_success_controller_only if {
	node := t.node("controller.properties", ["controller"], [["controlled.shutdown.enable", false, 8]])
	count(rule.report) == 0 with input as t.cluster([node], [])
}

test_success_zero_retries_ignored_on_kraft_broker if {
	# Removed in 4.0; a leftover key on a KRaft node is ignored by Kafka.
	node := t.node("server.properties", ["broker"], [["controlled.shutdown.max.retries", 0, 5]])
	count(rule.report) == 0 with input as t.cluster([node], [])
}

test_success_zookeeper_retries_positive if {
	node := t.node("server.properties", [], [["controlled.shutdown.max.retries", 3, 5]])
	count(rule.report) == 0 with input as t.cluster([node], [])
}

test_success_absent_uses_defaults if {
	node := t.node("server.properties", [], [["controlled.shutdown.enable", true, 0], ["controlled.shutdown.max.retries", 3, 0]])
	count(rule.report) == 0 with input as t.cluster([node], [])
}

test_success_unknown_placeholders if {
	node := object.union(
		t.node("server.properties", [], []),
		{"settings": {
			"controlled.shutdown.enable": t.unknown_setting("server.properties", "controlled.shutdown.enable", "${env:CS}", 4),
			"controlled.shutdown.max.retries": t.unknown_setting("server.properties", "controlled.shutdown.max.retries", "${env:CS_RETRIES}", 5),
		}},
	)
	count(rule.report) == 0 with input as t.cluster([node], [])
}

# Built with the loader (kafkalint.parse), not fixtures: controlled.shutdown.enable=false.
test_loader_controlled_shutdown_disabled if {
	reports := rule.report with input as kafkalint.parse("", "prod/kafka/server.properties", `process.roles=broker
node.id=4
controller.quorum.voters=1@c1:9093,2@c2:9093,3@c3:9093
controller.listener.names=CONTROLLER
listeners=SSL://:9093
controlled.shutdown.enable=false
`)
	{[f.location.file, f.location.line, object.get(f, "key", "")] | some f in reports} == {["prod/kafka/server.properties", 6, "controlled.shutdown.enable"]}
}
