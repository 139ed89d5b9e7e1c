package kafkalint.rules.kraft["controller-not-in-voters_test"]

import data.kafkalint.lib.result
import data.kafkalint.lib.testing as t
import data.kafkalint.rules.kraft["controller-not-in-voters"] as rule

_voters := "1@c1:9093,2@c2:9093,3@c3:9093"

_node(file, roles, id, voters) := t.with_voters(t.with_id(t.node(file, roles, []), id, 2), voters, 4)

_finding(file, id, ids) := result.explain(
	t.finding_related(file, 2, "node.id", sprintf("node.id=%d of this controller is not in controller.quorum.voters: Kafka refuses to start it", [id]), [[file, 4]]),
	sprintf(
		"controller.quorum.voters lists voter ids %s, not this node's id %d, and a controller of a static quorum must be one of the voters. Kafka refuses to start it: \"If process.roles contains the 'controller' role, the node id %d must be included in the set of voters controller.quorum.voters=...\".",
		[ids, id, id],
	),
	sprintf("If this controller is a voter, add its entry %d@{host}:{port} to controller.quorum.voters (the same list on every node of the cluster); otherwise give it the id of its voter entry.", [id]),
)

test_fail_controller_not_a_voter if {
	node := _node("c4.properties", ["controller"], 4, _voters)
	rule.report == {_finding("c4.properties", 4, "1, 2, 3")} with input as t.cluster([node], [])
}

test_fail_combined_node if {
	node := _node("server.properties", ["broker", "controller"], 0, "1@localhost:9093")
	rule.report == {_finding("server.properties", 0, "1")} with input as t.cluster([node], [])
}

test_fail_voters_and_bootstrap_servers if {
	node := t.with_bootstrap(_node("c4.properties", ["controller"], 4, _voters), "c1:9093", 5)
	count(rule.report) == 1 with input as t.cluster([node], [])
}

test_success_controller_is_a_voter if {
	nodes := [_node("c1.properties", ["controller"], 1, _voters), _node("c3.properties", ["controller"], 3, "3@c3:9093,1@c1:9093,2@c2:9093")]
	count(rule.report) == 0 with input as t.cluster(nodes, [])
}

test_success_voter_config_files_absent if {
	# Voters 2 and 3 have no config file: only the node's own list matters.
	count(rule.report) == 0 with input as t.cluster([_node("c1.properties", ["controller"], 1, _voters)], [])
}

test_success_broker_not_a_voter if {
	count(rule.report) == 0 with input as t.cluster([_node("b4.properties", ["broker"], 4, _voters)], [])
}

test_success_key_absent if {
	dynamic := t.with_bootstrap(t.with_id(t.node("c4.properties", ["controller"], []), 4, 2), "c1:9093", 5)
	count(rule.report) == 0 with input as t.cluster([dynamic, t.node("c5.properties", ["controller"], [])], [])
}

test_success_unknown_placeholder if {
	unknown_voters := object.union(t.with_id(t.node("c4.properties", ["controller"], []), 4, 2), {
		"quorum": {"mode": "static", "voters": [], "bootstrap_servers": []},
		"settings": {"controller.quorum.voters": t.unknown_setting("c4.properties", "controller.quorum.voters", "${env:VOTERS}", 4)},
	})
	unknown_id := t.with_voters(object.union(t.node("c5.properties", ["controller"], []), {"settings": {"node.id": t.unknown_setting("c5.properties", "node.id", "${env:ID}", 2)}}), _voters, 4)
	count(rule.report) == 0 with input as t.cluster([unknown_voters, unknown_id], [])
}

test_success_malformed_entry_left_to_kfk3007 if {
	node := object.union(t.with_id(t.node("c11.properties", ["controller"], [["controller.quorum.voters", "c11:9093,12@c12:9093", 4]]), 11, 2), {"quorum": {
		"mode": "static",
		"voters": [t.malformed_voter("c11.properties", 4, "c11:9093"), t.voter("c11.properties", 4, "12@c12:9093")],
		"bootstrap_servers": [],
	}})
	count(rule.report) == 0 with input as t.cluster([node], [])
}

# Built with the loader (kafkalint.parse), not fixtures: a controller's id is not a voter.
test_loader_controller_not_in_voters if {
	reports := rule.report with input as kafkalint.parse("", "prod/kafka/controller.properties", `process.roles=controller
node.id=7
controller.quorum.voters=1@c1:9093,2@c2:9093,3@c3:9093
controller.listener.names=CONTROLLER
listeners=CONTROLLER://c7:9093
`)
	{[f.location.file, f.location.line, object.get(f, "key", "")] | some f in reports} == {["prod/kafka/controller.properties", 2, "node.id"]}
}
