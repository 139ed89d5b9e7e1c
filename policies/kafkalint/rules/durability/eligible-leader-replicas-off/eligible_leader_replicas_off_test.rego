package kafkalint.rules.durability["eligible-leader-replicas-off_test"]

import data.kafkalint.lib.testing as t
import data.kafkalint.rules.durability["eligible-leader-replicas-off"] as rule

_broker(entries) := t.node("broker.properties", ["broker"], entries)

test_fail_broker_sets_min_isr_on_4_1 if {
	rule.report == {t.finding(
		"broker.properties", 7, "min.insync.replicas",
		"min.insync.replicas=2 on this broker: under ELR (on by default in Kafka 4.1) the controllers' value applies",
	)} with input as t.at_version(t.cluster([_broker([["min.insync.replicas", 2, 7]])], []), "4.1")
}

test_success_on_4_0_elr_is_off_by_default if {
	count(rule.report) == 0 with input as t.at_version(t.cluster([_broker([["min.insync.replicas", 2, 7]])], []), "4.0")
}

test_success_controllers_given if {
	controller := t.node("controller.properties", ["controller"], [["min.insync.replicas", 2, 5]])
	count(rule.report) == 0 with input as t.cluster([_broker([["min.insync.replicas", 2, 7]]), controller], [])
}

test_success_min_isr_one if {
	count(rule.report) == 0 with input as t.cluster([_broker([["min.insync.replicas", 1, 7]])], [])
}

test_success_min_isr_absent if {
	count(rule.report) == 0 with input as t.cluster([_broker([["min.insync.replicas", 1, 0]])], [])
}

test_success_zookeeper_broker if {
	node := t.node("server.properties", [], [["min.insync.replicas", 2, 7]])
	count(rule.report) == 0 with input as t.cluster([node], [])
}

test_success_unknown_placeholder if {
	node := t.with_setting(_broker([]), t.unknown_setting("broker.properties", "min.insync.replicas", "${env:MIN_ISR}", 7))
	count(rule.report) == 0 with input as t.cluster([node], [])
}

# Built with the loader (kafkalint.parse), not fixtures: a broker sets min.insync.replicas while ELR is on.
test_loader_eligible_leader_replicas_off if {
	reports := rule.report with input as kafkalint.parse("", "prod/kafka/server.properties", `process.roles=broker
node.id=4
controller.quorum.voters=1@c1:9093,2@c2:9093,3@c3:9093
controller.listener.names=CONTROLLER
listeners=SSL://:9093
min.insync.replicas=2
`)
	{[f.location.file, f.location.line, object.get(f, "key", "")] | some f in reports} == {["prod/kafka/server.properties", 6, "min.insync.replicas"]}
}
