package kafkalint.rules.hygiene["kafka-refuses-to-start"]

import data.kafkalint.lib.cluster
import data.kafkalint.lib.result
import data.kafkalint.lib.settings
import data.kafkalint.lib.version

# listeners and advertised.listeners entries (KafkaConfig.validateValues; SocketServerConfigs.listenerListToEndPoints): each
# must parse, and listeners must not repeat a name or a port;
# control.plane.listener.name has no place in KRaft.

report contains _refused(result.fail({"key": key, "location": l.location}, message), context, words, fix) if {
	some node in input.nodes
	some key, field in _listener_fields
	_settled(node, key)
	some l in node[field]
	l.error
	message := sprintf("%s entry %s is not NAME://host:port", [key, _cut(l.raw)])
	context := sprintf("Kafka parses every entry of %s as a listener name, a host and a port.", [key])
	words := sprintf("Unable to parse %s to a broker endpoint", [l.raw])
	fix := "Write the entry as NAME://host:port, for example PLAINTEXT://broker-1:9092."
}

report contains _refused(result.fail(node.settings.listeners, message), context, "Each listener must have a different name", fix) if {
	some node in input.nodes
	_settled(node, "listeners")
	cluster.listeners_known(node)
	some name in {l.name | some l in node.listeners}
	count([l | some l in node.listeners; l.name == name]) > 1
	message := sprintf("listeners names %s more than once", [_cut(name)])
	context := sprintf("The listener name %s selects one security protocol and one set of listener.name.* settings, so it can belong to one listener only.", [name])
	fix := "Give every listener its own name."
}

report contains _refused(result.fail(node.settings.listeners, message), context, "Each listener must have a different port", fix) if {
	some node in input.nodes
	_settled(node, "listeners")
	cluster.listeners_known(node)
	some port in {l.port | some l in node.listeners; l.port != 0}
	same := [l | some l in node.listeners; l.port == port]
	count(same) > 1
	not _ipv4_and_ipv6_pair(same)
	entries := concat(", ", [l.raw | some l in same])
	message := sprintf("listeners use port %d more than once (%s)", [port, _cut(entries)])
	context := sprintf("%s bind the same port, which only one IPv4 and one IPv6 address may share.", [entries])
	fix := "Give every listener its own port (only one IPv4 and one IPv6 address may share a port)."
}

# Up to 3.9 (KafkaConfig.validateValues: validateControlPlaneListenerEmptyForKRaft);
# 4.0 removed the key.
report contains _refused(result.fail(s, message), context, words, fix) if {
	not version.at_least(4, 0)
	some node in input.nodes
	node.mode == "kraft"
	s := node.settings["control.plane.listener.name"]
	settings.explicit(node, "control.plane.listener.name")
	not s.unknown
	trim_space(s.raw) != ""
	message := sprintf("control.plane.listener.name=%s on a KRaft node", [trim_space(s.raw)])
	context := "KRaft has no separate control plane listener: controllers listen on controller.listener.names."
	words := "control.plane.listener.name is not supported in KRaft mode."
	fix := "Remove control.plane.listener.name (Kafka 4.0 removed the key)."
}

# --- helpers ------------------------------------------------------------------

_ipv4_and_ipv6_pair(listeners) if {
	count(listeners) == 2
	count([l | some l in listeners; regex.match(`^[0-9]+(\.[0-9]+){3}$`, l.host)]) == 1
	count([l | some l in listeners; contains(l.host, ":")]) == 1
}

# _listener_fields are the model's fields of the listener keys, read in
# place: an object holding the lists would copy them whole for the compiled
# engine (policies/lazyinput.go).
_listener_fields := {"listeners": "listeners", "advertised.listeners": "advertised_listeners"}
