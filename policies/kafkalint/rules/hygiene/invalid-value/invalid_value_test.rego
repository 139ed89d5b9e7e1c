package kafkalint.rules.hygiene["invalid-value_test"]

import data.kafkalint.lib.testing as t
import data.kafkalint.rules.hygiene["invalid-value"] as rule

# _finding is the finding for key=raw at file:line that Kafka 4.3 rejects
# with reason, which has effect.
_finding(file, line, key, raw, reason, effect) := object.union(
	t.finding(file, line, key, sprintf("%s=%s is not a valid value in Kafka 4.3", [key, raw])),
	{
		"why": sprintf("Kafka 4.3 rejects it (Invalid value %s for configuration %s: %s), so %s.", [raw, key, reason, effect]),
		"fix": sprintf("Set %s to a value Kafka 4.3 accepts: %s.", [key, reason]),
	},
)

_invalid(file, key, raw, line, reason) := t.annotated(t.setting(file, key, raw, line), {"key_status": "known", "invalid": reason})

test_fail_out_of_range_on_broker if {
	node := t.with_setting(
		t.node("server.properties", ["broker"], [["process.roles", "broker", 1]]),
		_invalid("server.properties", "min.insync.replicas", "0", 6, "Value must be at least 1"),
	)
	rule.report == {_finding(
		"server.properties", 6, "min.insync.replicas", "0",
		"Value must be at least 1", "the broker or controller refuses to start",
	)} with input as t.cluster([node], [])
}

test_fail_case_sensitive_enum_on_producer if {
	client := t.with_setting(
		t.client("producer.properties", "producer", [["bootstrap.servers", "k:9092", 1]]),
		_invalid("producer.properties", "acks", "ALL", 2, "String must be one of: all, -1, 0, 1"),
	)
	rule.report == {_finding(
		"producer.properties", 2, "acks", "ALL",
		"String must be one of: all, -1, 0, 1", "the client fails when the application creates it",
	)} with input as t.cluster([], [client])
}

test_fail_type_on_mirror_maker_flow if {
	mm := t.with_setting(
		t.mirror_maker("mm2.properties", [], [], []),
		_invalid("mm2.properties", "A->B.sync.group.offsets.interval.seconds", "soon", 4, "Not a number of type LONG"),
	)
	rule.report == {_finding(
		"mm2.properties", 4, "A->B.sync.group.offsets.interval.seconds", "soon",
		"Not a number of type LONG", "the MirrorMaker 2 connectors reject the configuration and do not run",
	)} with input as t.mirror_cluster([mm])
}

test_fail_topic_config if {
	topic := t.with_setting(t.topic("main.tf", "orders", 3, 3, 5), _invalid("main.tf", "cleanup.policy", "compacted", 7, "String must be one of: compact, delete"))
	rule.report == {_finding(
		"main.tf", 7, "cleanup.policy", "compacted",
		"String must be one of: compact, delete", "the topic cannot be created or altered with it",
	)} with input as t.full_cluster([], [], [], [topic])
}

# A reason that is a sentence already gets no second full stop.
test_fail_reason_ending_with_a_full_stop if {
	node := t.with_setting(
		t.node("server.properties", ["broker"], []),
		_invalid("server.properties", "node.id", "-1", 3, "Node id must be non-negative."),
	)
	some f in rule.report with input as t.cluster([node], [])
	f.fix == "Set node.id to a value Kafka 4.3 accepts: Node id must be non-negative."
}

test_success_valid_value if {
	node := t.with_setting(
		t.node("server.properties", ["broker"], []),
		t.annotated(t.setting("server.properties", "min.insync.replicas", 2, 6), {"key_status": "known"}),
	)
	count(rule.report) == 0 with input as t.cluster([node], [])
}

# A removed or unknown key is not read by Kafka, so its value does not matter.
test_success_removed_key_with_bad_value if {
	node := t.with_setting(
		t.node("server.properties", [], []),
		t.annotated(t.setting("server.properties", "controlled.shutdown.max.retries", "many", 6), {"key_status": "removed", "invalid": "\"many\" is not a valid int"}),
	)
	count(rule.report) == 0 with input as t.cluster([node], [])
}

test_success_default_value if {
	node := t.node("server.properties", ["broker"], [["min.insync.replicas", 1, 0]])
	count(rule.report) == 0 with input as t.cluster([node], [])
}

test_success_key_absent if {
	node := t.node("server.properties", ["broker"], [["process.roles", "broker", 1]])
	count(rule.report) == 0 with input as t.cluster([node], [])
}

test_success_unknown_placeholder if {
	node := t.with_setting(
		t.node("server.properties", ["broker"], []),
		t.annotated(t.unknown_setting("server.properties", "min.insync.replicas", "${env:MIN_ISR}", 6), {"key_status": "known"}),
	)
	count(rule.report) == 0 with input as t.cluster([node], [])
}

# Built with the loader (kafkalint.parse), not fixtures: num.partitions is not a number.
test_loader_invalid_value if {
	reports := rule.report with input as kafkalint.parse("", "prod/kafka/server.properties", `process.roles=broker
node.id=4
controller.quorum.voters=1@c1:9093,2@c2:9093,3@c3:9093
controller.listener.names=CONTROLLER
listeners=SSL://:9093
num.partitions=three
`)
	{[f.location.file, f.location.line, object.get(f, "key", "")] | some f in reports} == {["prod/kafka/server.properties", 6, "num.partitions"]}
}
