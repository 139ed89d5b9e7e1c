package kafkalint.rules.hygiene["kafka-refuses-to-start_test"]

import data.kafkalint.lib.testing as t

# Tests of roles.rego.

_zookeeper_broker := t.node(_f, [], [["broker.id", 0, 1], ["zookeeper.connect", "zk-1:2181", 2]])

# --- process.roles --------------------------------------------------------------

test_fail_zookeeper_file_on_4_0 if {
	c := _at("4.0", [_zookeeper_broker])
	_refuses(c, 1, "process.roles", "process.roles is not set and zookeeper.connect is: ZooKeeper mode, which Kafka 4.0 removed", "This is a ZooKeeper-mode configuration (zookeeper.connect at line 2, no process.roles), and Kafka 4.0 removed ZooKeeper mode. Kafka 4.0 refuses to start (\"Missing required configuration \\\"process.roles\\\" which has no default value.\").")
	some f in _reports(c)
	contains(f.fix, "--kafka-version 3.x")
}

test_success_zookeeper_file_on_3_9 if {
	_silent(_at("3.9", [_zookeeper_broker]))
}

test_fail_process_roles_missing_on_4_1 if {
	node := t.node(_f, [], [["node.id", 1, 1], ["log.dirs", "/data", 2]])
	_refuses(_at("4.1", [node]), 1, "process.roles", "process.roles is not set", "Kafka 4.1 refuses to start (\"Missing required configuration \\\"process.roles\\\" which has no default value.\")")
}

test_success_process_roles_missing_from_a_template if {
	node := object.union(t.node(_f, [], [["node.id", 1, 1], ["log.dirs", "/data", 2]]), {"whole_configuration": false})
	_silent(_at("4.1", [node]))
}

test_success_process_roles_managed_by_platform if {
	node := object.union(t.node(_f, [], [["node.id", 1, 1]]), {"managed_keys": ["process.roles"]})
	_silent(_at("4.3", [node]))
}

test_fail_process_roles_empty_on_4_2 if {
	node := t.with_setting(t.node(_f, [], [["node.id", 1, 2]]), _list("process.roles", "", [], 1))
	_refuses(_at("4.2", [node]), 1, "process.roles", "process.roles= is empty", "Kafka 4.2 refuses to start (\"Configuration 'process.roles' must not be empty\")")
}

test_fail_process_roles_empty_on_4_0_cannot_be_formatted if {
	node := t.with_setting(t.node(_f, [], [["node.id", 1, 2]]), _list("process.roles", "", [], 1))
	_refuses(_at("4.0", [node]), 1, "process.roles", "process.roles= is empty", "kafka-storage format refuses the node")
}

test_fail_duplicate_roles_on_4_1 if {
	node := t.with_setting(_broker, _list("process.roles", "broker,broker", ["broker", "broker"], 1))
	_refuses(_at("4.1", [node]), 1, "process.roles", "process.roles=broker,broker names a role twice", "(\"Duplicate role names found in `process.roles`.\")")
}

test_success_duplicate_roles_deduplicated_on_4_2 if {
	node := t.with_setting(_broker, _list("process.roles", "broker,broker", ["broker", "broker"], 1))
	_silent(_at("4.2", [node]))
}

test_success_process_roles_placeholder if {
	node := object.union(t.with_setting(t.node(_f, [], [["node.id", 1, 2]]), t.unknown_setting(_f, "process.roles", "${env:ROLES}", 1)), {"mode": "unknown", "is_broker": false})
	_silent(_at("4.3", [node]))
}

# --- ZooKeeper mode before 4.0 --------------------------------------------------

test_fail_no_process_roles_nor_zookeeper_on_3_9 if {
	node := t.node(_f, [], [["broker.id", 0, 1], ["log.dirs", "/data", 2]])
	_refuses(_at("3.9", [node]), 1, "zookeeper.connect", "neither process.roles nor zookeeper.connect is set", "(\"Missing required configuration `zookeeper.connect` which has no default value.\")")
}

# --- node.id --------------------------------------------------------------------

test_fail_node_id_missing_on_4_3 if {
	node := _without(t.with_setting(_broker, t.default_setting(_f, "broker.id", -1)), "node.id")
	_refuses(_at("4.3", [node]), 1, "node.id", "neither node.id nor broker.id is set", "(\"Missing required configuration \\\"node.id\\\" which has no default value.\")")
}

test_fail_negative_broker_id_alone_on_4_0 if {
	node := t.with_setting(_without(_broker, "node.id"), t.setting(_f, "broker.id", -1, 2))
	_refuses(_at("4.0", [node]), 2, "broker.id", "broker.id=-1 without node.id", "(\"Invalid value -1 for configuration node.id: Value must be at least 0\")")
}

test_fail_node_id_missing_in_kraft_on_3_9 if {
	node := _without(_broker, "node.id")
	_refuses(_at("3.9", [node]), 1, "node.id", "process.roles is set but node.id is not", "(\"Missing configuration `node.id` which is required when `process.roles` is defined\")")
}

test_fail_negative_node_id_in_kraft_on_3_9 if {
	node := t.with_setting(_broker, t.setting(_f, "node.id", -1, 2))
	_refuses(_at("3.9", [node]), 2, "node.id", "node.id=-1 on a KRaft node", "Kafka 3.9 refuses to start (\"Missing configuration `node.id` which is required when `process.roles` is defined\")")
}

test_fail_node_id_differs_from_broker_id if {
	node := t.with_setting(_broker, t.setting(_f, "broker.id", 5, 7))
	reports := _reports(_at("4.3", [node]))
	reports == {object.union(t.finding_related(_f, 2, "node.id", "node.id=4 differs from broker.id=5 (line 7)", [[_f, 7]]), {
		"why": "broker.id is a synonym of node.id, so when both are set they must agree. Kafka 4.3 refuses to start (\"You must set `node.id` to the same value as `broker.id`.\").",
		"fix": "Remove broker.id and keep node.id.",
	})}
}

test_success_node_id_placeholder if {
	node := t.with_setting(_broker, t.unknown_setting(_f, "node.id", "${env:NODE_ID}", 2))
	_silent(_at("4.3", [t.with_setting(node, t.setting(_f, "broker.id", 5, 7))]))
}
