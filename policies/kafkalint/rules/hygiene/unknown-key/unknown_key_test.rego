package kafkalint.rules.hygiene["unknown-key_test"]

import data.kafkalint.lib.testing as t
import data.kafkalint.rules.hygiene["unknown-key"] as rule

_unknown(file, key, value, line, fields) := t.annotated(t.setting(file, key, value, line), object.union({"key_status": "unknown"}, fields))

_explained(finding, why, fix) := object.union(finding, {"why": why, "fix": fix})

_node_with(s) := t.with_setting(t.node("server.properties", ["broker"], [["process.roles", "broker", 1]]), s)

test_fail_typo_with_suggestion if {
	node := _node_with(_unknown("server.properties", "log.retention.hour", "24", 7, {"suggestion": "log.retention.hours"}))
	rule.report == {_explained(
		t.finding("server.properties", 7, "log.retention.hour", "log.retention.hour is not a broker or controller key; did you mean log.retention.hours?"),
		"Kafka 4.3 defines no broker or controller configuration key of that name, so Kafka ignores unknown keys without a warning and the setting it was meant for keeps its default.",
		"Rename it to log.retention.hours if that is the key meant.",
	)} with input as t.cluster([node], [])
}

test_fail_topic_key_in_broker_file if {
	node := _node_with(_unknown("server.properties", "retention.ms", "1000", 4, {"suggestion": "log.retention.ms", "known_for": ["topic"]}))
	rule.report == {_explained(
		t.finding("server.properties", 4, "retention.ms", "retention.ms is not a broker or controller key (it is a topic setting); did you mean log.retention.ms?"),
		"Kafka 4.3 defines no broker or controller configuration key of that name, so Kafka ignores unknown keys without a warning and the setting it was meant for keeps its default. It is a topic setting, which this file does not configure.",
		"Rename it to log.retention.ms if that is the key meant. Set it in a topic configuration if it belongs there.",
	)} with input as t.cluster([node], [])
}

test_fail_key_newer_than_target if {
	node := _node_with(_unknown("server.properties", "controller.quorum.auto.join.enable", true, 5, {"added_in": "4.2"}))
	rule.report == {_explained(
		t.finding("server.properties", 5, "controller.quorum.auto.join.enable", "controller.quorum.auto.join.enable is not a broker or controller key in Kafka 3.9 (added in 4.2)"),
		"Kafka 3.9 defines no broker or controller configuration key of that name, so Kafka ignores unknown keys without a warning and the setting it was meant for keeps its default. It was added in Kafka 4.2.",
		"Upgrade to Kafka 4.2 or later first, or remove the line.",
	)} with input as t.at_version(t.cluster([node], []), "3.9")
}

test_fail_no_suggestion if {
	node := _node_with(_unknown("server.properties", "controller.id", 3000, 3, {}))
	rule.report == {_explained(
		t.finding("server.properties", 3, "controller.id", "controller.id is not a broker or controller key"),
		"Kafka 4.3 defines no broker or controller configuration key of that name, so Kafka ignores unknown keys without a warning and the setting it was meant for keeps its default.",
		"Fix the name, or remove the line if no plugin reads it.",
	)} with input as t.cluster([node], [])
}

test_fail_consumer_key_in_producer if {
	client := t.with_setting(
		t.client("producer.properties", "producer", [["acks", "all", 1]]),
		_unknown("producer.properties", "fetch.max.wait.ms", "500", 2, {"known_for": ["consumer"]}),
	)
	rule.report == {_explained(
		t.finding("producer.properties", 2, "fetch.max.wait.ms", "fetch.max.wait.ms is not a producer key (it is a consumer setting)"),
		"Kafka 4.3 defines no producer configuration key of that name, so the client logs it as unused and ignores it and the setting it was meant for keeps its default. It is a consumer setting, which this file does not configure.",
		"Set it in a consumer configuration if it belongs there. Fix the name, or remove the line if no plugin reads it.",
	)} with input as t.cluster([], [client])
}

test_fail_mirror_maker_flow_key if {
	mm := t.mirror_maker("mm2.properties", [], [], [])
	with_key := t.with_setting(mm, _unknown("mm2.properties", "A->B.enable", "true", 3, {"suggestion": "A->B.enabled"}))
	rule.report == {_explained(
		t.finding("mm2.properties", 3, "A->B.enable", "A->B.enable is not a MirrorMaker 2 key; did you mean A->B.enabled?"),
		"Kafka 4.3 defines no MirrorMaker 2 configuration key of that name, so MirrorMaker 2 ignores it and the setting it was meant for keeps its default.",
		"Rename it to A->B.enabled if that is the key meant.",
	)} with input as t.mirror_cluster([with_key])
}

test_fail_topic_config if {
	topic := t.with_setting(t.topic("main.tf", "orders", 3, 3, 5), _unknown("main.tf", "retention.hours", "24", 7, {}))
	rule.report == {_explained(
		t.finding("main.tf", 7, "retention.hours", "retention.hours is not a topic key"),
		"Kafka 4.3 defines no topic configuration key of that name, so Kafka does not apply it and the setting it was meant for keeps its default.",
		"Fix the name, or remove the line if no plugin reads it.",
	)} with input as t.full_cluster([], [], [], [topic])
}

# A message that would be too long with what the key is for elsewhere
# leaves that to the why, and keeps the suggestion whole.
test_fail_long_key_leaves_known_for_to_the_why if {
	node := _node_with(_unknown("server.properties", "sasl.server.callback.handlr.class", "x", 4, {"suggestion": "sasl.server.callback.handler.class", "known_for": ["producer", "consumer", "admin"]}))
	some f in rule.report with input as t.cluster([node], [])
	f.message == "sasl.server.callback.handlr.class is not a broker or controller key; did you mean sasl.server.callback.handler.class?"
	count(f.message) <= 120
	contains(f.why, "It is a producer, consumer and admin setting")
	contains(f.fix, "Set it in a producer, consumer or admin configuration")
}

# The key is what is wrong, not the value: a placeholder value does not
# make the key known, and the message never prints the value.
test_fail_unknown_key_with_placeholder_value if {
	s := t.annotated(t.unknown_setting("server.properties", "log.retention.hour", "${env:HOURS}", 7), {"key_status": "unknown", "suggestion": "log.retention.hours"})
	node := _node_with(s)
	some f in rule.report with input as t.cluster([node], [])
	f.key == "log.retention.hour"
	not contains(f.message, "HOURS")
}

test_success_known_key if {
	node := _node_with(t.annotated(t.setting("server.properties", "num.partitions", 3, 4), {"key_status": "known"}))
	count(rule.report) == 0 with input as t.cluster([node], [])
}

test_success_exempt_key if {
	node := _node_with(t.annotated(t.setting("server.properties", "super.users", "User:admin", 4), {"key_status": "exempt"}))
	count(rule.report) == 0 with input as t.cluster([node], [])
}

test_success_removed_key_is_another_rule if {
	node := _node_with(t.annotated(t.setting("server.properties", "zookeeper.connect", "zk:2181", 4), {"key_status": "removed", "removed_after": "3.9"}))
	count(rule.report) == 0 with input as t.cluster([node], [])
}

# Uncatalogued versions and defaults carry no key_status.
test_success_key_absent_or_unchecked if {
	node := _node_with(t.setting("server.properties", "log.retention.hour", "24", 4))
	count(rule.report) == 0 with input as t.at_version(t.cluster([node], []), "3.5")
}

# Built with the loader (kafkalint.parse), not fixtures: a misspelt key.
test_loader_unknown_key if {
	reports := rule.report with input as kafkalint.parse("", "prod/kafka/server.properties", `process.roles=broker
node.id=4
controller.quorum.voters=1@c1:9093,2@c2:9093,3@c3:9093
controller.listener.names=CONTROLLER
listeners=SSL://:9093
num.partition=3
`)
	{[f.location.file, f.location.line, object.get(f, "key", "")] | some f in reports} == {["prod/kafka/server.properties", 6, "num.partition"]}
}
