package kafkalint.rules.hygiene["kafka-refuses-to-start"]

import data.kafkalint.lib.cluster
import data.kafkalint.lib.result
import data.kafkalint.lib.settings
import data.kafkalint.lib.version

# What a node advertises (KafkaConfig.validateValues): a broker advertises a
# broker listener, only listeners it binds and never 0.0.0.0; a controller
# advertising its listeners depends on the version (KIP-853, 3.9).

# --- the broker role -----------------------------------------------------

report contains _refused(result.fail(anchor, message), context, words, fix) if {
	some node in input.nodes
	node.is_broker
	node.mode == "kraft"
	_all_settled(node, _listener_keys)
	_advertised_known(node)
	count(_broker_advertised(node)) == 0
	not _broker_only_lists_controller_listener(node)
	anchor := _advertised_anchor(node)
	names := concat(", ", [l.name | some l in _advertised(node)])
	message := sprintf("this broker advertises only controller listeners (%s)", [_cut(names)])
	context := sprintf("Every listener this broker advertises (%s) is in controller.listener.names, so clients and other brokers have none to connect to.", [names])
	words := "There must be at least one broker advertised listener. Perhaps all listeners appear in controller.listener.names?"
	fix := "Add a broker listener, one that is not in controller.listener.names, to listeners (and advertised.listeners)."
}

report contains _refused(result.fail(node.settings["advertised.listeners"], message), context, words, fix) if {
	some node in input.nodes
	node.is_broker
	_all_settled(node, ["listeners", "advertised.listeners"])
	settings.explicit(node, "advertised.listeners")
	cluster.listeners_known(node)
	listener_names := {l.name | some l in _effective_listeners(node)}
	extra := {l.name | some l in node.advertised_listeners} - listener_names
	count(extra) > 0
	message := sprintf("advertised.listeners names %s, which listeners does not define", [_cut(concat(", ", sort(extra)))])
	context := sprintf("A node advertises only listeners it binds: listeners defines %s, not %s.", [concat(", ", sort(listener_names)), concat(", ", sort(extra))])
	words := "advertised.listeners listener names must be equal to or a subset of the ones defined in listeners"
	fix := "Advertise only listeners this node binds, or add the missing ones to listeners."
}

report contains _refused(result.fail(anchor, message), context, words, fix) if {
	some node in input.nodes
	node.is_broker
	_all_settled(node, ["listeners", "advertised.listeners", "controller.listener.names"])
	_advertised_known(node)
	some l in _broker_advertised(node)
	l.host == "0.0.0.0"
	anchor := _advertised_anchor(node)
	message := _wildcard_message(node, l)
	context := sprintf("The broker advertises %s to clients%s, and no client can connect to 0.0.0.0.", [l.raw, _fallback(node)])
	words := "advertised.listeners cannot use the nonroutable meta-address 0.0.0.0"
	fix := sprintf("Advertise this node's host name, e.g. advertised.listeners=%s://broker-1.example.com:%d.", [l.name, l.port])
}

# --- a controller advertising 0.0.0.0 (3.9+: KafkaConfig.validateValues) ------

# From 3.9 a controller may advertise its controller listeners; an explicit
# 0.0.0.0 there is refused like a broker's (a 0.0.0.0 only in listeners is
# replaced by the unspecified host instead). Brokers are checked
# above.
report contains _refused(result.fail(s, message), context, words, fix) if {
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
	message := sprintf("advertised.listeners advertises controller listener %s on 0.0.0.0", [_cut(l.raw)])
	context := sprintf("Voters and brokers connect to the address a controller advertises, and %s gives 0.0.0.0, which is not one (a 0.0.0.0 only in listeners is accepted).", [l.raw])
	words := "advertised.listeners cannot use the nonroutable meta-address 0.0.0.0. Use a routable IP address."
	fix := "Advertise this controller's host name, or leave the entry out so Kafka uses the listener."
}

# --- controller listeners advertised up to 3.8 (KafkaConfig.validateValues, 3.8.0) -
report contains _refused(result.fail(s, message), context, words, fix) if {
	not version.at_least(3, 9)
	some node in input.nodes
	node.mode == "kraft"
	node.is_controller
	not node.is_broker
	s := node.settings["advertised.listeners"]
	settings.explicit(node, "advertised.listeners")
	message := "advertised.listeners is set on a controller-only node"
	context := "Up to Kafka 3.8 a controller-only node advertises nothing: advertised controller listeners came with KIP-853 in 3.9."
	words := "The advertised.listeners config must be empty when process.roles=controller"
	fix := "Remove advertised.listeners from the controller (Kafka 3.9 and later accept it, KIP-853)."
}

report contains _refused(result.fail(s, message), context, words, fix) if {
	not version.at_least(3, 9)
	some node in input.nodes
	node.mode == "kraft"
	node.is_broker
	s := node.settings["advertised.listeners"]
	settings.explicit(node, "advertised.listeners")
	advertised := [l.name | some l in node.advertised_listeners; not l.error; l.name in {n | some n in node.controller_listener_names}]
	count(advertised) > 0
	message := sprintf("advertised.listeners advertises controller listener %s on a node with the broker role", [_cut(concat(", ", advertised))])
	context := sprintf("Up to Kafka 3.8 a node with the broker role advertises only broker listeners (KIP-853 changed that in 3.9), and controller.listener.names has %s.", [concat(", ", advertised)])
	words := "The advertised.listeners config must not contain KRaft controller listeners from controller.listener.names when process.roles contains the broker role"
	fix := "Advertise only broker listeners (Kafka 3.9 and later accept controller listeners there, KIP-853)."
}

# --- helpers ------------------------------------------------------------------

# A broker-only node listing a controller listener is KFK3016's finding.
_broker_only_lists_controller_listener(node) if {
	some l in node.listeners
	_broker_only_controller_listener(node, l.name)
}

# _wildcard_message: a broker advertising listener l on 0.0.0.0, written
# there or taken from listeners.
_wildcard_message(node, l) := sprintf("advertised.listeners entry %s advertises the non-routable 0.0.0.0", [_cut(l.raw)]) if {
	settings.explicit(node, "advertised.listeners")
} else := sprintf("listeners entry %s is advertised as is (advertised.listeners is not set)", [_cut(l.raw)])

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
