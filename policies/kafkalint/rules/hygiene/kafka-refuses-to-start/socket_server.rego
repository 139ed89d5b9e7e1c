package kafkalint.rules.hygiene["kafka-refuses-to-start"]

import data.kafkalint.lib.result
import data.kafkalint.lib.settings

# The socket server (KafkaConfig.validateValues): connection limits,
# request sizes and the delay of a failed authentication.

report contains _refused(result.fail(s, message), context, words, fix) if {
	some node in input.nodes
	s := node.settings["max.connections.per.ip"]
	settings.explicit_value(s)
	s.value == 0
	_no_overrides(node)
	message := "max.connections.per.ip=0 without max.connections.per.ip.overrides"
	context := "A limit of 0 lets no host connect, so Kafka accepts it only with overrides for the hosts that may (an empty max.connections.per.ip.overrides counts as none)."
	words := "max.connections.per.ip can be set to zero only if max.connections.per.ip.overrides property is set."
	fix := "List the hosts that may connect in max.connections.per.ip.overrides, or remove max.connections.per.ip."
}

# Every host of max.connections.per.ip.overrides must be made of the
# characters Utils.validHostPattern allows. Reported only when every entry
# parses as host:count: Kafka stops at an entry that does not, with another
# message ("Error parsing configuration property ...").
report contains _refused(result.fail(s, message), context, words, fix) if {
	some node in input.nodes
	s := node.settings["max.connections.per.ip.overrides"]
	settings.explicit(node, "max.connections.per.ip.overrides")
	not s.unknown
	pairs := _override_pairs(s.raw)
	count(pairs) > 0
	every p in pairs {
		count(p) == 2
		regex.match(`^[+-]?[0-9]+$`, p[1])
	}
	invalid := {p[0] | some p in pairs; not regex.match(`^[0-9a-zA-Z\-%._:]*$`, p[0])}
	count(invalid) > 0
	hosts := concat(",", sort(invalid))
	message := sprintf("max.connections.per.ip.overrides names %s, not a host name or IP address", [_cut(hosts)])
	context := "A host of max.connections.per.ip.overrides is made of letters, digits and -%._: only."
	words := sprintf("max.connections.per.ip.overrides contains invalid addresses : %s", [hosts])
	fix := "Write each entry as host:count, the host a name or an IP address."
}

# Each check needs at least one of its keys written; an absent key has
# Kafka's default (the same in 3.8-4.3).
report contains _refused(result.fail(anchor, message), context, words, fix) if {
	some node in input.nodes
	_writes_any(node, {"queued.max.request.bytes", "socket.request.max.bytes"})
	queued := _number(node, "queued.max.request.bytes", -1)
	request := _number(node, "socket.request.max.bytes", 104857600)
	queued.value > 0
	queued.value < request.value
	anchor := _pair_anchor(queued, request)
	message := sprintf("queued.max.request.bytes=%d is below socket.request.max.bytes=%d", [queued.value, request.value])
	context := sprintf(
		"A positive queued.max.request.bytes must hold at least one request of the largest size.%s",
		[_defaults_sentence(_number_defaults([["queued.max.request.bytes", queued], ["socket.request.max.bytes", request]]))],
	)
	words := "queued.max.request.bytes must be larger or equal to socket.request.max.bytes"
	fix := sprintf("Raise queued.max.request.bytes to at least %d, or set it to -1 (no limit, the default).", [request.value])
}

report contains _refused(result.fail(anchor, message), context, words, fix) if {
	some node in input.nodes
	_writes_any(node, {"connection.failed.authentication.delay.ms", "connections.max.idle.ms"})
	delay := _number(node, "connection.failed.authentication.delay.ms", 100)
	idle := _number(node, "connections.max.idle.ms", 600000)
	idle.value >= 0
	delay.value >= idle.value
	anchor := _pair_anchor(delay, idle)
	message := sprintf("connection.failed.authentication.delay.ms=%d is not below connections.max.idle.ms=%d", [delay.value, idle.value])
	context := sprintf(
		"Kafka delays its answer to a failed authentication, and the connection must not be closed as idle before it is sent.%s",
		[_defaults_sentence(_number_defaults([["connection.failed.authentication.delay.ms", delay], ["connections.max.idle.ms", idle]]))],
	)
	words := sprintf(
		"connection.failed.authentication.delay.ms=%d should always be less than connections.max.idle.ms=%d to prevent failed authentication responses from timing out",
		[delay.value, idle.value],
	)
	fix := "Keep the delay well below the idle timeout: lower connection.failed.authentication.delay.ms (default 100) or raise connections.max.idle.ms (default 600000)."
}

# --- helpers ------------------------------------------------------------------

_no_overrides(node) if {
	not settings.explicit(node, "max.connections.per.ip.overrides")
	_full_file(node, "max.connections.per.ip.overrides")
}

_no_overrides(node) if {
	o := node.settings["max.connections.per.ip.overrides"]
	settings.explicit(node, "max.connections.per.ip.overrides")
	not o.unknown
	trim_space(o.raw) == ""
}

# _override_pairs splits max.connections.per.ip.overrides as Kafka's
# Csv.parseCsvMap does: entries at commas (trailing empty ones dropped), each
# cut at its last colon into [host, count], both trimmed; an entry without a
# colon is [entry].
_override_pairs(raw) := [_override_pair(e) | some e in regex.split(`\s*,\s*`, trimmed)] if {
	trimmed := trim_right(trim_space(raw), ", \t")
	trimmed != ""
} else := []

_override_pair(e) := [trim_space(m[1]), trim_space(m[2])] if {
	some m in regex.find_all_string_submatch_n(`^(.*):([^:]*)$`, e, 1)
} else := [e]
