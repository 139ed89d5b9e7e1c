package kafkalint.rules.hygiene["kafka-refuses-to-start"]

import data.kafkalint.lib.cluster
import data.kafkalint.lib.result
import data.kafkalint.lib.settings
import data.kafkalint.lib.version

# What a node advertises (KafkaConfig.validateValues): a broker advertises a
# broker listener, only listeners it binds and never 0.0.0.0; a controller
# advertising its listeners depends on the version (KIP-853, 3.9).

# --- the broker role -----------------------------------------------------

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

report contains result.fail(node.settings["advertised.listeners"], message) if {
	some node in input.nodes
	node.is_broker
	_all_settled(node, ["listeners", "advertised.listeners"])
	settings.explicit(node, "advertised.listeners")
	cluster.listeners_known(node)
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

# --- a controller advertising 0.0.0.0 (3.9+: KafkaConfig.validateValues) ------

# From 3.9 a controller may advertise its controller listeners; an explicit
# 0.0.0.0 there is refused like a broker's (a 0.0.0.0 only in listeners is
# replaced by the unspecified host instead). Brokers are checked
# above.
report contains result.fail(s, message) if {
	version.at_least(3, 9)
	some node in input.nodes
	node.mode == "kraft"
	node.is_controller
	s := node.settings["advertised.listeners"]
	settings.explicit(node, "advertised.listeners")
	some l in node.advertised_listeners
	not l.error
	l.name in {n | some n in node.controller_listener_names}
	l.host == "0.0.0.0"
	message := sprintf(
		"advertised.listeners advertises the controller listener %s on 0.0.0.0: Kafka %s refuses to start (\"advertised.listeners cannot use the nonroutable meta-address 0.0.0.0. Use a routable IP address.\"); advertise this controller's host name, or leave the entry out so Kafka uses the listener",
		[l.raw, input.kafka_version],
	)
}

# --- controller listeners advertised up to 3.8 (KafkaConfig.validateValues, 3.8.0) -
report contains result.fail(s, message) if {
	not version.at_least(3, 9)
	some node in input.nodes
	node.mode == "kraft"
	node.is_controller
	not node.is_broker
	s := node.settings["advertised.listeners"]
	settings.explicit(node, "advertised.listeners")
	message := sprintf(
		"advertised.listeners is set on a controller-only node: Kafka %s refuses to start (\"The advertised.listeners config must be empty when process.roles=controller\"); remove it (Kafka 3.9 and later accept it, KIP-853)",
		[input.kafka_version],
	)
}

report contains result.fail(s, message) if {
	not version.at_least(3, 9)
	some node in input.nodes
	node.mode == "kraft"
	node.is_broker
	s := node.settings["advertised.listeners"]
	settings.explicit(node, "advertised.listeners")
	advertised := [l.name | some l in node.advertised_listeners; not l.error; l.name in {n | some n in node.controller_listener_names}]
	count(advertised) > 0
	message := sprintf(
		"advertised.listeners advertises the controller listener %s on a node with the broker role: Kafka %s refuses to start (\"The advertised.listeners config must not contain KRaft controller listeners from controller.listener.names when process.roles contains the broker role\"); advertise only broker listeners (Kafka 3.9 and later accept it, KIP-853)",
		[concat(", ", advertised), input.kafka_version],
	)
}

# --- helpers ------------------------------------------------------------------

# A broker-only node listing a controller listener is KFK3016's finding.
_broker_only_lists_controller_listener(node) if {
	some l in node.listeners
	_broker_only_controller_listener(node, l.name)
}

_fallback(node) := "" if settings.explicit(node, "advertised.listeners")

_fallback(node) := " (advertised.listeners is not set, so Kafka advertises listeners, which binds 0.0.0.0)" if not settings.explicit(node, "advertised.listeners")

_advertised_anchor(node) := node.settings["advertised.listeners"] if {
	settings.explicit(node, "advertised.listeners")
} else := node.settings.listeners if {
	settings.explicit(node, "listeners")
} else := {"key": "listeners", "location": node.location}

# _advertised are the listeners a node advertises: advertised.listeners,
# else listeners, else Kafka's default PLAINTEXT://:9092.
_advertised(node) := node.advertised_listeners if settings.explicit(node, "advertised.listeners")

_advertised(node) := _effective_listeners(node) if not settings.explicit(node, "advertised.listeners")

_effective_listeners(node) := node.listeners if settings.explicit(node, "listeners")

_effective_listeners(node) := [{"name": "PLAINTEXT", "host": "", "port": 9092, "raw": "PLAINTEXT://:9092"}] if {
	not settings.explicit(node, "listeners")
	not "listeners" in node.managed_keys
}

# _broker_advertised are the advertised listeners that are not controller
# listeners.
_broker_advertised(node) := [l | some l in _advertised(node); not l.name in cluster.controller_names(node)]

_advertised_known(node) if {
	cluster.listeners_known(node)
	count(_advertised(node)) >= 0
}
