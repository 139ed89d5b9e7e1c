package kafkalint.rules.hygiene["kafka-refuses-to-start"]

import data.kafkalint.lib.cluster
import data.kafkalint.lib.result
import data.kafkalint.lib.settings
import data.kafkalint.lib.version

# listeners and advertised.listeners entries (KafkaConfig.validateValues; SocketServerConfigs.listenerListToEndPoints): each
# must parse, and listeners must not repeat a name or a port;
# control.plane.listener.name has no place in KRaft.

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

report contains result.fail(node.settings.listeners, message) if {
	some node in input.nodes
	_settled(node, "listeners")
	cluster.listeners_known(node)
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
	cluster.listeners_known(node)
	some port in {l.port | some l in node.listeners; l.port != 0}
	same := [l | some l in node.listeners; l.port == port]
	count(same) > 1
	not _ipv4_and_ipv6_pair(same)
	message := sprintf(
		"listeners use port %d more than once (%s): Kafka %s refuses to start (\"Each listener must have a different port\"); give every listener its own port (only one IPv4 and one IPv6 address may share a port)",
		[port, concat(", ", [l.raw | some l in same]), input.kafka_version],
	)
}

# Up to 3.9 (KafkaConfig.validateValues: validateControlPlaneListenerEmptyForKRaft);
# 4.0 removed the key.
report contains result.fail(s, message) if {
	not version.at_least(4, 0)
	some node in input.nodes
	node.mode == "kraft"
	s := node.settings["control.plane.listener.name"]
	settings.explicit(node, "control.plane.listener.name")
	not s.unknown
	trim_space(s.raw) != ""
	message := sprintf(
		"control.plane.listener.name=%s on a KRaft node: Kafka %s refuses to start (\"control.plane.listener.name is not supported in KRaft mode.\"); remove it (KRaft has no separate control plane listener)",
		[trim_space(s.raw), input.kafka_version],
	)
}

# --- helpers ------------------------------------------------------------------

_ipv4_and_ipv6_pair(listeners) if {
	count(listeners) == 2
	count([l | some l in listeners; regex.match(`^[0-9]+(\.[0-9]+){3}$`, l.host)]) == 1
	count([l | some l in listeners; contains(l.host, ":")]) == 1
}
