package kafkalint.rules.kraft["quorum-even-voter-count_test"]

import data.kafkalint.lib.result
import data.kafkalint.lib.testing as t
import data.kafkalint.rules.kraft["quorum-even-voter-count"] as rule

_key := "controller.quorum.voters"

_three := "1@controller-1:9093,2@controller-2:9093,3@controller-3:9093"

_four := "1@controller-1:9093,2@controller-2:9093,3@controller-3:9093,4@controller-4:9093"

_five := "1@controller-1:9093,2@controller-2:9093,3@controller-3:9093,4@controller-4:9093,5@controller-5:9093"

_six := "1@controller-1:9093,2@controller-2:9093,3@controller-3:9093,4@controller-4:9093,5@controller-5:9093,6@controller-6:9093"

_static_fix := "Use an odd number of dedicated controllers, 3 or 5, and list all of them in controller.quorum.voters."

_four_why := "A majority of 4 is 3, so the quorum tolerates 1 controller failure, no more than 3 voters would, and the extra voter is one more machine that can fail."

# _static is the finding at a controller.quorum.voters line of raw with n voters.
_static(file, line, raw, n, tolerance) := result.explain(
	t.finding(file, line, _key, sprintf("controller.quorum.voters defines %d voters: an even count tolerates no more failures than %d", [n, n - 1])),
	sprintf("controller.quorum.voters=%s defines %d voters. %s", [raw, n, tolerance]),
	_static_fix,
)

# _voter parses a well-formed entry {id}@{host}:{port} as the loader does.
_voter(file, line, entry) := {
	"id": to_number(m[1]),
	"host": m[2],
	"port": to_number(m[3]),
	"raw": entry,
	"location": {"file": file, "line": line, "column": 1},
} if {
	m := regex.find_all_string_submatch_n(`^([0-9]+)@(.*):([0-9]+)$`, entry, 1)[0]
}

# _with_voters gives node controller.quorum.voters=raw (well-formed entries) at line.
_with_voters(node, raw, line) := object.union(node, {
	"quorum": {"mode": "static", "voters": [_voter(node.file, line, e) | some e in split(raw, ",")], "bootstrap_servers": []},
	"settings": {_key: {
		"key": _key,
		"raw": raw,
		"value": split(raw, ","),
		"type": "list",
		"source": "explicit",
		"location": {"file": node.file, "line": line, "column": 1},
	}},
})

_controller(file, raw, line) := _with_voters(t.node(file, ["controller"], []), raw, line)

_broker(file, raw, line) := _with_voters(t.node(file, ["broker"], []), raw, line)

test_fail_four_voters if {
	node := _controller("controller.properties", _four, 4)
	rule.report == {_static("controller.properties", 4, _four, 4, _four_why)} with input as t.cluster([node], [])
}

test_fail_six_voters if {
	node := _controller("controller.properties", _six, 9)
	rule.report == {_static("controller.properties", 9, _six, 6, "A majority of 6 is 4, so the quorum tolerates 2 controller failures, no more than 5 voters would, and the extra voter is one more machine that can fail.")} with input as t.cluster([node], [])
}

test_fail_anchored_at_controller_not_repeating_brokers if {
	nodes := [
		_broker("broker-1.properties", _four, 3),
		_controller("controller.properties", _four, 4),
		_broker("broker-2.properties", _four, 5),
	]
	rule.report == {_static("controller.properties", 4, _four, 4, _four_why)} with input as t.cluster(nodes, [])
}

test_fail_brokers_only_reported_at_each_broker if {
	nodes := [
		_broker("broker-1.properties", _four, 3),
		_broker("broker-2.properties", _four, 8),
	]
	rule.report == {
		_static("broker-1.properties", 3, _four, 4, _four_why),
		_static("broker-2.properties", 8, _four, 4, _four_why),
	} with input as t.cluster(nodes, [])
}

test_success_odd_voters if {
	nodes := [
		_controller("controller-1.properties", _three, 4),
		_controller("controller-2.properties", _five, 4),
		_broker("broker.properties", _five, 5),
	]
	count(rule.report) == 0 with input as t.cluster(nodes, [])
}

test_success_two_voters_left_to_kfk3001 if {
	node := _controller("controller.properties", "1@controller-1:9093,2@controller-2:9093", 4)
	count(rule.report) == 0 with input as t.cluster([node], [])
}

test_fail_duplicate_id_counts_once if {
	raw := concat(",", [_four, "4@controller-5:9093"])
	node := _controller("controller.properties", raw, 4)
	rule.report == {_static("controller.properties", 4, raw, 4, _four_why)} with input as t.cluster([node], [])
}

test_success_broker_differing_from_controllers_left_to_other_rules if {
	nodes := [
		_controller("controller.properties", _three, 4),
		_broker("broker.properties", _four, 5),
	]
	count(rule.report) == 0 with input as t.cluster(nodes, [])
}

test_success_key_absent if {
	node := t.node("controller.properties", ["controller"], [[_key, [], 0]])
	count(rule.report) == 0 with input as t.cluster([node], [])
}

test_success_unknown_placeholder if {
	node := object.union(t.node("controller.properties", ["controller"], []), {
		"quorum": {"mode": "static", "voters": [], "bootstrap_servers": []},
		"settings": {_key: t.unknown_setting("controller.properties", _key, "${env:VOTERS}", 4)},
	})
	count(rule.report) == 0 with input as t.cluster([node], [])
}

_managed(file, roles) := object.union(t.node(file, roles, []), {"quorum": {"mode": "managed", "voters": [], "bootstrap_servers": []}})

_with_controllers(cluster, n, file, line, source) := object.union(cluster, {"controller_count": {
	"value": n,
	"text": sprintf("%d", [n]),
	"source": source,
	"location": {"file": file, "line": line, "column": 1},
}})

test_fail_managed_four_controllers if {
	c := _with_controllers(t.cluster([_managed("values.yaml", ["controller", "broker"])], []), 4, "values.yaml", 12, "controller.replicaCount")
	finding := result.explain(
		t.finding("values.yaml", 12, _key, "the controller quorum has 4 voters: an even count tolerates no more failures than 3"),
		sprintf("The platform makes every controller a voter, and it runs 4 controllers (controller.replicaCount). %s", [_four_why]),
		"Run an odd number of controllers, 3 or 5.",
	)
	rule.report == {finding} with input as c
}

test_success_managed_five_controllers if {
	c := _with_controllers(t.cluster([_managed("values.yaml", ["controller"])], []), 5, "values.yaml", 12, "controller.replicaCount")
	count(rule.report) == 0 with input as c
}

test_success_managed_two_left_to_kfk3001 if {
	c := _with_controllers(t.cluster([_managed("values.yaml", ["controller"])], []), 2, "values.yaml", 12, "controller.replicaCount")
	count(rule.report) == 0 with input as c
}

test_success_managed_count_unknown if {
	count(rule.report) == 0 with input as t.cluster([_managed("values.yaml", ["controller"])], [])
}

# Built with the loader (kafkalint.parse), not fixtures: four voters.
test_loader_quorum_even_voter_count if {
	reports := rule.report with input as kafkalint.parse("", "prod/kafka/server.properties", `process.roles=broker
node.id=9
controller.quorum.voters=1@c1:9093,2@c2:9093,3@c3:9093,4@c4:9093
controller.listener.names=CONTROLLER
listeners=SSL://:9093
`)
	{[f.location.file, f.location.line, object.get(f, "key", "")] | some f in reports} == {["prod/kafka/server.properties", 3, "controller.quorum.voters"]}
}

# A ZooKeeper-mode node that is not migrating has no KRaft quorum (KFK3019).
test_success_zookeeper_mode_leftover_voters if {
	node := t.with_voters(t.node("server.properties", [], [["zookeeper.connect", "zk-1:2181", 1]]), "1@c1:9093,2@c2:9093,3@c3:9093,4@c4:9093", 4)
	count(rule.report) == 0 with input as t.cluster([node], [])
}

test_loader_zookeeper_mode_leftover_voters if {
	reports := rule.report with input as kafkalint.parse("", "prod/kafka/server.properties", `broker.id=1
zookeeper.connect=zk-1:2181,zk-2:2181,zk-3:2181
listeners=SSL://:9093
controller.quorum.voters=1@c1:9093,2@c2:9093,3@c3:9093,4@c4:9093
`)
	count(reports) == 0
}
