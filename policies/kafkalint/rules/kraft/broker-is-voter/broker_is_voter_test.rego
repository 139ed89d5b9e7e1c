package kafkalint.rules.kraft["broker-is-voter_test"]

import data.kafkalint.lib.result
import data.kafkalint.lib.testing as t
import data.kafkalint.rules.kraft["broker-is-voter"] as rule

_voters := "1@c1:9093,2@c2:9093,3@c3:9093"

_node(file, roles, id, voters) := t.with_voters(t.with_id(t.node(file, roles, []), id, 2), voters, 4)

_finding(key, line, id, entries) := result.explain(
	t.finding_related("b1.properties", line, key, sprintf("%s=%d of this broker-only node is in controller.quorum.voters: Kafka refuses to start it", [key, id]), [["b1.properties", 4]]),
	sprintf(
		"controller.quorum.voters lists this node's id (%s), but voters are controllers and this node has only the broker role. Kafka refuses to start it: \"If process.roles contains just the 'broker' role, the node id %d must not be included in the set of voters controller.quorum.voters=...\".",
		[entries, id],
	),
	sprintf("Give the broker an id no voter uses instead of %d (and keep the voter list the controllers' ids only), or add the controller role to process.roles if this node is meant to be a voter.", [id]),
)

test_fail_broker_id_is_a_voter if {
	node := _node("b1.properties", ["broker"], 1, _voters)
	rule.report == {_finding("node.id", 2, 1, "1@c1:9093")} with input as t.cluster([node], [])
}

test_fail_broker_id_via_broker_id_key if {
	node := t.with_voters(object.union(t.node("b1.properties", ["broker"], [["broker.id", 2, 3]]), {"id": 2}), _voters, 4)
	rule.report == {_finding("broker.id", 3, 2, "2@c2:9093")} with input as t.cluster([node], [])
}

test_fail_despite_a_malformed_entry if {
	node := object.union(t.with_id(t.node("b1.properties", ["broker"], [["controller.quorum.voters", "1@c1:9093,c2:9093", 4]]), 1, 2), {"quorum": {
		"mode": "static",
		"voters": [t.voter("b1.properties", 4, "1@c1:9093"), t.malformed_voter("b1.properties", 4, "c2:9093")],
		"bootstrap_servers": [],
	}})
	count(rule.report) == 1 with input as t.cluster([node], [])
}

test_success_broker_not_a_voter if {
	count(rule.report) == 0 with input as t.cluster([_node("b4.properties", ["broker"], 4, _voters)], [])
}

test_success_controller_and_combined_are_voters if {
	nodes := [_node("c1.properties", ["controller"], 1, _voters), _node("x2.properties", ["broker", "controller"], 2, _voters)]
	count(rule.report) == 0 with input as t.cluster(nodes, [])
}

test_success_zookeeper_mode_file if {
	node := t.with_voters(object.union(t.node("kraft.properties", [], [["node.id", 0, 1]]), {"id": 0}), "0@localhost:9092", 2)
	count(rule.report) == 0 with input as t.cluster([node], [])
}

test_success_key_absent if {
	node := t.with_bootstrap(t.with_id(t.node("b1.properties", ["broker"], []), 1, 2), "c1:9093", 4)
	count(rule.report) == 0 with input as t.cluster([node, t.node("b2.properties", ["broker"], [])], [])
}

test_success_unknown_placeholder if {
	unknown := object.union(t.with_id(t.node("b1.properties", ["broker"], []), 1, 2), {
		"quorum": {"mode": "static", "voters": [], "bootstrap_servers": []},
		"settings": {"controller.quorum.voters": t.unknown_setting("b1.properties", "controller.quorum.voters", "${env:VOTERS}", 4)},
	})
	unknown_id := t.with_voters(object.union(t.node("b2.properties", ["broker"], []), {"settings": {"node.id": t.unknown_setting("b2.properties", "node.id", "${env:ID}", 2)}}), _voters, 4)
	count(rule.report) == 0 with input as t.cluster([unknown, unknown_id], [])
}

# Built with the loader (kafkalint.parse), not fixtures: a broker-only node's id is a voter.
test_loader_broker_is_voter if {
	reports := rule.report with input as kafkalint.parse("", "prod/kafka/server.properties", `process.roles=broker
node.id=2
controller.quorum.voters=1@c1:9093,2@c2:9093,3@c3:9093
controller.listener.names=CONTROLLER
listeners=SSL://:9093
`)
	{[f.location.file, f.location.line, object.get(f, "key", "")] | some f in reports} == {["prod/kafka/server.properties", 2, "node.id"]}
}
