package kafkalint.rules.hygiene["kafka-refuses-to-start"]

import data.kafkalint.lib.result
import data.kafkalint.lib.settings
import data.kafkalint.lib.version

# Roles and identity (KafkaConfig.validateValues, KRaftConfigs): process.roles, the
# ZooKeeper mode a missing process.roles means before 4.0, and node.id
# against broker.id.

# --- process.roles -------------------------------------------------------

report contains result.missing(node, "process.roles", _roles_missing(node)) if {
	version.at_least(4, 0)
	some node in input.nodes
	_full_file(node, "process.roles")
	not node.settings["process.roles"]
}

report contains result.fail(roles, message) if {
	version.at_least(4, 0)
	some node in input.nodes
	roles := node.settings["process.roles"]
	settings.explicit_value(roles)
	is_array(roles.value)
	count(roles.value) == 0
	message := _roles_empty(roles)
}

report contains result.fail(roles, message) if {
	not version.at_least(4, 2)
	some node in input.nodes
	node.mode == "kraft"
	roles := node.settings["process.roles"]
	settings.explicit_value(roles)
	is_array(roles.value)
	count(roles.value) != count({r | some r in roles.value})
	message := sprintf(
		"process.roles=%s names a role twice: Kafka %s refuses to start (\"Duplicate role names found in `process.roles`.\"); list each role once",
		[trim_space(roles.raw), input.kafka_version],
	)
}

# --- ZooKeeper mode before 4.0 -------------------------------------------

report contains result.missing(node, "zookeeper.connect", message) if {
	not version.at_least(4, 0)
	some node in input.nodes
	node.mode == "zookeeper"
	_full_file(node, "zookeeper.connect")
	_full_file(node, "process.roles")
	not settings.explicit(node, "zookeeper.connect")
	message := sprintf(
		"neither process.roles nor zookeeper.connect is set: without process.roles Kafka %s runs the node in ZooKeeper mode and refuses to start (\"Missing required configuration `zookeeper.connect` which has no default value.\"); set process.roles (KRaft) or zookeeper.connect",
		[input.kafka_version],
	)
}

# --- node.id and broker.id -----------------------------------------------

report contains result.missing(node, "node.id", message) if {
	version.at_least(4, 0)
	some node in input.nodes
	_full_file(node, "node.id")
	_full_file(node, "broker.id")
	not settings.explicit(node, "node.id")
	not settings.explicit(node, "broker.id")
	message := sprintf(
		"neither node.id nor broker.id is set: Kafka %s refuses to start (\"Missing required configuration \\\"node.id\\\" which has no default value.\"); set node.id to this node's unique id",
		[input.kafka_version],
	)
}

# On 4.x broker.id alone is copied into node.id, whose validator then
# rejects a negative value (an explicit negative node.id is KFK9005's).
report contains result.fail(broker_id, message) if {
	version.at_least(4, 0)
	some node in input.nodes
	not settings.explicit(node, "node.id")
	broker_id := node.settings["broker.id"]
	settings.explicit_value(broker_id)
	broker_id.value < 0
	message := sprintf(
		"broker.id=%d without node.id: Kafka %s copies it into node.id and refuses to start (\"Invalid value %d for configuration node.id: Value must be at least 0\"); set node.id to this node's unique id, 0 or more (4.x has no generated broker ids)",
		[broker_id.value, input.kafka_version, broker_id.value],
	)
}

report contains result.missing(node, "node.id", message) if {
	not version.at_least(4, 0)
	some node in input.nodes
	node.mode == "kraft"
	_full_file(node, "node.id")
	_full_file(node, "broker.id")
	not settings.explicit(node, "node.id")
	not settings.explicit(node, "broker.id")
	message := sprintf(
		"process.roles is set but node.id is not: Kafka %s refuses to start (\"Missing configuration `node.id` which is required when `process.roles` is defined\"); set node.id to this node's unique id",
		[input.kafka_version],
	)
}

report contains result.fail(id, message) if {
	not version.at_least(4, 0)
	some node in input.nodes
	node.mode == "kraft"
	id := _id_setting(node)
	settings.explicit_value(id)
	id.value < 0
	message := sprintf(
		"%s=%d on a KRaft node: Kafka %s refuses to start (\"Missing configuration `node.id` which is required when `process.roles` is defined\"); set node.id to this node's unique id, 0 or more",
		[id.key, id.value, input.kafka_version],
	)
}

report contains result.fail_related(node_id, message, [broker_id.location]) if {
	some node in input.nodes
	node_id := node.settings["node.id"]
	broker_id := node.settings["broker.id"]
	settings.explicit_value(node_id)
	settings.explicit_value(broker_id)
	node_id.value != broker_id.value
	message := sprintf(
		"node.id=%d and broker.id=%d (line %d) differ: Kafka %s refuses to start (\"You must set `node.id` to the same value as `broker.id`.\"); remove broker.id and keep node.id",
		[node_id.value, broker_id.value, broker_id.location.line, input.kafka_version],
	)
}

# --- helpers ------------------------------------------------------------------

_roles_missing(node) := sprintf(
	"this is a ZooKeeper-mode configuration (zookeeper.connect at line %d, no process.roles) and Kafka 4.0 removed ZooKeeper mode, so Kafka %s refuses to start (\"Missing required configuration \\\"process.roles\\\" which has no default value.\"); migrate the cluster to KRaft with the 3.9 bridge release first, or pass --kafka-version 3.x if this node runs Kafka 3",
	[node.settings["zookeeper.connect"].location.line, input.kafka_version],
) if {
	settings.explicit(node, "zookeeper.connect")
} else := sprintf(
	"process.roles is not set: Kafka %s refuses to start (\"Missing required configuration \\\"process.roles\\\" which has no default value.\"); set process.roles=broker or process.roles=controller (broker,controller only for development)",
	[input.kafka_version],
)

_roles_empty(roles) := sprintf(
	"process.roles=%s is empty: Kafka %s refuses to start (\"Configuration 'process.roles' must not be empty\"); set process.roles=broker or process.roles=controller",
	[trim_space(roles.raw), input.kafka_version],
) if {
	version.at_least(4, 2)
} else := sprintf(
	"process.roles=%s is empty: Kafka %s parses it, but kafka-storage format refuses the node (\"... appears to be for a legacy cluster. Formatting is only supported for clusters in KRaft mode.\"), so it can never start; set process.roles=broker or process.roles=controller",
	[trim_space(roles.raw), input.kafka_version],
)

_id_setting(node) := node.settings["node.id"] if settings.explicit(node, "node.id")

_id_setting(node) := node.settings["broker.id"] if {
	not settings.explicit(node, "node.id")
	settings.explicit(node, "broker.id")
}
