# METADATA
# title: Configuration Kafka refuses at startup
# description: |
#   Kafka validates a node's configuration before it starts and stops with a
#   ConfigException on the first problem: a missing or empty process.roles,
#   a missing or mismatched node.id, listeners it cannot parse or map to a
#   security protocol, an inter-broker listener that is not advertised,
#   advertised.listeners on 0.0.0.0, a controller-only node with broker
#   listeners, replica.fetch.wait.max.ms above replica.lag.time.max.ms, no
#   log directory, the ZooKeeper AclAuthorizer on 4.x, and a producer whose
#   delivery.timeout.ms is below linger.ms + request.timeout.ms. Each
#   finding quotes what Kafka says, so the rollout never meets it.
# related_resources:
#   - description: Kafka docs, broker configuration
#     ref: https://kafka.apache.org/documentation/#brokerconfigs
#   - description: Kafka docs, KRaft operations
#     ref: https://kafka.apache.org/documentation/#kraft
#   - description: Kafka docs, producer configuration
#     ref: https://kafka.apache.org/documentation/#producerconfigs
# schemas:
#   - input: schema.cluster
# custom:
#   id: KFK9007
#   severity: error
#   scope: all
#   applies_to: [broker, controller, producer]
#   keys:
#     - process.roles
#     - node.id
#     - broker.id
#     - zookeeper.connect
#     - authorizer.class.name
#     - listeners
#     - advertised.listeners
#     - listener.security.protocol.map
#     - controller.listener.names
#     - inter.broker.listener.name
#     - security.inter.broker.protocol
#     - replica.fetch.wait.max.ms
#     - replica.lag.time.max.ms
#     - replica.socket.timeout.ms
#     - log.dirs
#     - log.dir
#     - delivery.timeout.ms
#     - linger.ms
#     - request.timeout.ms
#   since: unreleased
package kafkalint.rules.hygiene["kafka-refuses-to-start"]

import data.kafkalint.lib.cluster
import data.kafkalint.lib.result
import data.kafkalint.lib.version

# Scope (kafka-config-facts §6 items 1-11 and 16-18, one finding per
# distinct cause). Covered by other rules and never reported here: a
# missing or malformed quorum (KFK3006, KFK3007), the voter set against
# node ids (KFK3012, KFK3013), controller.listener.names against listeners
# (KFK3015, KFK3016), invalid values of a single key such as an unknown
# role, a negative node.id on 4.x or acks=ALL (KFK9005), and the producer's
# idempotence conflicts (KFK1006). Placeholders (${provider:...}) are
# unknown values: every branch needs the values it compares to be known.
# Checks for a key that is missing altogether only run on .properties
# files, and never for keys the platform manages (managed_keys): Strimzi,
# MSK and Helm write those keys themselves.

# --- process.roles (§1.1) -------------------------------------------------------

report contains result.missing(node, "process.roles", _roles_missing(node)) if {
	version.at_least(4, 0)
	some node in input.nodes
	_full_file(node, "process.roles")
	not node.settings["process.roles"]
}

_roles_missing(node) := sprintf(
	"this is a ZooKeeper-mode configuration (zookeeper.connect at line %d, no process.roles) and Kafka 4.0 removed ZooKeeper mode, so Kafka %s refuses to start (\"Missing required configuration \\\"process.roles\\\" which has no default value.\"); migrate the cluster to KRaft with the 3.9 bridge release first, or pass --kafka-version 3.x if this node runs Kafka 3",
	[node.settings["zookeeper.connect"].location.line, input.kafka_version],
) if {
	node.settings["zookeeper.connect"].source == "explicit"
} else := sprintf(
	"process.roles is not set: Kafka %s refuses to start (\"Missing required configuration \\\"process.roles\\\" which has no default value.\"); set process.roles=broker or process.roles=controller (broker,controller only for development)",
	[input.kafka_version],
)

report contains result.fail(roles, message) if {
	version.at_least(4, 0)
	some node in input.nodes
	roles := node.settings["process.roles"]
	_explicit_value(roles)
	is_array(roles.value)
	count(roles.value) == 0
	message := _roles_empty(roles)
}

_roles_empty(roles) := sprintf(
	"process.roles=%s is empty: Kafka %s refuses to start (\"Configuration 'process.roles' must not be empty\"); set process.roles=broker or process.roles=controller",
	[trim_space(roles.raw), input.kafka_version],
) if {
	version.at_least(4, 2)
} else := sprintf(
	"process.roles=%s is empty: Kafka %s parses it, but kafka-storage format refuses the node (\"... appears to be for a legacy cluster. Formatting is only supported for clusters in KRaft mode.\"), so it can never start; set process.roles=broker or process.roles=controller",
	[trim_space(roles.raw), input.kafka_version],
)

report contains result.fail(roles, message) if {
	not version.at_least(4, 2)
	some node in input.nodes
	node.mode == "kraft"
	roles := node.settings["process.roles"]
	_explicit_value(roles)
	is_array(roles.value)
	count(roles.value) != count({r | some r in roles.value})
	message := sprintf(
		"process.roles=%s names a role twice: Kafka %s refuses to start (\"Duplicate role names found in `process.roles`.\"); list each role once",
		[trim_space(roles.raw), input.kafka_version],
	)
}

# --- ZooKeeper mode before 4.0 (§1.8) -------------------------------------------

report contains result.missing(node, "zookeeper.connect", message) if {
	not version.at_least(4, 0)
	some node in input.nodes
	node.mode == "zookeeper"
	_full_file(node, "zookeeper.connect")
	_full_file(node, "process.roles")
	not _explicit(node, "zookeeper.connect")
	message := sprintf(
		"neither process.roles nor zookeeper.connect is set: without process.roles Kafka %s runs the node in ZooKeeper mode and refuses to start (\"Missing required configuration `zookeeper.connect` which has no default value.\"); set process.roles (KRaft) or zookeeper.connect",
		[input.kafka_version],
	)
}

# --- node.id and broker.id (§1.1) -----------------------------------------------

report contains result.missing(node, "node.id", message) if {
	version.at_least(4, 0)
	some node in input.nodes
	_full_file(node, "node.id")
	_full_file(node, "broker.id")
	not _explicit(node, "node.id")
	not _explicit(node, "broker.id")
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
	not _explicit(node, "node.id")
	broker_id := node.settings["broker.id"]
	_explicit_value(broker_id)
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
	not _explicit(node, "node.id")
	not _explicit(node, "broker.id")
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
	_explicit_value(id)
	id.value < 0
	message := sprintf(
		"%s=%d on a KRaft node: Kafka %s refuses to start (\"Missing configuration `node.id` which is required when `process.roles` is defined\"); set node.id to this node's unique id, 0 or more",
		[id.key, id.value, input.kafka_version],
	)
}

_id_setting(node) := node.settings["node.id"] if _explicit(node, "node.id")

_id_setting(node) := node.settings["broker.id"] if {
	not _explicit(node, "node.id")
	_explicit(node, "broker.id")
}

report contains result.fail_related(node_id, message, [broker_id.location]) if {
	some node in input.nodes
	node_id := node.settings["node.id"]
	broker_id := node.settings["broker.id"]
	_explicit_value(node_id)
	_explicit_value(broker_id)
	node_id.value != broker_id.value
	message := sprintf(
		"node.id=%d and broker.id=%d (line %d) differ: Kafka %s refuses to start (\"You must set `node.id` to the same value as `broker.id`.\"); remove broker.id and keep node.id",
		[node_id.value, broker_id.value, broker_id.location.line, input.kafka_version],
	)
}

# --- authorizer (§1.9, §6 item 12) ----------------------------------------------

report contains result.fail(authorizer, message) if {
	version.at_least(4, 0)
	some node in input.nodes
	authorizer := node.settings["authorizer.class.name"]
	_explicit_value(authorizer)
	authorizer.value == "kafka.security.authorizer.AclAuthorizer"
	message := sprintf(
		"authorizer.class.name=kafka.security.authorizer.AclAuthorizer is the ZooKeeper-based authorizer, which Kafka 4.0 removed: Kafka %s cannot load the class and refuses to start; use org.apache.kafka.metadata.authorizer.StandardAuthorizer on every broker and controller (ACLs then live in the KRaft metadata log)",
		[input.kafka_version],
	)
}

# --- listeners and the protocol map (§1.3) --------------------------------------

report contains result.fail({"key": key, "location": l.location}, message) if {
	some node in input.nodes
	some key, ls in {"listeners": node.listeners, "advertised.listeners": node.advertised_listeners}
	_settled(node, key)
	some l in ls
	l.error
	message := sprintf(
		"%s entry %s is not NAME://host:port: Kafka %s refuses to start (\"Unable to parse %s to a broker endpoint\"); write it as NAME://host:port, for example PLAINTEXT://broker-1:9092",
		[key, l.raw, input.kafka_version, l.raw],
	)
}

report contains result.fail({"key": "listeners", "location": l.location}, message) if {
	some node in input.nodes
	_all_settled(node, ["listeners", "listener.security.protocol.map", "controller.listener.names"])
	not _protocol_map_unknown(node)
	not _protocol_map_malformed(node)
	some l in node.listeners
	not l.error
	l.protocol == ""
	not _broker_only_controller_listener(node, l.name)
	message := sprintf(
		"listener %s has no security protocol: %s, so Kafka %s refuses to start (\"No security protocol defined for listener %s\"); add %s:<PLAINTEXT|SSL|SASL_PLAINTEXT|SASL_SSL> to listener.security.protocol.map",
		[l.name, _unmapped_reason(node, l.name), input.kafka_version, l.name, l.name],
	)
}

_unmapped_reason(node, name) := sprintf("listener.security.protocol.map (line %d) does not map %s", [node.settings["listener.security.protocol.map"].location.line, name]) if {
	_explicit(node, "listener.security.protocol.map")
} else := sprintf("the name %s is not a security protocol and listener.security.protocol.map is not set", [name])

# A broker-only node listing a controller listener is KFK3016's finding.
_broker_only_controller_listener(node, name) if {
	node.mode == "kraft"
	not node.is_controller
	name in _controller_names(node)
}

report contains result.fail(protocol_map, message) if {
	some node in input.nodes
	_settled(node, "listener.security.protocol.map")
	protocol_map := node.settings["listener.security.protocol.map"]
	_explicit_value(protocol_map)
	some entry in _map_entries(protocol_map)
	count(split(entry, ":")) != 2
	message := sprintf(
		"listener.security.protocol.map entry %s is not NAME:PROTOCOL: Kafka %s refuses to start (\"Error parsing configuration property 'listener.security.protocol.map'\"); write every entry as NAME:PROTOCOL",
		[entry, input.kafka_version],
	)
}

report contains result.fail(protocol_map, message) if {
	some node in input.nodes
	_settled(node, "listener.security.protocol.map")
	protocol_map := node.settings["listener.security.protocol.map"]
	_explicit_value(protocol_map)
	some entry in _map_entries(protocol_map)
	parts := split(entry, ":")
	count(parts) == 2
	protocol := trim_space(parts[1])
	not upper(protocol) in _protocols
	message := sprintf(
		"listener.security.protocol.map maps %s to %s: Kafka %s refuses to start (\"Invalid security protocol `%s` defined in listener.security.protocol.map\"); use PLAINTEXT, SSL, SASL_PLAINTEXT or SASL_SSL",
		[trim_space(parts[0]), protocol, input.kafka_version, protocol],
	)
}

_map_entries(protocol_map) := [trim_space(e) | some e in split(protocol_map.raw, ","); trim_space(e) != ""]

_protocol_map_malformed(node) if {
	protocol_map := node.settings["listener.security.protocol.map"]
	_explicit_value(protocol_map)
	some entry in _map_entries(protocol_map)
	count(split(entry, ":")) != 2
}

report contains result.fail(node.settings.listeners, message) if {
	some node in input.nodes
	_settled(node, "listeners")
	_listeners_known(node)
	some name in {l.name | some l in node.listeners}
	count([l | some l in node.listeners; l.name == name]) > 1
	message := sprintf(
		"listeners names %s more than once: Kafka %s refuses to start (\"Each listener must have a different name\"); give every listener its own name",
		[name, input.kafka_version],
	)
}

report contains result.fail(node.settings.listeners, message) if {
	some node in input.nodes
	_settled(node, "listeners")
	_listeners_known(node)
	some port in {l.port | some l in node.listeners; l.port != 0}
	same := [l | some l in node.listeners; l.port == port]
	count(same) > 1
	not _ipv4_and_ipv6_pair(same)
	message := sprintf(
		"listeners use port %d more than once (%s): Kafka %s refuses to start (\"Each listener must have a different port\"); give every listener its own port (only one IPv4 and one IPv6 address may share a port)",
		[port, concat(", ", [l.raw | some l in same]), input.kafka_version],
	)
}

_ipv4_and_ipv6_pair(listeners) if {
	count(listeners) == 2
	count([l | some l in listeners; regex.match(`^[0-9]+(\.[0-9]+){3}$`, l.host)]) == 1
	count([l | some l in listeners; contains(l.host, ":")]) == 1
}

# --- controller-only nodes (§4.3, §6 item 7) ------------------------------------

report contains result.fail(node.settings.listeners, message) if {
	some node in input.nodes
	_controller_only(node)
	_all_settled(node, ["listeners", "controller.listener.names"])
	_listeners_known(node)
	_explicit(node, "listeners")
	count(_controller_names(node)) > 0
	others := [l.name | some l in node.listeners; not l.name in _controller_names(node)]
	count(others) > 0
	message := sprintf(
		"process.roles=controller but listeners also has %s, which is not in controller.listener.names: Kafka %s refuses to start (\"The listeners config must only contain KRaft controller listeners from controller.listener.names when process.roles=controller\"); remove the broker listeners from this controller",
		[concat(", ", others), input.kafka_version],
	)
}

report contains result.fail(ibl, message) if {
	version.at_least(4, 0)
	some node in input.nodes
	_controller_only(node)
	_all_settled(node, ["inter.broker.listener.name", "controller.listener.names"])
	ibl := node.settings["inter.broker.listener.name"]
	_explicit_value(ibl)
	upper(ibl.value) in _controller_names(node)
	message := sprintf(
		"inter.broker.listener.name=%s names this controller's own listener: Kafka %s refuses to start (\"controller.listener.names must not contain an explicitly set inter.broker.listener.name configuration value when process.roles=controller\"); remove inter.broker.listener.name from the controller",
		[ibl.value, input.kafka_version],
	)
}

# --- inter-broker listener (§1.3) -----------------------------------------------

report contains result.fail_related(ibl, message, [sibp.location]) if {
	some node in input.nodes
	_all_settled(node, ["inter.broker.listener.name", "security.inter.broker.protocol"])
	ibl := node.settings["inter.broker.listener.name"]
	sibp := node.settings["security.inter.broker.protocol"]
	_explicit_value(ibl)
	_explicit_value(sibp)
	message := sprintf(
		"inter.broker.listener.name and security.inter.broker.protocol (line %d) are both set: Kafka %s refuses to start (\"Only one of inter.broker.listener.name and security.inter.broker.protocol should be set.\"); keep inter.broker.listener.name and remove security.inter.broker.protocol",
		[sibp.location.line, input.kafka_version],
	)
}

report contains result.fail(ibl, message) if {
	some node in input.nodes
	_inter_broker_listener_unmapped(node)
	ibl := node.settings["inter.broker.listener.name"]
	message := sprintf(
		"inter.broker.listener.name=%s has no security protocol mapping: Kafka %s refuses to start (\"Listener with name %s defined in inter.broker.listener.name not found in listener.security.protocol.map.\"); add %s:<protocol> to listener.security.protocol.map or name an existing listener",
		[ibl.value, input.kafka_version, upper(ibl.value), upper(ibl.value)],
	)
}

report contains result.fail(anchor, message) if {
	some node in input.nodes
	node.is_broker
	_all_settled(node, _listener_keys)
	_listeners_known(node)
	not _both_inter_broker_keys(node)
	not _inter_broker_listener_unmapped(node)
	ibl := _inter_broker_listener(node)
	names := {l.name | some l in _broker_advertised(node)}
	count(names) > 0
	not ibl.name in names
	anchor := _inter_broker_anchor(node)
	message := sprintf(
		"%s, which this broker does not advertise (%s): Kafka %s refuses to start (\"inter.broker.listener.name must be a listener name defined in advertised.listeners. The valid options based on currently configured listeners are %s\"); set inter.broker.listener.name to one of them",
		[ibl.why, concat(", ", sort(names)), input.kafka_version, concat(",", sort(names))],
	)
}

# _inter_broker_listener_unmapped: an explicit inter.broker.listener.name
# that the protocol map does not map (a name derived from
# security.inter.broker.protocol is not checked against the map).
_inter_broker_listener_unmapped(node) if {
	not _controller_only(node)
	_all_settled(node, ["inter.broker.listener.name", "listener.security.protocol.map", "controller.listener.names"])
	not _protocol_map_unknown(node)
	ibl := node.settings["inter.broker.listener.name"]
	_explicit_value(ibl)
	not _mapped(node, upper(ibl.value))
}

_both_inter_broker_keys(node) if {
	_explicit(node, "inter.broker.listener.name")
	_explicit(node, "security.inter.broker.protocol")
}

# _inter_broker_listener is {name, why}: inter.broker.listener.name, else the
# listener named after security.inter.broker.protocol (default PLAINTEXT).
_inter_broker_listener(node) := {"name": upper(s.value), "why": sprintf("inter.broker.listener.name=%s names the inter-broker listener", [s.value])} if {
	s := node.settings["inter.broker.listener.name"]
	_explicit_value(s)
} else := {"name": upper(s.value), "why": sprintf("inter.broker.listener.name is not set, so the inter-broker listener is the one named after security.inter.broker.protocol=%s", [s.value])} if {
	not _explicit(node, "inter.broker.listener.name")
	s := node.settings["security.inter.broker.protocol"]
	is_string(s.value)
}

_inter_broker_anchor(node) := node.settings["inter.broker.listener.name"] if {
	_explicit(node, "inter.broker.listener.name")
} else := node.settings["security.inter.broker.protocol"] if {
	_explicit(node, "security.inter.broker.protocol")
} else := node.settings["advertised.listeners"] if {
	_explicit(node, "advertised.listeners")
} else := node.settings.listeners if {
	_explicit(node, "listeners")
} else := {"key": "inter.broker.listener.name", "location": node.location}

# --- advertised listeners of the broker role (§1.3) -----------------------------

report contains result.fail(anchor, message) if {
	some node in input.nodes
	node.is_broker
	node.mode == "kraft"
	_all_settled(node, _listener_keys)
	_advertised_known(node)
	count(_broker_advertised(node)) == 0
	not _broker_only_lists_controller_listener(node)
	anchor := _advertised_anchor(node)
	message := sprintf(
		"every listener this broker advertises is a controller listener (%s): Kafka %s refuses to start (\"There must be at least one broker advertised listener. Perhaps all listeners appear in controller.listener.names?\"); add a broker listener",
		[concat(", ", [l.name | some l in _advertised(node)]), input.kafka_version],
	)
}

# A broker-only node listing a controller listener is KFK3016's finding.
_broker_only_lists_controller_listener(node) if {
	some l in node.listeners
	_broker_only_controller_listener(node, l.name)
}

report contains result.fail(node.settings["advertised.listeners"], message) if {
	some node in input.nodes
	node.is_broker
	_all_settled(node, ["listeners", "advertised.listeners"])
	_explicit(node, "advertised.listeners")
	_listeners_known(node)
	listener_names := {l.name | some l in _effective_listeners(node)}
	extra := {l.name | some l in node.advertised_listeners} - listener_names
	count(extra) > 0
	message := sprintf(
		"advertised.listeners names %s, which listeners does not define (%s): Kafka %s refuses to start (\"advertised.listeners listener names must be equal to or a subset of the ones defined in listeners\"); advertise only listeners this node binds",
		[concat(", ", sort(extra)), concat(", ", sort(listener_names)), input.kafka_version],
	)
}

report contains result.fail(anchor, message) if {
	some node in input.nodes
	node.is_broker
	_all_settled(node, ["listeners", "advertised.listeners", "controller.listener.names"])
	_advertised_known(node)
	some l in _broker_advertised(node)
	l.host == "0.0.0.0"
	anchor := _advertised_anchor(node)
	message := sprintf(
		"the broker advertises %s to clients%s: Kafka %s refuses to start (\"advertised.listeners cannot use the nonroutable meta-address 0.0.0.0\"); advertise this node's host name, e.g. advertised.listeners=%s://broker-1.example.com:%d",
		[l.raw, _fallback(node), input.kafka_version, l.name, l.port],
	)
}

_fallback(node) := "" if _explicit(node, "advertised.listeners")

_fallback(node) := " (advertised.listeners is not set, so Kafka advertises listeners, which binds 0.0.0.0)" if not _explicit(node, "advertised.listeners")

_advertised_anchor(node) := node.settings["advertised.listeners"] if {
	_explicit(node, "advertised.listeners")
} else := node.settings.listeners if {
	_explicit(node, "listeners")
} else := {"key": "listeners", "location": node.location}

# _advertised are the listeners a node advertises: advertised.listeners,
# else listeners, else Kafka's default PLAINTEXT://:9092.
_advertised(node) := node.advertised_listeners if _explicit(node, "advertised.listeners")

_advertised(node) := _effective_listeners(node) if not _explicit(node, "advertised.listeners")

_effective_listeners(node) := node.listeners if _explicit(node, "listeners")

_effective_listeners(node) := [{"name": "PLAINTEXT", "host": "", "port": 9092, "raw": "PLAINTEXT://:9092"}] if {
	not _explicit(node, "listeners")
	not "listeners" in node.managed_keys
}

# _broker_advertised are the advertised listeners that are not controller
# listeners.
_broker_advertised(node) := [l | some l in _advertised(node); not l.name in _controller_names(node)]

_advertised_known(node) if {
	_listeners_known(node)
	count(_advertised(node)) >= 0
}

# --- replica fetch timing (§1.6) ------------------------------------------------

report contains result.fail(anchor, message) if {
	some node in input.nodes
	_all_settled(node, ["replica.fetch.wait.max.ms", "replica.lag.time.max.ms", "replica.socket.timeout.ms"])
	wait := node.settings["replica.fetch.wait.max.ms"]
	limits := [limit |
		some key in ["replica.lag.time.max.ms", "replica.socket.timeout.ms"]
		limit := node.settings[key]
		is_number(limit.value)
		is_number(wait.value)
		wait.value > limit.value
	]
	count(limits) > 0
	some anchor in _timing_anchor(wait, limits)
	message := sprintf(
		"replica.fetch.wait.max.ms=%d is above %s: Kafka %s refuses to start (\"replica.fetch.wait.max.ms should always be less than or equal to replica.lag.time.max.ms\"; replica.socket.timeout.ms must be at least replica.fetch.wait.max.ms too); keep replica.fetch.wait.max.ms (default 500) below both",
		[wait.value, concat(" and ", [sprintf("%s=%d%s", [l.key, l.value, _default_note(l)]) | some l in limits]), input.kafka_version],
	)
}

# Anchored at replica.fetch.wait.max.ms when written, else at the limit
# that is (a file writing none of them keeps Kafka's consistent defaults).
_timing_anchor(wait, _) := [wait] if wait.source == "explicit"

_timing_anchor(wait, limits) := [l | some l in limits; l.source == "explicit"] if wait.source != "explicit"

_default_note(s) := " (Kafka's default)" if s.source == "default"

_default_note(s) := "" if s.source != "default"

# --- log directories (§1.4) -----------------------------------------------------

report contains result.fail(dirs, message) if {
	some node in input.nodes
	_all_settled(node, ["log.dirs", "log.dir"])
	dirs := _log_dirs_setting(node)
	_explicit_value(dirs)
	count([d | some d in split(dirs.raw, ","); trim_space(d) != ""]) == 0
	message := sprintf(
		"%s=%s names no directory: Kafka %s refuses to start (%s); set log.dirs to this node's data directories",
		[dirs.key, trim_space(dirs.raw), input.kafka_version, _log_dirs_error],
	)
}

# log.dirs wins over log.dir whenever it is set, even empty.
_log_dirs_setting(node) := node.settings["log.dirs"] if _explicit(node, "log.dirs")

_log_dirs_setting(node) := node.settings["log.dir"] if {
	not _explicit(node, "log.dirs")
	_explicit(node, "log.dir")
}

_log_dirs_error := "an empty list is rejected when the configuration is parsed" if version.at_least(4, 2)

_log_dirs_error := "\"At least one log directory must be defined via log.dirs or log.dir.\"" if not version.at_least(4, 2)

# --- producer delivery timeout (§2.2, §6 item 18) -------------------------------

report contains result.fail(delivery, message) if {
	some client in input.clients
	client.kind in {"producer", "client"}
	delivery := client.settings["delivery.timeout.ms"]
	_explicit_value(delivery)
	linger := client.settings["linger.ms"]
	request := client.settings["request.timeout.ms"]
	is_number(linger.value)
	is_number(request.value)
	delivery.value < linger.value + request.value
	message := sprintf(
		"delivery.timeout.ms=%d is below linger.ms=%d%s + request.timeout.ms=%d%s: the producer fails when it is created (\"delivery.timeout.ms should be equal to or larger than linger.ms + request.timeout.ms\"); raise delivery.timeout.ms to at least %d (the default is 120000)",
		[delivery.value, linger.value, _default_note(linger), request.value, _default_note(request), linger.value + request.value],
	)
}

# --- helpers ----------------------------------------------------------------------

_protocols := {"PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL"}

_explicit(unit, key) if unit.settings[key].source == "explicit"

# _explicit_value holds for a setting written in the file with a known,
# valid value.
_explicit_value(s) if {
	s.source == "explicit"
	not s.unknown
	s.value != null
}

# _full_file is cluster.absent_means_default for this rule's many calls:
# a node's file is a whole Kafka configuration (cluster.whole_configuration)
# that should hold key, which the platform does not set. A rule without
# arguments is evaluated once per evaluation, so _whole_files scans the
# files once, not once per call.
_full_file(node, key) if {
	node.file in _whole_files
	not key in node.managed_keys
}

_whole_files contains f.path if {
	some f in input.files
	cluster.whole_configuration(f)
}

# _settled holds when the model knows a key's effective value: the
# platform does not manage it, and it is written, or the file is a whole
# .properties configuration where an absent key takes Kafka's default.
# Elsewhere an absent key may be set by the platform or the image (a
# Confluent image derives listeners from advertised.listeners, a Helm
# chart writes the protocol map).
_settled(node, key) if {
	not key in node.managed_keys
	_explicit(node, key)
}

_settled(node, key) if _full_file(node, key)

# A whole .properties file whose platform manages nothing settles every key
# (the common case, checked before the key-by-key test).
_all_settled(node, _) if {
	node.file in _whole_files
	count(node.managed_keys) == 0
}

_all_settled(node, keys) if {
	every key in keys {
		_settled(node, key)
	}
}

_listener_keys := [
	"listeners", "advertised.listeners", "listener.security.protocol.map", "controller.listener.names",
	"inter.broker.listener.name", "security.inter.broker.protocol",
]

_controller_only(node) if {
	node.mode == "kraft"
	node.is_controller
	not node.is_broker
}

_controller_names(node) := {upper(n) | some n in node.controller_listener_names}

_protocol_map_unknown(node) if node.settings["listener.security.protocol.map"].unknown

# _listeners_known: listeners and advertised.listeners are not placeholders
# and every entry parses (a bad entry is reported on its own).
_listeners_known(node) if {
	not node.settings.listeners.unknown
	not node.settings["advertised.listeners"].unknown
	every l in array.concat(node.listeners, node.advertised_listeners) {
		not l.error
	}
}

# _mapped: the effective listener.security.protocol.map maps name. Without
# an explicit map, the protocol names map to themselves and KRaft maps the
# controller listener names implicitly.
_mapped(node, name) if {
	_explicit(node, "listener.security.protocol.map")
	some entry in _map_entries(node.settings["listener.security.protocol.map"])
	upper(trim_space(split(entry, ":")[0])) == name
}

_mapped(node, name) if {
	not _explicit(node, "listener.security.protocol.map")
	name in _protocols
}

_mapped(node, name) if {
	not _explicit(node, "listener.security.protocol.map")
	node.mode == "kraft"
	name in _controller_names(node)
}
