package kafkalint.rules.kraft["quorum-not-configured_test"]

import data.kafkalint.lib.testing as t
import data.kafkalint.rules.kraft["quorum-not-configured"] as rule

_message(raw) := sprintf("process.roles=%s without controller.quorum.voters or controller.quorum.bootstrap.servers", [raw])

test_fail_broker_without_quorum if {
	node := t.node("broker.properties", ["broker"], [["process.roles", "broker", 1], ["node.id", 4, 2]])
	rule.report == {t.finding("broker.properties", 1, "process.roles", _message("broker"))} with input as t.cluster([node], [])
}

test_fail_controller_with_blank_quorum_keys if {
	node := t.node("controller.properties", ["controller"], [
		["process.roles", "controller", 3],
		["controller.quorum.voters", "", 5],
		["controller.quorum.bootstrap.servers", "", 6],
	])
	rule.report == {t.finding("controller.properties", 3, "process.roles", _message("controller"))} with input as t.cluster([node], [])
}

test_success_static_quorum if {
	node := object.union(
		t.node("broker.properties", ["broker"], [["process.roles", "broker", 1], ["controller.quorum.voters", "1@controller-1:9093", 3]]),
		{"quorum": {"mode": "static", "voters": [{
			"id": 1,
			"host": "controller-1",
			"port": 9093,
			"raw": "1@controller-1:9093",
			"location": {"file": "broker.properties", "line": 3, "column": 1},
		}]}},
	)
	count(rule.report) == 0 with input as t.cluster([node], [])
}

test_success_dynamic_quorum if {
	node := object.union(
		t.node("broker.properties", ["broker"], [["process.roles", "broker", 1], ["controller.quorum.bootstrap.servers", "controller-1:9093", 3]]),
		{"quorum": {"mode": "dynamic", "bootstrap_servers": [{
			"host": "controller-1",
			"port": 9093,
			"raw": "controller-1:9093",
			"location": {"file": "broker.properties", "line": 3, "column": 1},
		}]}},
	)
	count(rule.report) == 0 with input as t.cluster([node], [])
}

test_success_process_roles_absent if {
	node := t.node("server.properties", [], [["zookeeper.connect", "zk-1:2181", 1]])
	count(rule.report) == 0 with input as t.cluster([node], [])
}

test_success_unknown_quorum_placeholder if {
	node := object.union(
		t.node("broker.properties", ["broker"], [["process.roles", "broker", 1]]),
		{
			"quorum": {"mode": "dynamic"},
			"settings": {"controller.quorum.bootstrap.servers": t.unknown_setting("broker.properties", "controller.quorum.bootstrap.servers", "${env:CONTROLLERS}", 3)},
		},
	)
	count(rule.report) == 0 with input as t.cluster([node], [])
}

test_success_unknown_process_roles_placeholder if {
	node := object.union(
		t.node("server.properties", [], []),
		{
			"mode": "unknown",
			"is_broker": false,
			"settings": {"process.roles": t.unknown_setting("server.properties", "process.roles", "${env:ROLES}", 1)},
		},
	)
	count(rule.report) == 0 with input as t.cluster([node], [])
}

# Built with the loader (kafkalint.parse), not fixtures: a KRaft broker without a quorum setting.
test_loader_quorum_not_configured if {
	reports := rule.report with input as kafkalint.parse("", "prod/kafka/server.properties", `process.roles=broker
node.id=4
controller.listener.names=CONTROLLER
listeners=SSL://:9093
`)
	{[f.location.file, f.location.line, object.get(f, "key", "")] | some f in reports} == {["prod/kafka/server.properties", 1, "process.roles"]}
}
