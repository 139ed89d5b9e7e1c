package kafkalint.rules.hygiene["kafka-refuses-to-start"]

import data.kafkalint.lib.cluster
import data.kafkalint.lib.result
import data.kafkalint.lib.settings

# Security protocols (AbstractKafkaConfig.effectiveListenerSecurityProtocolMap): every listener needs one from
# listener.security.protocol.map (or the implicit map Kafka derives without
# it), and every entry of the map must be NAME:PROTOCOL with a protocol
# Kafka knows.

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

report contains result.fail(protocol_map, message) if {
	some node in input.nodes
	_settled(node, "listener.security.protocol.map")
	protocol_map := node.settings["listener.security.protocol.map"]
	settings.explicit_value(protocol_map)
	some entry in _entries(protocol_map.raw)
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
	settings.explicit_value(protocol_map)
	some entry in _entries(protocol_map.raw)
	parts := split(entry, ":")
	count(parts) == 2
	protocol := trim_space(parts[1])
	not upper(protocol) in _protocols
	message := sprintf(
		"listener.security.protocol.map maps %s to %s: Kafka %s refuses to start (\"Invalid security protocol `%s` defined in listener.security.protocol.map\"); use PLAINTEXT, SSL, SASL_PLAINTEXT or SASL_SSL",
		[trim_space(parts[0]), protocol, input.kafka_version, protocol],
	)
}

# A broker-only node looks its controller listener up in the effective
# protocol map. KFK3016 reports a written map that lacks it; this is the
# implicit map, which has no entry when a listener uses SSL or SASL or the
# name is not upper-case (AbstractKafkaConfig.effectiveListenerSecurityProtocolMap).
report contains result.fail(s, message) if {
	some node in input.nodes
	node.mode == "kraft"
	node.is_broker
	not node.is_controller
	not settings.explicit(node, "listener.security.protocol.map")
	_full_file(node, "listener.security.protocol.map")
	not node.protocol_map_unknown
	s := node.settings["controller.listener.names"]
	settings.explicit(node, "controller.listener.names")
	some name in node.controller_listener_names
	not node.protocol_map[upper(name)]
	message := sprintf(
		"controller listener %s has no security protocol: listener.security.protocol.map is not set and %s, so Kafka adds no implicit %s:PLAINTEXT mapping and Kafka %s refuses to start (\"Controller listener with name %s defined in controller.listener.names not found in listener.security.protocol.map\"); set listener.security.protocol.map with an entry for every listener, e.g. %s:PLAINTEXT or %s:SSL",
		[upper(name), _no_implicit_why(node, name), upper(name), input.kafka_version, upper(name), upper(name), upper(name)],
	)
}

# --- helpers ------------------------------------------------------------------

_unmapped_reason(node, name) := sprintf("listener.security.protocol.map (line %d) does not map %s", [node.settings["listener.security.protocol.map"].location.line, name]) if {
	settings.explicit(node, "listener.security.protocol.map")
} else := sprintf("the name %s is not a security protocol and listener.security.protocol.map is not set", [name])

# A broker-only node listing a controller listener is KFK3016's finding.
_broker_only_controller_listener(node, name) if {
	node.mode == "kraft"
	not node.is_controller
	name in cluster.controller_names(node)
}

_protocol_map_malformed(node) if {
	protocol_map := node.settings["listener.security.protocol.map"]
	settings.explicit_value(protocol_map)
	some entry in _entries(protocol_map.raw)
	count(split(entry, ":")) != 2
}

_no_implicit_why(_, name) := sprintf("the name %s is not upper-case (Kafka maps it as written, then looks up %s)", [name, upper(name)]) if {
	name != upper(name)
} else := "this node's listeners use SSL or SASL"

_protocols := {"PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL"}

_protocol_map_unknown(node) if node.protocol_map_unknown

# _mapped: the effective listener.security.protocol.map (the loader's,
# as Kafka computes it) maps name.
_mapped(node, name) if node.protocol_map[name]
