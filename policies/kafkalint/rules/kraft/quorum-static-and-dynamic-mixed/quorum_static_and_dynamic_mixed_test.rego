package kafkalint.rules.kraft["quorum-static-and-dynamic-mixed_test"]

import data.kafkalint.lib.testing as t
import data.kafkalint.rules.kraft["quorum-static-and-dynamic-mixed"] as rule

_voters := "1@controller-1:9093,2@controller-2:9093,3@controller-3:9093"

_bootstrap := "controller-1:9093,controller-2:9093,controller-3:9093"

_message := "controller.quorum.bootstrap.servers and controller.quorum.voters are both set: two quorum models in one file"

_why := "controller.quorum.bootstrap.servers=controller-1:9093,controller-2:9093,controller-3:9093 and controller.quorum.voters=1@controller-1:9093,2@controller-2:9093,3@controller-3:9093 are both set. Kafka accepts both silently: it finds the leader through the bootstrap servers and uses the voters only as the static voter set, which it ignores once kraft.version=1, so the file can describe a voter set the cluster no longer uses."

_fix := "Pick one model on every node: keep only controller.quorum.voters for a static quorum (kraft.version=0) or only controller.quorum.bootstrap.servers for a dynamic one (check kafka-features.sh describe before deleting either)."

# _quorum sets the node's quorum mode (the entries themselves do not matter here).
_quorum(node, mode) := object.union(node, {"quorum": {"mode": mode}})

test_fail_both_keys_on_controller if {
	node := _quorum(
		t.node("controller.properties", ["controller"], [
			["controller.quorum.voters", _voters, 5],
			["controller.quorum.bootstrap.servers", _bootstrap, 6],
		]),
		"both",
	)
	rule.report == {{
		"message": _message,
		"why": _why,
		"fix": _fix,
		"key": "controller.quorum.bootstrap.servers",
		"location": {"file": "controller.properties", "line": 6, "column": 1},
		"related": [{"file": "controller.properties", "line": 5, "column": 1}],
	}} with input as t.cluster([node], [])
}

test_fail_both_keys_on_each_node if {
	broker := _quorum(
		t.node("broker.properties", ["broker"], [
			["controller.quorum.bootstrap.servers", _bootstrap, 2],
			["controller.quorum.voters", _voters, 9],
		]),
		"both",
	)
	controller := _quorum(
		t.node("controller.properties", ["controller"], [
			["controller.quorum.voters", _voters, 5],
			["controller.quorum.bootstrap.servers", _bootstrap, 6],
		]),
		"both",
	)
	rule.report == {
		{
			"message": _message,
			"why": _why,
			"fix": _fix,
			"key": "controller.quorum.bootstrap.servers",
			"location": {"file": "broker.properties", "line": 2, "column": 1},
			"related": [{"file": "broker.properties", "line": 9, "column": 1}],
		},
		{
			"message": _message,
			"why": _why,
			"fix": _fix,
			"key": "controller.quorum.bootstrap.servers",
			"location": {"file": "controller.properties", "line": 6, "column": 1},
			"related": [{"file": "controller.properties", "line": 5, "column": 1}],
		},
	} with input as t.cluster([broker, controller], [])
}

test_success_static_only if {
	node := _quorum(t.node("broker.properties", ["broker"], [["controller.quorum.voters", _voters, 5]]), "static")
	count(rule.report) == 0 with input as t.cluster([node], [])
}

test_success_dynamic_only if {
	node := _quorum(t.node("broker.properties", ["broker"], [["controller.quorum.bootstrap.servers", _bootstrap, 5]]), "dynamic")
	count(rule.report) == 0 with input as t.cluster([node], [])
}

test_success_keys_absent if {
	node := t.node("broker.properties", ["broker"], [["controller.quorum.voters", [], 0]])
	count(rule.report) == 0 with input as t.cluster([node], [])
}

test_success_unknown_placeholder if {
	node := object.union(
		t.node("broker.properties", ["broker"], [["controller.quorum.voters", _voters, 5]]),
		{
			"quorum": {"mode": "both"},
			"settings": {"controller.quorum.bootstrap.servers": t.unknown_setting("broker.properties", "controller.quorum.bootstrap.servers", "${env:CONTROLLERS}", 6)},
		},
	)
	count(rule.report) == 0 with input as t.cluster([node], [])
}

test_success_unknown_voters_placeholder if {
	node := object.union(
		t.node("broker.properties", ["broker"], [["controller.quorum.bootstrap.servers", _bootstrap, 6]]),
		{
			"quorum": {"mode": "both"},
			"settings": {"controller.quorum.voters": t.unknown_setting("broker.properties", "controller.quorum.voters", "${env:VOTERS}", 5)},
		},
	)
	count(rule.report) == 0 with input as t.cluster([node], [])
}

# Built with the loader (kafkalint.parse), not fixtures: voters and bootstrap servers in one file.
test_loader_quorum_static_and_dynamic_mixed if {
	reports := rule.report with input as kafkalint.parse("", "prod/kafka/server.properties", `process.roles=broker
node.id=4
controller.quorum.voters=1@c1:9093,2@c2:9093,3@c3:9093
controller.listener.names=CONTROLLER
listeners=SSL://:9093
controller.quorum.bootstrap.servers=c1:9093
`)
	{[f.location.file, f.location.line, object.get(f, "key", "")] | some f in reports} == {["prod/kafka/server.properties", 6, "controller.quorum.bootstrap.servers"]}
}

# A ZooKeeper-mode node uses neither key (KFK3019 reports them).
test_success_zookeeper_mode_leftover_keys if {
	node := t.with_bootstrap(t.with_voters(t.node("server.properties", [], [["zookeeper.connect", "zk-1:2181", 1]]), _voters, 4), _bootstrap, 5)
	count(rule.report) == 0 with input as t.cluster([node], [])
}

test_loader_zookeeper_mode_leftover_keys if {
	reports := rule.report with input as kafkalint.parse("", "prod/kafka/server.properties", `broker.id=1
zookeeper.connect=zk-1:2181,zk-2:2181,zk-3:2181
listeners=SSL://:9093
controller.quorum.voters=1@controller-1:9093
controller.quorum.bootstrap.servers=controller-1:9093
`)
	count(reports) == 0
}
