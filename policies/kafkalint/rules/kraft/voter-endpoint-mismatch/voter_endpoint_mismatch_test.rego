package kafkalint.rules.kraft["voter-endpoint-mismatch_test"]

import data.kafkalint.lib.result
import data.kafkalint.lib.testing as t
import data.kafkalint.rules.kraft["voter-endpoint-mismatch"] as rule

_voters := "1@c1.example.com:9093,2@c2.example.com:9093,3@c3.example.com:9093"

# _controller is a dedicated controller with node.id at line 2, voters at 3,
# listeners at 4 and controller.listener.names at 5.
_controller(n, voters, listeners) := t.with_controller_names(
	t.with_listeners(
		t.with_voters(t.with_id(t.node(sprintf("c%d.properties", [n]), ["controller"], []), n, 2), voters, 3),
		listeners, 4,
	),
	"CONTROLLER", 5,
)

_ok(n) := _controller(n, _voters, sprintf("CONTROLLER://c%d.example.com:9093", [n]))

_broker(file, voters) := t.with_voters(t.with_id(t.node(file, ["broker"], []), 4, 2), voters, 3)

# _finding is the finding at the controller's listener line.
_finding(file, line, key, id, entry, listeners, mismatches, target, related) := result.explain(
	t.finding_related(file, line, key, sprintf("voter entry %d@%s does not reach controller %d's quorum listener", [id, entry, id]), related),
	sprintf(
		"Controller %d serves the quorum at %s (%s), but controller.quorum.voters gives voter %d as %s. Kafka starts (it checks no voter entry against a listener), but the quorum may not form: the nodes using that entry cannot reach this controller, votes and metadata fetches fail at runtime, and one more controller down costs the quorum its majority.",
		[id, listeners, key, id, mismatches],
	),
	sprintf("Make every voter entry for %d point at %s (the same voter list on every node).", [id, target]),
)

test_fail_controller_listens_on_another_port if {
	nodes := [_ok(1), _controller(2, _voters, "CONTROLLER://c2.example.com:9094"), _ok(3), _broker("b4.properties", _voters)]
	finding := _finding(
		"c2.properties", 4, "listeners", 2, "c2.example.com:9093", "CONTROLLER://c2.example.com:9094",
		"c2.example.com:9093 in b4.properties, c1.properties, c2.properties, c3.properties", "c2.example.com:9094",
		[["b4.properties", 3], ["c1.properties", 3], ["c2.properties", 3], ["c3.properties", 3]],
	)
	rule.report == {finding} with input as t.cluster(nodes, [])
}

test_fail_one_node_lists_a_wrong_host_anchored_at_advertised if {
	wrong := "1@c1.example.com:9093,2@c3.example.com:9093,3@c3.example.com:9093"
	c2 := t.with_advertised(_controller(2, _voters, "CONTROLLER://0.0.0.0:9093"), "CONTROLLER://c2.example.com:9093", 6)
	nodes := [_ok(1), c2, _ok(3), _broker("b4.properties", wrong)]
	finding := _finding(
		"c2.properties", 6, "advertised.listeners", 2, "c3.example.com:9093", "CONTROLLER://c2.example.com:9093",
		"c3.example.com:9093 in b4.properties", "c2.example.com:9093",
		[["b4.properties", 3]],
	)
	rule.report == {finding} with input as t.cluster(nodes, [])
}

test_fail_wildcard_listener_compares_the_port if {
	voters := "1@kafka-1.example.com:9092"
	node := t.with_controller_names(
		t.with_listeners(t.with_voters(t.with_id(t.node("server.properties", ["broker", "controller"], []), 1, 2), voters, 3), "PLAINTEXT://:9092,CONTROLLER://:9093", 4),
		"CONTROLLER", 5,
	)
	finding := _finding(
		"server.properties", 4, "listeners", 1, "kafka-1.example.com:9092", "CONTROLLER://:9093",
		"kafka-1.example.com:9092 in server.properties", "port 9093 of this controller's host",
		[["server.properties", 3]],
	)
	rule.report == {finding} with input as t.cluster([node], [])
}

test_fail_last_entry_of_a_repeated_id_counts if {
	nodes := [_ok(1), _broker("b4.properties", "1@c1.example.com:9093,1@c9.example.com:9093")]
	{[f.location.file, f.related] | some f in rule.report} == {["c1.properties", [{"file": "b4.properties", "line": 3, "column": 1}]]} with input as t.cluster(nodes, [])
}

# Several wrong endpoints: the message names the first and counts the
# others, the why lists each with its files.
test_fail_several_wrong_endpoints if {
	nodes := [
		_controller(1, "1@c1.example.com:9094", "CONTROLLER://c1.example.com:9093"),
		_broker("b4.properties", "1@c1.example.com:9095"),
		_broker("b5.properties", "1@c1.example.com:9096"),
	]
	finding := _finding(
		"c1.properties", 4, "listeners", 1, "c1.example.com:9094 (and 2 other endpoints)", "CONTROLLER://c1.example.com:9093",
		"c1.example.com:9094 in c1.properties; c1.example.com:9095 in b4.properties; c1.example.com:9096 in b5.properties", "c1.example.com:9093",
		[["b4.properties", 3], ["b5.properties", 3], ["c1.properties", 3]],
	)
	rule.report == {finding} with input as t.cluster(nodes, [])
}

test_success_matching_entries if {
	c2 := t.with_advertised(_controller(2, _voters, "CONTROLLER://0.0.0.0:9093"), "CONTROLLER://c2.example.com:9093", 6)
	c3 := _controller(3, _voters, "CONTROLLER://:9093")
	short := _controller(1, "1@c1:9093,2@c2.example.com:9093,3@c3.example.com:9093", "CONTROLLER://c1.example.com:9093")
	count(rule.report) == 0 with input as t.cluster([short, c2, c3, _broker("b4.properties", _voters)], [])
}

test_success_voter_without_config_file if {
	count(rule.report) == 0 with input as t.cluster([_ok(1)], [])
}

test_success_bound_port_behind_a_different_advertised_port if {
	c1 := t.with_advertised(_controller(1, "1@c1.example.com:9093", "CONTROLLER://0.0.0.0:9093"), "CONTROLLER://c1.example.com:19093", 6)
	count(rule.report) == 0 with input as t.cluster([c1], [])
}

test_success_address_and_name_may_be_one_host if {
	c1 := _controller(1, "1@10.0.0.1:9093", "CONTROLLER://c1.example.com:9093")
	count(rule.report) == 0 with input as t.cluster([c1], [])
}

test_success_key_absent if {
	no_listeners := t.with_voters(t.with_id(t.node("c1.properties", ["controller"], []), 1, 2), _voters, 3)
	dynamic := t.with_bootstrap(t.with_id(t.node("b4.properties", ["broker"], []), 4, 2), "c1.example.com:9999", 3)
	count(rule.report) == 0 with input as t.cluster([no_listeners, dynamic], [])
}

test_success_unknown_placeholder if {
	unknown_advertised := object.union(_controller(2, _voters, "CONTROLLER://0.0.0.0:9094"), {"settings": {"advertised.listeners": t.unknown_setting("c2.properties", "advertised.listeners", "${env:ADVERTISED}", 6)}})
	unknown_voters := object.union(t.with_id(t.node("b4.properties", ["broker"], []), 4, 2), {
		"quorum": {"mode": "static", "voters": [], "bootstrap_servers": []},
		"settings": {"controller.quorum.voters": t.unknown_setting("b4.properties", "controller.quorum.voters", "${env:VOTERS}", 3)},
	})
	count(rule.report) == 0 with input as t.cluster([unknown_advertised, unknown_voters], [])
}

test_success_duplicate_ids_left_to_kfk3011 if {
	twin := object.union(_controller(1, _voters, "CONTROLLER://c9.example.com:9093"), {"file": "c1-twin.properties"})
	count(rule.report) == 0 with input as t.cluster([_ok(1), twin], [])
}

# Built with the loader (kafkalint.parse), not fixtures: controller 1's voter entry names another port than its listener.
test_loader_voter_endpoint_mismatch if {
	reports := rule.report with input as kafkalint.parse("", "prod/kafka/controller.properties", `process.roles=controller
node.id=1
controller.quorum.voters=1@c1:9093,2@c2:9093,3@c3:9093
controller.listener.names=CONTROLLER
listeners=CONTROLLER://c1:9094
`)
	{[f.location.file, f.location.line, object.get(f, "key", "")] | some f in reports} == {["prod/kafka/controller.properties", 5, "listeners"]}
}

# A ZooKeeper-mode node's leftover list reaches no quorum (KFK3019).
test_success_zookeeper_mode_leftover_voters if {
	nodes := [_ok(1), _ok(2), _ok(3), t.with_voters(t.node("server.properties", [], [["zookeeper.connect", "zk-1:2181", 1]]), "1@localhost:9093", 4)]
	count(rule.report) == 0 with input as t.cluster(nodes, [])
}
