package kafkalint.rules.hygiene["kafka-refuses-to-start"]

import data.kafkalint.lib.cluster
import data.kafkalint.lib.result
import data.kafkalint.lib.settings

# Security protocols (AbstractKafkaConfig.effectiveListenerSecurityProtocolMap): every listener needs one from
# listener.security.protocol.map (or the implicit map Kafka derives without
# it), and every entry of the map must be NAME:PROTOCOL with a protocol
# Kafka knows.

report contains _refused(result.fail({"key": "listeners", "location": l.location}, message), context, words, fix) if {
	some node in input.nodes
	_all_settled(node, ["listeners", "listener.security.protocol.map", "controller.listener.names"])
	not _protocol_map_unknown(node)
	not _protocol_map_malformed(node)
	some l in node.listeners
	not l.error
	l.protocol == ""
	not _broker_only_controller_listener(node, l.name)
	reason := _unmapped_reason(node, l.name)
	message := sprintf("listener %s has no security protocol %s", [_cut(l.name), reason.short])
	context := sprintf("%s, so Kafka cannot tell how to secure listener %s.", [reason.long, l.name])
	words := sprintf("No security protocol defined for listener %s", [l.name])
	fix := sprintf("Add %s:<PLAINTEXT|SSL|SASL_PLAINTEXT|SASL_SSL> to listener.security.protocol.map.", [l.name])
}

report contains _refused(result.fail(protocol_map, message), context, words, fix) if {
	some node in input.nodes
	_settled(node, "listener.security.protocol.map")
	protocol_map := node.settings["listener.security.protocol.map"]
	settings.explicit_value(protocol_map)
	some entry in _entries(protocol_map.raw)
	count(split(entry, ":")) != 2
	message := sprintf("listener.security.protocol.map entry %s is not NAME:PROTOCOL", [_cut(entry)])
	context := sprintf("Kafka reads every entry of listener.security.protocol.map as a listener name, a colon and a security protocol, and %s is not.", [entry])
	words := "Error parsing configuration property 'listener.security.protocol.map'"
	fix := "Write every entry as NAME:PROTOCOL, for example CONTROLLER:PLAINTEXT."
}

report contains _refused(result.fail(protocol_map, message), context, words, fix) if {
	some node in input.nodes
	_settled(node, "listener.security.protocol.map")
	protocol_map := node.settings["listener.security.protocol.map"]
	settings.explicit_value(protocol_map)
	some entry in _entries(protocol_map.raw)
	parts := split(entry, ":")
	count(parts) == 2
	protocol := trim_space(parts[1])
	not upper(protocol) in _protocols
	name := trim_space(parts[0])
	message := sprintf("listener.security.protocol.map maps %s to %s, which is not a security protocol", [_cut(name), _cut(protocol)])
	context := "Kafka knows the security protocols PLAINTEXT, SSL, SASL_PLAINTEXT and SASL_SSL."
	words := sprintf("Invalid security protocol `%s` defined in listener.security.protocol.map", [protocol])
	fix := sprintf("Map %s to PLAINTEXT, SSL, SASL_PLAINTEXT or SASL_SSL.", [name])
}

# A broker-only node looks its controller listener up in the effective
# protocol map. KFK3016 reports a written map that lacks it; this is the
# implicit map, which has no entry when a listener uses SSL or SASL or the
# name is not upper-case (AbstractKafkaConfig.effectiveListenerSecurityProtocolMap).
report contains _refused(result.fail(s, message), context, words, fix) if {
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
	n := upper(name)
	message := sprintf("controller listener %s has no security protocol (no listener.security.protocol.map)", [_cut(n)])
	context := sprintf("Without listener.security.protocol.map Kafka maps a controller listener to PLAINTEXT itself, but %s, so it adds no %s:PLAINTEXT.", [_no_implicit_why(node, name), n])
	words := sprintf("Controller listener with name %s defined in controller.listener.names not found in listener.security.protocol.map", [n])
	fix := sprintf("Set listener.security.protocol.map with an entry for every listener, e.g. %s:PLAINTEXT or %s:SSL.", [n, n])
}

# --- helpers ------------------------------------------------------------------

# _unmapped_reason is {short, long}: why a listener has no protocol, for the
# message and for the why.
_unmapped_reason(node, name) := {
	"short": "in listener.security.protocol.map",
	"long": sprintf("listener.security.protocol.map (line %d) does not map %s", [node.settings["listener.security.protocol.map"].location.line, name]),
} if {
	settings.explicit(node, "listener.security.protocol.map")
} else := {
	"short": "(no listener.security.protocol.map)",
	"long": sprintf("The name %s is not a security protocol and listener.security.protocol.map is not set", [name]),
}

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
