package kafkalint.rules.kraft["quorum-too-few-voters_test"]

import data.kafkalint.lib.result
import data.kafkalint.lib.testing as t
import data.kafkalint.rules.kraft["quorum-too-few-voters"] as rule

_key := "controller.quorum.voters"

_one := "1@controller-1:9093"

_two := "1@controller-1:9093,2@controller-2:9093"

_three := "1@controller-1:9093,2@controller-2:9093,3@controller-3:9093"

_static_fix := "Run 3 or 5 dedicated controllers and list all of them in controller.quorum.voters (or use a dynamic quorum)."

# _one and _two are the findings at a voters line of one or two voters.
_one_at(file, line) := result.explain(
	t.finding(file, line, _key, "controller.quorum.voters defines a single voter (id 1): no controller failure is tolerated"),
	"controller.quorum.voters=1@controller-1:9093 defines a single voter, so the quorum has no fault tolerance: restarting, upgrading or losing that one controller stops all metadata changes.",
	_static_fix,
)

_two_at(file, line, raw) := result.explain(
	t.finding(file, line, _key, "controller.quorum.voters defines 2 voters (ids 1 and 2): no controller failure is tolerated"),
	sprintf("controller.quorum.voters=%s defines 2 voters. A majority of 2 is 2, so losing either controller stops all metadata changes.", [raw]),
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

test_fail_single_voter if {
	node := _controller("controller.properties", _one, 4)
	rule.report == {_one_at("controller.properties", 4)} with input as t.cluster([node], [])
}

test_fail_two_voters if {
	node := _controller("controller.properties", _two, 6)
	rule.report == {_two_at("controller.properties", 6, _two)} with input as t.cluster([node], [])
}

test_fail_duplicate_ids_count_once if {
	raw := "1@controller-1:9093,2@controller-2:9093,2@controller-3:9093"
	node := _controller("controller.properties", raw, 6)
	rule.report == {_two_at("controller.properties", 6, raw)} with input as t.cluster([node], [])
}

test_fail_anchored_at_controller_not_repeating_brokers if {
	nodes := [
		_broker("broker-1.properties", _one, 3),
		_controller("controller.properties", _one, 4),
		_broker("broker-2.properties", _one, 5),
	]
	rule.report == {_one_at("controller.properties", 4)} with input as t.cluster(nodes, [])
}

test_fail_each_controller_states_the_set if {
	nodes := [
		_controller("controller-1.properties", _two, 4),
		_controller("controller-2.properties", _two, 7),
		_broker("broker.properties", _two, 5),
	]
	rule.report == {
		_two_at("controller-1.properties", 4, _two),
		_two_at("controller-2.properties", 7, _two),
	} with input as t.cluster(nodes, [])
}

test_fail_brokers_only_reported_at_each_broker if {
	nodes := [
		_broker("broker-1.properties", _one, 3),
		_broker("broker-2.properties", _one, 8),
	]
	rule.report == {
		_one_at("broker-1.properties", 3),
		_one_at("broker-2.properties", 8),
	} with input as t.cluster(nodes, [])
}

test_fail_brokers_reported_when_controller_voters_unknown if {
	controller := object.union(t.node("controller.properties", ["controller"], []), {
		"quorum": {"mode": "static", "voters": [], "bootstrap_servers": []},
		"settings": {_key: t.unknown_setting("controller.properties", _key, "${env:VOTERS}", 4)},
	})
	nodes := [controller, _broker("broker.properties", _one, 3)]
	rule.report == {_one_at("broker.properties", 3)} with input as t.cluster(nodes, [])
}

test_success_three_voters if {
	nodes := [
		_controller("controller.properties", _three, 4),
		_broker("broker.properties", _three, 5),
	]
	count(rule.report) == 0 with input as t.cluster(nodes, [])
}

test_success_broker_differing_from_controllers_left_to_other_rules if {
	nodes := [
		_controller("controller.properties", _three, 4),
		_broker("broker.properties", _one, 5),
	]
	count(rule.report) == 0 with input as t.cluster(nodes, [])
}

test_success_key_absent if {
	node := t.node("controller.properties", ["controller"], [[_key, [], 0]])
	count(rule.report) == 0 with input as t.cluster([node], [])
}

test_success_dynamic_quorum if {
	node := object.union(
		t.node("controller.properties", ["controller"], [["controller.quorum.bootstrap.servers", "controller-1:9093", 4]]),
		{"quorum": {"mode": "dynamic", "bootstrap_servers": [{
			"host": "controller-1",
			"port": 9093,
			"raw": "controller-1:9093",
			"location": {"file": "controller.properties", "line": 4, "column": 1},
		}]}},
	)
	count(rule.report) == 0 with input as t.cluster([node], [])
}

test_success_unknown_placeholder if {
	node := object.union(t.node("controller.properties", ["controller"], []), {
		"quorum": {"mode": "static", "voters": [], "bootstrap_servers": []},
		"settings": {_key: t.unknown_setting("controller.properties", _key, "${env:VOTERS}", 4)},
	})
	count(rule.report) == 0 with input as t.cluster([node], [])
}

test_success_malformed_entries_are_not_voters if {
	raw := "1@controller-1"
	node := object.union(t.node("controller.properties", ["controller"], []), {
		"quorum": {
			"mode": "static", "voters": [{
				"id": 0,
				"host": "",
				"port": 0,
				"raw": raw,
				"error": "\"controller-1\" has no port",
				"location": {"file": "controller.properties", "line": 4, "column": 1},
			}],
			"bootstrap_servers": [],
		},
		"settings": {_key: t.setting("controller.properties", _key, raw, 4)},
	})
	count(rule.report) == 0 with input as t.cluster([node], [])
}

# _managed is a node whose platform maintains the quorum (Strimzi, the
# Bitnami chart): no voters in its config.
_managed(file, roles) := object.union(t.node(file, roles, []), {"quorum": {"mode": "managed", "voters": [], "bootstrap_servers": []}})

_with_controllers(cluster, n, file, line, source) := object.union(cluster, {"controller_count": {
	"value": n,
	"text": sprintf("%d", [n]),
	"source": source,
	"location": {"file": file, "line": line, "column": 1},
}})

_pool_source := "replicas of KafkaNodePool controller"

test_fail_managed_single_controller if {
	c := _with_controllers(t.cluster([_managed("kafka.yaml", ["controller", "broker"])], []), 1, "kafka.yaml", 8, _pool_source)
	finding := result.explain(
		t.finding("kafka.yaml", 8, _key, "the controller quorum has a single voter: no controller failure is tolerated"),
		"The platform makes every controller a voter, and it runs 1 controller (replicas of KafkaNodePool controller): restarting, upgrading or losing that one controller stops all metadata changes.",
		"Run 3 or 5 controllers.",
	)
	rule.report == {finding} with input as c
}

test_fail_managed_two_controllers_reported_once if {
	nodes := [_managed("kafka.yaml", ["controller"]), _managed("kafka.yaml", ["broker"])]
	c := _with_controllers(t.cluster(nodes, []), 2, "kafka.yaml", 9, _pool_source)
	finding := result.explain(
		t.finding("kafka.yaml", 9, _key, "the controller quorum has 2 voters: no controller failure is tolerated"),
		"The platform makes every controller a voter, and it runs 2 controllers (replicas of KafkaNodePool controller). A majority of 2 is 2, so losing either controller stops all metadata changes.",
		"Run 3 or 5 controllers.",
	)
	rule.report == {finding} with input as c
}

test_success_managed_three_controllers if {
	c := _with_controllers(t.cluster([_managed("kafka.yaml", ["controller"])], []), 3, "kafka.yaml", 9, _pool_source)
	count(rule.report) == 0 with input as c
}

test_success_managed_count_unknown if {
	count(rule.report) == 0 with input as t.cluster([_managed("kafka.yaml", ["controller"])], [])
}

test_success_controller_count_without_managed_quorum if {
	# A known count alone (a compose project with static voters) is left to
	# the voter lines.
	c := _with_controllers(t.cluster([t.node("compose.yaml", ["controller"], [])], []), 1, "compose.yaml", 3, "compose services")
	count(rule.report) == 0 with input as c
}

test_success_managed_but_voters_stated_elsewhere if {
	nodes := [_managed("kafka.yaml", ["broker"]), _controller("controller.properties", _three, 4)]
	c := _with_controllers(t.cluster(nodes, []), 1, "kafka.yaml", 9, _pool_source)
	count(rule.report) == 0 with input as c
}

# The minimum comes from data.kafkalint.params (--data): a stricter one
# reports a quorum the default accepts, a looser one stays silent.
test_fail_below_configured_minimum if {
	node := _controller("controller.properties", _three, 5)
	finding := result.explain(
		t.finding("controller.properties", 5, _key, "controller.quorum.voters defines 3 voters: fewer than the 5 required (quorum.min_voters)"),
		"controller.quorum.voters=1@controller-1:9093,2@controller-2:9093,3@controller-3:9093 defines 3 voters, fewer than the 5 the parameter quorum.min_voters requires. A majority of 3 is 2, so the quorum survives losing at most 1 of them.",
		"List at least 5 voters in controller.quorum.voters (or use a dynamic quorum).",
	)
	rule.report == {finding} with input as t.cluster([node], [])
		with data.kafkalint.params.quorum.min_voters as 5
}

test_success_at_configured_minimum if {
	node := _controller("controller.properties", _two, 5)
	count(rule.report) == 0 with input as t.cluster([node], [])
		with data.kafkalint.params.quorum.min_voters as 2
}

test_fail_managed_below_configured_minimum if {
	c := _with_controllers(t.cluster([_managed("kafka.yaml", ["controller"])], []), 3, "kafka.yaml", 9, _pool_source)
	finding := result.explain(
		t.finding("kafka.yaml", 9, _key, "the controller quorum has 3 voters: fewer than the 5 required (quorum.min_voters)"),
		"The platform makes every controller a voter, and it runs 3 controllers (replicas of KafkaNodePool controller), fewer than the 5 the parameter quorum.min_voters requires. A majority of 3 is 2, so the quorum survives losing at most 1 of them.",
		"Run at least 5 controllers.",
	)
	rule.report == {finding} with input as c with data.kafkalint.params.quorum.min_voters as 5
}

# Built with the loader (kafkalint.parse), not fixtures: a single voter.
test_loader_quorum_too_few_voters if {
	reports := rule.report with input as kafkalint.parse("", "prod/kafka/server.properties", `process.roles=broker
node.id=4
controller.quorum.voters=1@c1:9093
controller.listener.names=CONTROLLER
listeners=SSL://:9093
`)
	{[f.location.file, f.location.line, object.get(f, "key", "")] | some f in reports} == {["prod/kafka/server.properties", 3, "controller.quorum.voters"]}
}

# A ZooKeeper-mode node that is not migrating has no KRaft quorum: its
# leftover list is KFK3019's, not a quorum of one.
test_success_zookeeper_mode_leftover_voters if {
	count(rule.report) == 0 with input as t.cluster([_with_voters(t.node("server.properties", [], [["zookeeper.connect", "zk-1:2181", 1]]), _one, 4)], [])
}

# Migrating to KRaft, the ZooKeeper broker reaches the KRaft quorum with it.
test_fail_zookeeper_broker_migrating_to_kraft if {
	node := _with_voters(t.with_settings(t.node("server.properties", [], [["zookeeper.connect", "zk-1:2181", 1]]), [["zookeeper.metadata.migration.enable", "true", 2]]), _one, 4)
	rule.report == {_one_at("server.properties", 4)} with input as t.cluster([node], [])
}

# Built with the loader: a ZooKeeper-mode broker with a leftover single voter.
test_loader_zookeeper_mode_leftover_voters if {
	reports := rule.report with input as kafkalint.parse("", "prod/kafka/server.properties", `broker.id=1
zookeeper.connect=zk-1:2181,zk-2:2181,zk-3:2181
listeners=SSL://:9093
controller.quorum.voters=1@localhost:9093
`)
	count(reports) == 0
}

test_loader_zookeeper_broker_migrating_to_kraft if {
	reports := rule.report with input as kafkalint.parse("", "prod/kafka/server.properties", `broker.id=1
zookeeper.connect=zk-1:2181,zk-2:2181,zk-3:2181
listeners=SSL://:9093
zookeeper.metadata.migration.enable=true
controller.listener.names=CONTROLLER
controller.quorum.voters=1@localhost:9093
`)
	{[f.location.file, f.location.line, object.get(f, "key", "")] | some f in reports} == {["prod/kafka/server.properties", 6, "controller.quorum.voters"]}
}
