package kafkalint.rules.security["auto-create-topics-in-production_test"]

import data.kafkalint.lib.testing as t
import data.kafkalint.rules.security["auto-create-topics-in-production"] as rule

test_fail_explicit_true if {
	node := t.node("server.properties", ["broker"], [["auto.create.topics.enable", true, 14]])
	rule.report == {t.finding("server.properties", 14, "auto.create.topics.enable", "auto.create.topics.enable=true: clients create any missing topic they name")} with input as t.cluster([node], [])
}

test_fail_default_true_anchors_file_start if {
	node := t.node("server.properties", [], [["auto.create.topics.enable", true, 0]])
	rule.report == {t.finding("server.properties", 1, "auto.create.topics.enable", "auto.create.topics.enable is not set: Kafka's default (true) lets clients create missing topics")} with input as t.cluster([node], [])
}

test_success_disabled if {
	node := t.node("server.properties", ["broker"], [["auto.create.topics.enable", false, 14]])
	count(rule.report) == 0 with input as t.cluster([node], [])
}

test_success_controller_only if {
	node := t.node("controller.properties", ["controller"], [["auto.create.topics.enable", true, 0]])
	count(rule.report) == 0 with input as t.cluster([node], [])
}

test_success_platform_default_is_not_kafkas if {
	node := object.union(t.node("msk.tf", ["broker"], [["auto.create.topics.enable", true, 0]]), {"managed_keys": ["auto.create.topics.enable"]})
	count(rule.report) == 0 with input as t.cluster([node], [])
}

test_success_unknown_placeholder if {
	node := t.with_setting(t.node("server.properties", ["broker"], []), t.unknown_setting("server.properties", "auto.create.topics.enable", "${env:AUTO_CREATE}", 14))
	count(rule.report) == 0 with input as t.cluster([node], [])
}

# Built with the loader (kafkalint.parse), not fixtures: auto.create.topics.enable=true.
test_loader_auto_create_topics_in_production if {
	reports := rule.report with input as kafkalint.parse("", "prod/kafka/server.properties", `process.roles=broker
node.id=4
controller.quorum.voters=1@c1:9093,2@c2:9093,3@c3:9093
controller.listener.names=CONTROLLER
listeners=SSL://:9093
auto.create.topics.enable=true
`)
	{[f.location.file, f.location.line, object.get(f, "key", "")] | some f in reports} == {["prod/kafka/server.properties", 6, "auto.create.topics.enable"]}
}
