package kafkalint.rules.durability["unclean-leader-election-enabled_test"]

import data.kafkalint.lib.testing as t
import data.kafkalint.rules.durability["unclean-leader-election-enabled"] as rule

_message(scope) := sprintf("unclean.leader.election.enable=true (%s): an out-of-sync leader can lose acks=all writes", [scope])

test_fail_enabled_on_controller if {
	node := t.node("controller.properties", ["controller"], [["unclean.leader.election.enable", true, 8]])
	rule.report == {t.finding("controller.properties", 8, "unclean.leader.election.enable", _message("the cluster default"))} with input as t.cluster([node], [])
}

test_fail_enabled_on_topic if {
	topic := object.union(t.topic("topics.tf", "payments", 3, 3, 5), {"settings": {"unclean.leader.election.enable": t.setting("topics.tf", "unclean.leader.election.enable", true, 9)}})
	rule.report == {t.finding("topics.tf", 9, "unclean.leader.election.enable", _message("topic payments"))} with input as t.full_cluster([], [], [], [topic])
}

test_success_disabled if {
	node := t.node("server.properties", ["broker"], [["unclean.leader.election.enable", false, 8]])
	count(rule.report) == 0 with input as t.cluster([node], [])
}

test_success_absent_takes_default_false if {
	node := t.node("server.properties", ["broker"], [["unclean.leader.election.enable", false, 0]])
	count(rule.report) == 0 with input as t.cluster([node], [])
}

test_success_unknown_placeholder if {
	node := t.with_setting(t.node("server.properties", ["broker"], []), t.unknown_setting("server.properties", "unclean.leader.election.enable", "${env:UNCLEAN}", 8))
	count(rule.report) == 0 with input as t.cluster([node], [])
}

# Built with the loader (kafkalint.parse), not fixtures: unclean.leader.election.enable=true.
test_loader_unclean_leader_election_enabled if {
	reports := rule.report with input as kafkalint.parse("", "prod/kafka/server.properties", `process.roles=broker
node.id=4
controller.quorum.voters=1@c1:9093,2@c2:9093,3@c3:9093
controller.listener.names=CONTROLLER
listeners=SSL://:9093
unclean.leader.election.enable=true
`)
	{[f.location.file, f.location.line, object.get(f, "key", "")] | some f in reports} == {["prod/kafka/server.properties", 6, "unclean.leader.election.enable"]}
}
