package kafkalint.rules.hygiene["kafka-refuses-to-start"]

import data.kafkalint.lib.cluster
import data.kafkalint.lib.result
import data.kafkalint.lib.settings

# The inter-broker listener (KafkaConfig.interBrokerListenerNameAndSecurityProtocol): one way to name it,
# mapped to a security protocol and advertised, and with SASL a mechanism
# that listener enables.

report contains _refused(result.fail_related(ibl, message, [sibp.location]), context, words, fix) if {
	some node in input.nodes
	_all_settled(node, ["inter.broker.listener.name", "security.inter.broker.protocol"])
	ibl := node.settings["inter.broker.listener.name"]
	sibp := node.settings["security.inter.broker.protocol"]
	settings.explicit_value(ibl)
	settings.explicit_value(sibp)
	message := sprintf("inter.broker.listener.name and security.inter.broker.protocol (line %d) are both set", [sibp.location.line])
	context := "Both keys choose the inter-broker listener, and Kafka accepts only one of them."
	words := "Only one of inter.broker.listener.name and security.inter.broker.protocol should be set."
	fix := "Keep inter.broker.listener.name and remove security.inter.broker.protocol."
}

report contains _refused(result.fail(ibl, message), context, words, fix) if {
	some node in input.nodes
	_inter_broker_listener_unmapped(node)
	ibl := node.settings["inter.broker.listener.name"]
	name := upper(ibl.value)
	message := sprintf("inter.broker.listener.name=%s has no security protocol", [ibl.value])
	context := sprintf("The effective listener.security.protocol.map has no entry for %s, so Kafka cannot tell how brokers connect to each other.", [name])
	words := sprintf("Listener with name %s defined in inter.broker.listener.name not found in listener.security.protocol.map.", [name])
	fix := sprintf("Add %s:<protocol> to listener.security.protocol.map, or name an existing listener.", [name])
}

report contains _refused(result.fail(anchor, ibl.message), context, words, fix) if {
	some node in input.nodes
	node.is_broker
	_all_settled(node, _listener_keys)
	cluster.listeners_known(node)
	not _both_inter_broker_keys(node)
	not _inter_broker_listener_unmapped(node)
	ibl := _inter_broker_listener(node)
	names := {l.name | some l in _broker_advertised(node)}
	count(names) > 0
	not ibl.name in names
	anchor := _inter_broker_anchor(node)
	context := sprintf("%s, which this broker does not advertise (it advertises %s).", [ibl.why, concat(", ", sort(names))])
	words := sprintf(
		"inter.broker.listener.name must be a listener name defined in advertised.listeners. The valid options based on currently configured listeners are %s",
		[concat(",", sort(names))],
	)
	fix := _one_of("Set inter.broker.listener.name to", sort(names))
}

# --- SASL between brokers (KafkaConfig.validateValues, saslEnabledMechanisms) ---

# When the inter-broker listener uses SASL, sasl.mechanism.inter.broker.protocol
# (default GSSAPI) must be one of that listener's enabled mechanisms:
# listener.name.<listener>.sasl.enabled.mechanisms, else sasl.enabled.mechanisms
# (default GSSAPI), compared as written.
report contains _refused(result.fail(anchor, message), context, words, fix) if {
	some node in input.nodes
	ibl := _inter_broker_protocol(node)
	ibl.protocol in {"SASL_PLAINTEXT", "SASL_SSL"}
	mechanism := _sasl_mechanism(node)
	enabled := _enabled_mechanisms(node, ibl.name)
	not mechanism.value in enabled.values
	anchor := _pair_anchor(mechanism, enabled)
	message := sprintf(
		"sasl.mechanism.inter.broker.protocol=%s%s is not enabled on listener %s",
		[mechanism.value, mechanism.note, _cut(ibl.name)],
	)
	context := sprintf(
		"The inter-broker listener %s%s enables only %s (%s), and brokers authenticate to each other with %s.",
		[ibl.name, _protocol_note(ibl), _list_text(enabled.values), enabled.why, mechanism.value],
	)
	words := "sasl.mechanism.inter.broker.protocol must be included in sasl.enabled.mechanisms when SASL is used for inter-broker communication"
	fix := sprintf("Add %s to %s, or set sasl.mechanism.inter.broker.protocol to a mechanism it enables.", [mechanism.value, enabled.key])
}

# --- helpers ------------------------------------------------------------------

# _inter_broker_listener_unmapped: an explicit inter.broker.listener.name
# that the protocol map does not map (a name derived from
# security.inter.broker.protocol is not checked against the map).
_inter_broker_listener_unmapped(node) if {
	not cluster.dedicated_controller(node)
	_all_settled(node, ["inter.broker.listener.name", "listener.security.protocol.map", "controller.listener.names"])
	not _protocol_map_unknown(node)
	ibl := node.settings["inter.broker.listener.name"]
	settings.explicit_value(ibl)
	not _mapped(node, upper(ibl.value))
}

_both_inter_broker_keys(node) if {
	settings.explicit(node, "inter.broker.listener.name")
	settings.explicit(node, "security.inter.broker.protocol")
}

# _inter_broker_listener is {name, why, message}: inter.broker.listener.name,
# else the listener named after security.inter.broker.protocol (default
# PLAINTEXT).
_inter_broker_listener(node) := {
	"name": upper(s.value),
	"why": sprintf("inter.broker.listener.name=%s names the inter-broker listener", [s.value]),
	"message": sprintf("inter.broker.listener.name=%s is not advertised by this broker", [s.value]),
} if {
	s := node.settings["inter.broker.listener.name"]
	settings.explicit_value(s)
} else := {
	"name": upper(s.value),
	"why": sprintf("inter.broker.listener.name is not set, so the inter-broker listener is the one named after security.inter.broker.protocol=%s", [s.value]),
	"message": sprintf("inter-broker listener %s (from security.inter.broker.protocol) is not advertised", [_cut(upper(s.value))]),
} if {
	not settings.explicit(node, "inter.broker.listener.name")
	s := node.settings["security.inter.broker.protocol"]
	is_string(s.value)
}

_inter_broker_anchor(node) := node.settings["inter.broker.listener.name"] if {
	settings.explicit(node, "inter.broker.listener.name")
} else := node.settings["security.inter.broker.protocol"] if {
	settings.explicit(node, "security.inter.broker.protocol")
} else := node.settings["advertised.listeners"] if {
	settings.explicit(node, "advertised.listeners")
} else := node.settings.listeners if {
	settings.explicit(node, "listeners")
} else := {"key": "inter.broker.listener.name", "location": node.location}

# _inter_broker_protocol is {name, protocol} of the inter-broker listener:
# inter.broker.listener.name through the effective protocol map, else the
# listener named after security.inter.broker.protocol (default PLAINTEXT,
# which needs no check).
_inter_broker_protocol(node) := {"name": name, "protocol": node.protocol_map[name]} if {
	s := node.settings["inter.broker.listener.name"]
	settings.explicit_value(s)
	name := upper(s.value)
} else := {"name": s.value, "protocol": s.value} if {
	s := node.settings["security.inter.broker.protocol"]
	settings.explicit_value(s)
}

_sasl_mechanism(node) := {"value": s.value, "note": "", "setting": s} if {
	s := node.settings["sasl.mechanism.inter.broker.protocol"]
	settings.explicit_value(s)
} else := {"value": "GSSAPI", "note": " (Kafka's default)"} if {
	not settings.explicit(node, "sasl.mechanism.inter.broker.protocol")
	_full_file(node, "sasl.mechanism.inter.broker.protocol")
}

_enabled_mechanisms(node, listener) := m if {
	s := _enabled_setting(node, listener)
	not s.unknown
	m := _mechanisms(s, _enabled_why(s))
} else := {"values": ["GSSAPI"], "why": "Kafka's default sasl.enabled.mechanisms", "key": "sasl.enabled.mechanisms"} if {
	not _enabled_setting(node, listener)
	_full_file(node, "sasl.enabled.mechanisms")
}

# _enabled_setting: the listener override when written, else
# sasl.enabled.mechanisms when written (a placeholder in either is unknown).
_enabled_setting(node, listener) := node.settings[key] if {
	key := concat("", ["listener.name.", lower(listener), ".sasl.enabled.mechanisms"])
	settings.explicit(node, key)
} else := node.settings["sasl.enabled.mechanisms"] if {
	settings.explicit(node, "sasl.enabled.mechanisms")
}

_enabled_why(s) := "sasl.enabled.mechanisms" if s.key == "sasl.enabled.mechanisms"

_enabled_why(s) := "listener override" if s.key != "sasl.enabled.mechanisms"

_mechanisms(s, why) := {
	"values": [trim_space(m) | some m in split(s.raw, ","); trim_space(m) != ""],
	"why": sprintf("%s at line %d", [why, s.location.line]),
	"key": s.key,
	"setting": s,
}

# _one_of ends a fix with the one value to set, or the values to choose from.
_one_of(start, [value]) := sprintf("%s %s.", [start, value])

_one_of(start, values) := sprintf("%s one of %s.", [start, concat(", ", values)]) if count(values) > 1

# _protocol_note names the inter-broker listener's protocol unless the
# listener is named after it.
_protocol_note(ibl) := "" if ibl.name == ibl.protocol

_protocol_note(ibl) := sprintf(" (%s)", [ibl.protocol]) if ibl.name != ibl.protocol

_list_text(values) := "nothing" if count(values) == 0

_list_text(values) := concat(",", values) if count(values) > 0
