package kafkalint.rules.kraft["quorum-mode-disagrees_test"]

import data.kafkalint.lib.result
import data.kafkalint.lib.testing as t
import data.kafkalint.rules.kraft["quorum-mode-disagrees"] as rule

_voters := "1@c1:9093,2@c2:9093,3@c3:9093"

_bootstrap := "c1:9093,c2:9093,c3:9093"

_static(file, roles) := t.with_voters(t.node(file, roles, []), _voters, 4)

_dynamic(file, roles) := t.with_bootstrap(t.node(file, roles, []), _bootstrap, 5)

_finding(file, line, key, model, files, other_key, other_model, short, related) := result.explain(
	t.finding_related(file, line, key, sprintf("%s alone (%s), but %s", [key, model, short]), related),
	sprintf(
		"This node sets only %s (%s), but %s set only %s (%s). A cluster runs one quorum model: its voter set comes from controller.quorum.voters (kraft.version=0) or from the metadata log (kraft.version=1), and kafka-storage format (3.9.2, 4.0.2, 4.1.1, 4.2+) gives kraft.version=1 to exactly the controllers without controller.quorum.voters, so these nodes disagree about who the voters are.",
		[key, model, files, other_key, other_model],
	),
	"Use one model on every node: controller.quorum.voters everywhere for a static quorum, or only controller.quorum.bootstrap.servers for a dynamic one (turning a static quorum dynamic is an upgrade, possible from Kafka 4.1).",
)

test_fail_broker_dynamic_among_static_nodes if {
	nodes := [
		_static("c1.properties", ["controller"]),
		_static("c2.properties", ["controller"]),
		_dynamic("b1.properties", ["broker"]),
		_static("b2.properties", ["broker"]),
	]
	rule.report == {_finding(
		"b1.properties", 5, "controller.quorum.bootstrap.servers", "a dynamic quorum",
		"b2.properties, c1.properties, c2.properties",
		"controller.quorum.voters", "a static quorum", "3 other nodes run a static one",
		[["b2.properties", 4], ["c1.properties", 4], ["c2.properties", 4]],
	)} with input as t.cluster(nodes, [])
}

test_fail_controller_static_among_dynamic_nodes if {
	nodes := [
		_dynamic("c1.properties", ["controller"]),
		_static("c2.properties", ["controller"]),
		_dynamic("c3.properties", ["controller"]),
	]
	rule.report == {_finding(
		"c2.properties", 4, "controller.quorum.voters", "a static quorum",
		"c1.properties, c3.properties",
		"controller.quorum.bootstrap.servers", "a dynamic quorum", "2 other nodes run a dynamic one",
		[["c1.properties", 5], ["c3.properties", 5]],
	)} with input as t.cluster(nodes, [])
}

test_fail_no_majority_reports_each if {
	nodes := [_static("c1.properties", ["controller"]), _dynamic("b1.properties", ["broker"])]
	{[f.location.file, f.key] | some f in rule.report} == {
		["c1.properties", "controller.quorum.voters"],
		["b1.properties", "controller.quorum.bootstrap.servers"],
	} with input as t.cluster(nodes, [])
}

test_success_one_model if {
	count(rule.report) == 0 with input as t.cluster([_static("c1.properties", ["controller"]), _static("b1.properties", ["broker"])], [])
	count(rule.report) == 0 with input as t.cluster([_dynamic("c1.properties", ["controller"]), _dynamic("b1.properties", ["broker"])], [])
}

test_success_both_keys_left_to_kfk3003 if {
	both := t.with_bootstrap(_static("c2.properties", ["controller"]), _bootstrap, 5)
	count(rule.report) == 0 with input as t.cluster([_static("c1.properties", ["controller"]), both], [])
	count(rule.report) == 0 with input as t.cluster([_dynamic("c1.properties", ["controller"]), both], [])
}

test_success_key_absent if {
	count(rule.report) == 0 with input as t.cluster([_static("c1.properties", ["controller"]), t.node("b1.properties", ["broker"], [])], [])
}

test_success_unknown_placeholder if {
	unknown := object.union(t.node("b1.properties", ["broker"], []), {
		"quorum": {"mode": "dynamic", "voters": [], "bootstrap_servers": []},
		"settings": {"controller.quorum.bootstrap.servers": t.unknown_setting("b1.properties", "controller.quorum.bootstrap.servers", "${env:QUORUM}", 5)},
	})
	count(rule.report) == 0 with input as t.cluster([_static("c1.properties", ["controller"]), unknown], [])
}

# Built with the loader (kafkalint.parse), not fixtures: one broker lists voters, the other bootstrap servers.
test_loader_quorum_mode_disagrees if {
	clusters := kafkalint.parse_files({
		"prod/kafka/b1.properties": `process.roles=broker
node.id=4
controller.quorum.voters=1@c1:9093,2@c2:9093,3@c3:9093
controller.listener.names=CONTROLLER
listeners=SSL://:9093
`,
		"prod/kafka/b2.properties": `process.roles=broker
node.id=5
controller.quorum.bootstrap.servers=c1:9093,c2:9093,c3:9093
controller.listener.names=CONTROLLER
listeners=SSL://:9093
`,
	})
	count(clusters) == 1
	reports := rule.report with input as clusters[0]
	{[f.location.file, f.location.line, object.get(f, "key", "")] | some f in reports} == {["prod/kafka/b1.properties", 3, "controller.quorum.voters"], ["prod/kafka/b2.properties", 3, "controller.quorum.bootstrap.servers"]}
}

# A ZooKeeper-mode node's leftover list takes no part (KFK3019).
test_success_zookeeper_mode_leftover_voters if {
	nodes := [_dynamic("c1.properties", ["controller"]), _dynamic("c2.properties", ["controller"]), t.with_voters(t.node("server.properties", [], [["zookeeper.connect", "zk-1:2181", 1]]), _voters, 4)]
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
controller.quorum.bootstrap.servers=c1:9093
`,
	})
	count(clusters) == 1
	count(rule.report) == 0 with input as clusters[0]
}
