package kafkalint.rules.hygiene["kafka-refuses-to-start"]

import data.kafkalint.lib.result
import data.kafkalint.lib.settings
import data.kafkalint.lib.version

# Roles and identity (KafkaConfig.validateValues, KRaftConfigs): process.roles, the
# ZooKeeper mode a missing process.roles means before 4.0, and node.id
# against broker.id.

# --- process.roles -------------------------------------------------------

report contains _refused(result.missing(node, "process.roles", m.message), m.context, _roles_required, m.fix) if {
	version.at_least(4, 0)
	some node in input.nodes
	_full_file(node, "process.roles")
	not node.settings["process.roles"]
	m := _roles_missing(node)
}

report contains result.explain(result.fail(roles, sprintf("process.roles=%s is empty", [trim_space(roles.raw)])), _roles_empty_why, _roles_fix) if {
	version.at_least(4, 0)
	some node in input.nodes
	roles := node.settings["process.roles"]
	settings.explicit_value(roles)
	is_array(roles.value)
	count(roles.value) == 0
}

report contains _refused(result.fail(roles, message), context, "Duplicate role names found in `process.roles`.", "List each role once.") if {
	not version.at_least(4, 2)
	some node in input.nodes
	node.mode == "kraft"
	roles := node.settings["process.roles"]
	settings.explicit_value(roles)
	is_array(roles.value)
	count(roles.value) != count({r | some r in roles.value})
	message := sprintf("process.roles=%s names a role twice", [trim_space(roles.raw)])
	context := "Up to Kafka 4.1 each role may appear in process.roles only once."
}

# --- ZooKeeper mode before 4.0 -------------------------------------------

report contains _refused(result.missing(node, "zookeeper.connect", message), context, words, fix) if {
	not version.at_least(4, 0)
	some node in input.nodes
	node.mode == "zookeeper"
	_full_file(node, "zookeeper.connect")
	_full_file(node, "process.roles")
	not settings.explicit(node, "zookeeper.connect")
	message := "neither process.roles nor zookeeper.connect is set"
	context := sprintf("Without process.roles Kafka %s runs the node in ZooKeeper mode, which needs zookeeper.connect.", [input.kafka_version])
	words := "Missing required configuration `zookeeper.connect` which has no default value."
	fix := "Set process.roles for KRaft (broker or controller), or zookeeper.connect for ZooKeeper mode."
}

# --- node.id and broker.id -----------------------------------------------

report contains _refused(result.missing(node, "node.id", message), context, words, _node_id_fix) if {
	version.at_least(4, 0)
	some node in input.nodes
	_full_file(node, "node.id")
	_full_file(node, "broker.id")
	not settings.explicit(node, "node.id")
	not settings.explicit(node, "broker.id")
	message := "neither node.id nor broker.id is set"
	context := "Every KRaft node needs its own id in node.id (broker.id, when node.id is absent, is copied into it)."
	words := "Missing required configuration \\\"node.id\\\" which has no default value."
}

# On 4.x broker.id alone is copied into node.id, whose validator then
# rejects a negative value (an explicit negative node.id is KFK9005's).
report contains _refused(result.fail(broker_id, message), context, words, fix) if {
	version.at_least(4, 0)
	some node in input.nodes
	not settings.explicit(node, "node.id")
	broker_id := node.settings["broker.id"]
	settings.explicit_value(broker_id)
	broker_id.value < 0
	message := sprintf("broker.id=%d without node.id: copied into node.id, which must be 0 or more", [broker_id.value])
	context := sprintf("Kafka %s copies broker.id into node.id when node.id is not set, and 4.x has no generated broker ids.", [input.kafka_version])
	words := sprintf("Invalid value %d for configuration node.id: Value must be at least 0", [broker_id.value])
	fix := "Set node.id to this node's unique id, 0 or more."
}

report contains _refused(result.missing(node, "node.id", message), context, _node_id_kraft_words, _node_id_fix) if {
	not version.at_least(4, 0)
	some node in input.nodes
	node.mode == "kraft"
	_full_file(node, "node.id")
	_full_file(node, "broker.id")
	not settings.explicit(node, "node.id")
	not settings.explicit(node, "broker.id")
	message := "process.roles is set but node.id is not"
	context := "A KRaft node needs its own id in node.id."
}

report contains _refused(result.fail(id, message), context, _node_id_kraft_words, fix) if {
	not version.at_least(4, 0)
	some node in input.nodes
	node.mode == "kraft"
	id := _id_setting(node)
	settings.explicit_value(id)
	id.value < 0
	message := sprintf("%s=%d on a KRaft node, which needs a node.id of 0 or more", [id.key, id.value])
	context := "A negative id means no id (-1 is the default), and a KRaft node needs a node.id of 0 or more."
	fix := "Set node.id to this node's unique id, 0 or more."
}

report contains _refused(result.fail_related(node_id, message, [broker_id.location]), context, words, fix) if {
	some node in input.nodes
	node_id := node.settings["node.id"]
	broker_id := node.settings["broker.id"]
	settings.explicit_value(node_id)
	settings.explicit_value(broker_id)
	node_id.value != broker_id.value
	message := sprintf("node.id=%d differs from broker.id=%d (line %d)", [node_id.value, broker_id.value, broker_id.location.line])
	context := "broker.id is a synonym of node.id, so when both are set they must agree."
	words := "You must set `node.id` to the same value as `broker.id`."
	fix := "Remove broker.id and keep node.id."
}

# --- helpers ------------------------------------------------------------------

_roles_required := "Missing required configuration \\\"process.roles\\\" which has no default value."

# _roles_missing is {message, context, fix} of a node without process.roles.
_roles_missing(node) := {
	"message": "process.roles is not set and zookeeper.connect is: ZooKeeper mode, which Kafka 4.0 removed",
	"context": sprintf("This is a ZooKeeper-mode configuration (zookeeper.connect at line %d, no process.roles), and Kafka 4.0 removed ZooKeeper mode.", [zk.location.line]),
	"fix": "Migrate the cluster to KRaft with the 3.9 bridge release first, or pass --kafka-version 3.x if this node runs Kafka 3.",
} if {
	settings.explicit(node, "zookeeper.connect")
	zk := node.settings["zookeeper.connect"]
} else := {
	"message": "process.roles is not set",
	"context": "From 4.0 Kafka runs only in KRaft mode, where every node states its roles.",
	"fix": "Set process.roles=broker or process.roles=controller (broker,controller only for development).",
}

_roles_empty_why := sprintf("A node needs at least one role. Kafka %s refuses to start (\"Configuration 'process.roles' must not be empty\").", [input.kafka_version]) if {
	version.at_least(4, 2)
} else := sprintf(
	"Kafka %s parses an empty process.roles, but kafka-storage format refuses the node (\"... appears to be for a legacy cluster. Formatting is only supported for clusters in KRaft mode.\"), so it can never start.",
	[input.kafka_version],
)

_roles_fix := "Set process.roles=broker or process.roles=controller."

_node_id_fix := "Set node.id to this node's unique id."

_node_id_kraft_words := "Missing configuration `node.id` which is required when `process.roles` is defined"

_id_setting(node) := node.settings["node.id"] if settings.explicit(node, "node.id")

_id_setting(node) := node.settings["broker.id"] if {
	not settings.explicit(node, "node.id")
	settings.explicit(node, "broker.id")
}
