package kafkalint.rules.kraft["voter-sets-disagree_test"]

import data.kafkalint.lib.result
import data.kafkalint.lib.testing as t
import data.kafkalint.rules.kraft["voter-sets-disagree"] as rule

_key := "controller.quorum.voters"

_three := "1@c1:9093,2@c2:9093,3@c3:9093"

_cross := "Kafka checks nothing across nodes: each broker and controller finds the leader and each controller counts votes with its own list"

# _odd is the finding at the list of the odd node out: short is the
# message's difference, difference the why's.
_odd(file, line, raw, reference, majority, files, short, difference, related) := result.explain(
	t.finding_related(file, line, _key, sprintf("controller.quorum.voters differs from %s: it %s", [majority, short]), related),
	sprintf(
		"controller.quorum.voters=%s differs from the voter set %s that %s (%s) list: it %s. %s, so this node can fail to reach the leader or the controllers can fail to agree on a majority.",
		[raw, reference, majority, files, difference, _cross],
	),
	"Copy one voter list to every node of the cluster.",
)

_controller(file, raw) := t.with_voters(t.node(file, ["controller"], []), raw, 4)

_broker(file, raw) := t.with_voters(t.node(file, ["broker"], []), raw, 6)

_at(file, line) := [file, line]

test_fail_odd_one_out_lists_another_voter if {
	nodes := [
		_controller("c1.properties", _three),
		_controller("c2.properties", _three),
		_controller("c3.properties", "1@c1:9093,2@c2:9093,4@c4:9093"),
	]
	finding := _odd(
		"c3.properties", 4, "1@c1:9093,2@c2:9093,4@c4:9093", _three, "the other 2 nodes", "c1.properties, c2.properties",
		"lists voter 4, omits voter 3", "lists voter 4, omits voter 3",
		[_at("c1.properties", 4), _at("c2.properties", 4)],
	)
	rule.report == {finding} with input as t.cluster(nodes, [])
}

test_fail_endpoint_of_a_voter_differs if {
	nodes := [
		_controller("c1.properties", _three),
		_broker("b1.properties", "1@c1:9093,2@c2:9095,3@c3:9093"),
		_controller("c2.properties", _three),
		_controller("c3.properties", _three),
	]
	finding := _odd(
		"b1.properties", 6, "1@c1:9093,2@c2:9095,3@c3:9093", _three, "the other 3 nodes", "c1.properties, c2.properties, c3.properties",
		"gives another endpoint to voter 2", "gives voter 2 as c2:9095 instead of c2:9093",
		[_at("c1.properties", 4), _at("c2.properties", 4), _at("c3.properties", 4)],
	)
	rule.report == {finding} with input as t.cluster(nodes, [])
}

test_fail_no_majority_reports_each if {
	nodes := [
		_controller("c1.properties", "1@c1:9093,2@c2:9093,3@c3:9093"),
		_controller("c2.properties", "1@c1:9093,2@c2:9093"),
	]
	rule.report == {
		_no_majority("c1.properties", "1@c1:9093,2@c2:9093,3@c3:9093", "c2.properties"),
		_no_majority("c2.properties", "1@c1:9093,2@c2:9093", "c1.properties"),
	} with input as t.cluster(nodes, [])
}

test_fail_two_odd_ones_out if {
	nodes := [
		_controller("c1.properties", _three),
		_controller("c2.properties", _three),
		_controller("c3.properties", _three),
		_broker("b1.properties", "1@c1:9093"),
		_broker("b2.properties", "1@c1:9093,2@c2:9093,3@c3:9093,4@c4:9093"),
	]
	{f.location.file | some f in rule.report} == {"b1.properties", "b2.properties"} with input as t.cluster(nodes, [])
}

# Many differing ids: the message caps them, and counts them when even that
# is too long; the why says each difference.
test_fail_many_differences_are_cut_in_the_message if {
	odd_many := "1@c1:9093,2@c2:9093,3@c3:9093,4@c4:9093,5@c5:9093,6@c6:9093,7@c7:9093,8@c8:9093"
	odd_all := "1@c1:9094,2@c2:9094,3@c3:9094,8@c8:9093,9@c9:9093"
	nodes := [_controller("c1.properties", _three), _controller("c2.properties", _three), _controller("c3.properties", _three), _broker("b1.properties", odd_many), _broker("b2.properties", odd_all)]
	messages := {f.location.file: f.message | some f in rule.report} with input as t.cluster(nodes, [])
	messages == {
		"b1.properties": "controller.quorum.voters differs from the other 3 nodes: it lists voter 4, 5, 6 and 2 more",
		"b2.properties": "controller.quorum.voters differs from the other 3 nodes: it disagrees on 5 voters",
	}
}

test_success_same_set_written_differently if {
	nodes := [
		_controller("c1.properties", _three),
		_controller("c2.properties", "3@C3:9093,2@c2:9093,1@c1:9093"),
		_broker("b1.properties", "1@c9:9093,1@c1:9093,2@c2:9093,3@c3:9093"),
	]
	count(rule.report) == 0 with input as t.cluster(nodes, [])
}

test_success_key_absent if {
	nodes := [
		_controller("c1.properties", _three),
		t.with_bootstrap(t.node("b1.properties", ["broker"], []), "c1:9093", 3),
		t.node("b2.properties", ["broker"], []),
	]
	count(rule.report) == 0 with input as t.cluster(nodes, [])
}

test_success_unknown_placeholder if {
	unknown := object.union(t.node("c2.properties", ["controller"], []), {
		"quorum": {"mode": "static", "voters": [], "bootstrap_servers": []},
		"settings": {_key: t.unknown_setting("c2.properties", _key, "${env:VOTERS}", 4)},
	})
	count(rule.report) == 0 with input as t.cluster([_controller("c1.properties", _three), unknown], [])
}

test_success_malformed_list_left_to_kfk3007 if {
	malformed := object.union(t.node("c2.properties", ["controller"], [[_key, "1@c1:9093,c2:9093", 4]]), {"quorum": {
		"mode": "static",
		"voters": [t.voter("c2.properties", 4, "1@c1:9093"), t.malformed_voter("c2.properties", 4, "c2:9093")],
		"bootstrap_servers": [],
	}})
	count(rule.report) == 0 with input as t.cluster([_controller("c1.properties", _three), malformed], [])
}

test_success_single_node if {
	count(rule.report) == 0 with input as t.cluster([_controller("c1.properties", "1@c1:9093")], [])
}

_no_majority(file, raw, other) := result.explain(
	t.finding_related(file, 4, _key, "controller.quorum.voters is one of 2 different voter sets, none listed by a majority of the nodes", [_at(other, 4)]),
	sprintf(
		"controller.quorum.voters=%s is one of 2 different voter sets listed by the nodes of this cluster (also in %s), and no set is listed by a majority of them. %s, so nodes can fail to reach the leader or the controllers can fail to agree on a majority.",
		[raw, other, _cross],
	),
	"Decide on the real voters and copy one voter list to every node of the cluster.",
)

# Built with the loader (kafkalint.parse), not fixtures: two brokers list different voters.
test_loader_voter_sets_disagree if {
	clusters := kafkalint.parse_files({
		"prod/kafka/b1.properties": `process.roles=broker
node.id=4
controller.quorum.voters=1@c1:9093,2@c2:9093,3@c3:9093
controller.listener.names=CONTROLLER
listeners=SSL://:9093
`,
		"prod/kafka/b2.properties": `process.roles=broker
node.id=5
controller.quorum.voters=1@c1:9093,2@c2:9093,3@c9:9093
controller.listener.names=CONTROLLER
listeners=SSL://:9093
`,
	})
	count(clusters) == 1
	reports := rule.report with input as clusters[0]
	{[f.location.file, f.location.line, object.get(f, "key", "")] | some f in reports} == {["prod/kafka/b1.properties", 3, "controller.quorum.voters"], ["prod/kafka/b2.properties", 3, "controller.quorum.voters"]}
}

# A ZooKeeper-mode node's leftover list is no voter set (KFK3019).
test_success_zookeeper_mode_leftover_voters if {
	nodes := [_controller("c1.properties", _three), _controller("c2.properties", _three), t.with_voters(t.node("server.properties", [], [["zookeeper.connect", "zk-1:2181", 1]]), "1@localhost:9093", 4)]
	count(rule.report) == 0 with input as t.cluster(nodes, [])
}

test_loader_zookeeper_mode_leftover_voters if {
	clusters := kafkalint.parse_files({
		"prod/kafka/server-1.properties": `broker.id=1
zookeeper.connect=zk-1:2181,zk-2:2181,zk-3:2181
listeners=SSL://:9093
controller.quorum.voters=1@c1:9093
`,
		"prod/kafka/server-2.properties": `broker.id=2
zookeeper.connect=zk-1:2181,zk-2:2181,zk-3:2181
listeners=SSL://:9093
controller.quorum.voters=1@c1:9093,2@c2:9093,3@c3:9093
`,
	})
	count(clusters) == 1
	count(rule.report) == 0 with input as clusters[0]
}
