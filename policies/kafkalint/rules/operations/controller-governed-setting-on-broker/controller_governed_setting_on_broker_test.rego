package kafkalint.rules.operations["controller-governed-setting-on-broker_test"]

import data.kafkalint.lib.testing as t
import data.kafkalint.rules.operations["controller-governed-setting-on-broker"] as rule

_defaults := [
	["unclean.leader.election.enable", false, 0],
	["auto.leader.rebalance.enable", true, 0],
	["leader.imbalance.check.interval.seconds", 300, 0],
	["min.insync.replicas", 1, 0],
	["default.replication.factor", 1, 0],
]

_node(file, roles, entries) := t.with_settings(t.node(file, roles, _defaults), entries)

_controllers := [_node("c1.properties", ["controller"], []), _node("c2.properties", ["controller"], []), _node("c3.properties", ["controller"], [])]

_controller_lines := [["c1.properties", 1], ["c2.properties", 1], ["c3.properties", 1]]

test_fail_unclean_election_only_on_brokers if {
	nodes := array.concat(_controllers, [_node("b1.properties", ["broker"], [["unclean.leader.election.enable", true, 7]])])
	message := "unclean.leader.election.enable=true on this broker, but the controllers use false (Kafka's default)"
	rule.report == {object.union(
		t.finding_related("b1.properties", 7, "unclean.leader.election.enable", message, _controller_lines),
		{
			"why": "The controllers (c1.properties, c2.properties, c3.properties) use false (Kafka's default, not set in their files). In KRaft mode the active controller decides leader elections and resolves this setting from the topic, the dynamic configs and then its own static config, so the broker's value has no effect.",
			"fix": "Set it on the controllers (or as a dynamic cluster-wide config with kafka-configs.sh) and remove it from the brokers.",
		},
	)} with input as t.cluster(nodes, [])
}

test_fail_min_insync_replicas_set_on_brokers_only if {
	nodes := array.concat(_controllers, [
		_node("b1.properties", ["broker"], [["min.insync.replicas", 2, 8]]),
		_node("b2.properties", ["broker"], [["min.insync.replicas", 2, 8]]),
	])
	reports := rule.report with input as t.cluster(nodes, [])
	{[f.location.file, f.location.line] | some f in reports} == {["b1.properties", 8], ["b2.properties", 8]}
	every f in reports {
		f.message == "min.insync.replicas=2 on this broker, but the controllers use 1 (Kafka's default)"
		f.fix == "Set the same value on controllers and brokers."
	}
}

test_fail_default_replication_factor if {
	controllers := [_node("c1.properties", ["controller"], [["default.replication.factor", 2, 5]])]
	nodes := array.concat(controllers, [_node("b1.properties", ["broker"], [["default.replication.factor", 3, 9]])])
	message := "default.replication.factor=3 on this broker, but the controllers use 2"
	rule.report == {object.union(
		t.finding_related("b1.properties", 9, "default.replication.factor", message, [["c1.properties", 5]]),
		{
			"why": "The controllers (c1.properties) use 2. Topics created through the Admin API or kafka-topics.sh without a replication factor get the active controller's value, so they get 2 replica(s), not 3 (only auto-created topics use the broker's value).",
			"fix": "Set the same value on the controllers.",
		},
	)} with input as t.cluster(nodes, [])
}

test_fail_leader_rebalance_settings if {
	nodes := array.concat(_controllers, [_node("b1.properties", ["broker"], [["auto.leader.rebalance.enable", false, 4], ["leader.imbalance.check.interval.seconds", 60, 5]])])
	{[f.key, f.message, f.fix] | some f in rule.report} == {
		["auto.leader.rebalance.enable", "auto.leader.rebalance.enable=false on this broker, but the controllers use true (Kafka's default)", "Set it on the controllers and remove it from the brokers."],
		["leader.imbalance.check.interval.seconds", "leader.imbalance.check.interval.seconds=60 on this broker, but the controllers use 300 (Kafka's default)", "Set it on the controllers and remove it from the brokers."],
	} with input as t.cluster(nodes, [])
}

test_success_same_value_on_controllers_and_brokers if {
	controllers := [_node("c1.properties", ["controller"], [["min.insync.replicas", 2, 5]]), _node("c2.properties", ["controller"], [["min.insync.replicas", 2, 5]])]
	brokers := [_node("b1.properties", ["broker"], [["min.insync.replicas", 2, 8], ["unclean.leader.election.enable", false, 9]])]
	count(rule.report) == 0 with input as t.cluster(array.concat(controllers, brokers), [])
}

test_success_no_dedicated_controllers if {
	nodes := [_node("x1.properties", ["broker", "controller"], []), _node("b1.properties", ["broker"], [["unclean.leader.election.enable", true, 7]])]
	count(rule.report) == 0 with input as t.cluster(nodes, [])
}

test_success_controllers_disagree_left_to_kfk6001 if {
	controllers := [_node("c1.properties", ["controller"], [["min.insync.replicas", 2, 5]]), _node("c2.properties", ["controller"], [])]
	nodes := array.concat(controllers, [_node("b1.properties", ["broker"], [["min.insync.replicas", 3, 8]])])
	count(rule.report) == 0 with input as t.cluster(nodes, [])
}

test_success_key_absent_on_broker if {
	controllers := [_node("c1.properties", ["controller"], [["min.insync.replicas", 2, 5]])]
	nodes := array.concat(controllers, [_node("b1.properties", ["broker"], [])])
	count(rule.report) == 0 with input as t.cluster(nodes, [])
}

test_success_unknown_placeholder if {
	unknown_broker := t.with_setting(_node("b1.properties", ["broker"], []), t.unknown_setting("b1.properties", "min.insync.replicas", "${env:MIN_ISR}", 8))
	unknown_controller := t.with_setting(_node("c9.properties", ["controller"], []), t.unknown_setting("c9.properties", "unclean.leader.election.enable", "${env:UNCLEAN}", 8))
	nodes := array.concat(_controllers, [unknown_broker, unknown_controller, _node("b2.properties", ["broker"], [["unclean.leader.election.enable", true, 7]])])
	count(rule.report) == 0 with input as t.cluster(nodes, [])
}

test_success_platform_managed_key if {
	broker := object.union(_node("b1.properties", ["broker"], [["min.insync.replicas", 2, 8]]), {"managed_keys": ["min.insync.replicas"]})
	count(rule.report) == 0 with input as t.cluster(array.concat(_controllers, [broker]), [])
}

# Built with the loader (kafkalint.parse), not fixtures: a broker enables unclean leader election that the controller leaves off.
test_loader_controller_governed_setting_on_broker if {
	clusters := kafkalint.parse_files({
		"prod/kafka/controller.properties": `process.roles=controller
node.id=1
controller.quorum.voters=1@c1:9093,2@c2:9093,3@c3:9093
controller.listener.names=CONTROLLER
listeners=CONTROLLER://c1:9093
`,
		"prod/kafka/broker.properties": `process.roles=broker
node.id=4
controller.quorum.voters=1@c1:9093,2@c2:9093,3@c3:9093
controller.listener.names=CONTROLLER
listeners=SSL://:9093
unclean.leader.election.enable=true
`,
	})
	count(clusters) == 1
	reports := rule.report with input as clusters[0]
	{[f.location.file, f.location.line, object.get(f, "key", "")] | some f in reports} == {["prod/kafka/broker.properties", 6, "unclean.leader.election.enable"]}
}
