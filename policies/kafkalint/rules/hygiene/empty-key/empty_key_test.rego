package kafkalint.rules.hygiene["empty-key_test"]

import data.kafkalint.lib.testing as t
import data.kafkalint.rules.hygiene["empty-key"] as rule

_message(line) := sprintf("line %v has an empty key (it starts with '=' or ':')", [line])

_broker := t.node("server.properties", ["broker"], [["process.roles", "broker", 1]])

test_fail_empty_key_on_node if {
	node := t.with_setting(_broker, t.setting("server.properties", "", "hunter2", 7))
	rule.report == {t.finding("server.properties", 7, "", _message(7))} with input as t.cluster([node], [])
}

test_fail_every_unit_kind if {
	client := t.with_setting(t.client("producer.properties", "producer", []), t.setting("producer.properties", "", "x", 3))
	meta := t.meta("meta.properties", "", [["cluster.id", "abc", 1], ["", "x", 2]])
	mm := t.with_setting(t.mirror_maker("mm2.properties", [], [], []), t.setting("mm2.properties", "", "x", 4))
	rule.report == {
		t.finding("producer.properties", 3, "", _message(3)),
		t.finding("meta.properties", 2, "", _message(2)),
	} with input as t.full_cluster([], [client], [meta], [])
	rule.report == {t.finding("mm2.properties", 4, "", _message(4))} with input as t.mirror_cluster([mm])
}

test_fail_message_never_prints_the_value if {
	node := t.with_setting(_broker, t.setting("server.properties", "", "hunter2", 7))
	some f in rule.report with input as t.cluster([node], [])
	not contains(f.message, "hunter2")
}

test_fail_placeholder_value_does_not_matter if {
	node := t.with_setting(_broker, t.unknown_setting("server.properties", "", "${file:/etc/kafka/secrets:pw}", 5))
	rule.report == {t.finding("server.properties", 5, "", _message(5))} with input as t.cluster([node], [])
}

test_success_named_keys if {
	node := t.with_setting(_broker, t.setting("server.properties", "ssl.key.password", "hunter2", 4))
	count(rule.report) == 0 with input as t.cluster([node], [])
}

test_success_key_absent if {
	count(rule.report) == 0 with input as t.cluster([_broker], [])
}

# Built with the loader (kafkalint.parse), not fixtures: a line with an empty key.
test_loader_empty_key if {
	reports := rule.report with input as kafkalint.parse("", "prod/kafka/server.properties", `process.roles=broker
node.id=4
controller.quorum.voters=1@c1:9093,2@c2:9093,3@c3:9093
controller.listener.names=CONTROLLER
listeners=SSL://:9093
=3
`)
	{[f.location.file, f.location.line, object.get(f, "key", "")] | some f in reports} == {["prod/kafka/server.properties", 6, ""]}
}
