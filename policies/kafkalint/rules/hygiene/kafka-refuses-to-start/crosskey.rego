package kafkalint.rules.hygiene["kafka-refuses-to-start"]

import data.kafkalint.lib.result
import data.kafkalint.lib.version

# Startup checks that compare several keys, or parse a value the way Kafka
# does, beyond kafka_refuses_to_start.rego. Each one is a check in Kafka's
# own code (cited per check; docs/rules/KFK9007.md lists them with their
# Kafka tests) and quotes the message Kafka stops with. The helpers here
# carry an _xk_ prefix so this file stands on its own beside the main one.
#
# Only keys the file writes are read (settings["k"] of an explicit key); an
# absent key takes Kafka's default from the constants below, and only in a
# whole .properties file (_xk_full), where nothing else can set it.

# --- log retention (KafkaConfig.validateValues, logRetentionTimeMillis) ----------

# log.retention.ms wins over log.retention.minutes, which wins over
# log.retention.hours (default 168); the one that decides must not resolve
# to 0 ms (negative means unlimited).
report contains result.fail(s, message) if {
	some node in input.nodes
	_xk_writes_any(node, {"log.retention.ms", "log.retention.minutes", "log.retention.hours"})
	s := _xk_retention(node)
	_xk_known(s)
	s.value == 0
	message := sprintf(
		"%s=0 sets the log retention to 0 ms: Kafka %s refuses to start (\"log.retention.ms must be unlimited (-1) or, greater than or equal to 1\"); use -1 for unlimited retention or a positive time",
		[s.key, input.kafka_version],
	)
}

_xk_retention(node) := node.settings["log.retention.ms"] if {
	_xk_explicit(node, "log.retention.ms")
} else := node.settings["log.retention.minutes"] if {
	_xk_explicit(node, "log.retention.minutes")
} else := node.settings["log.retention.hours"] if {
	_xk_explicit(node, "log.retention.hours")
}

# --- connection limits (KafkaConfig.validateValues) -------------------------------

report contains result.fail(s, message) if {
	some node in input.nodes
	s := node.settings["max.connections.per.ip"]
	_xk_known(s)
	s.value == 0
	_xk_no_overrides(node)
	message := sprintf(
		"max.connections.per.ip=0 without max.connections.per.ip.overrides: Kafka %s refuses to start (\"max.connections.per.ip can be set to zero only if max.connections.per.ip.overrides property is set.\"); list the hosts that may connect in max.connections.per.ip.overrides, or remove max.connections.per.ip",
		[input.kafka_version],
	)
}

_xk_no_overrides(node) if {
	not _xk_explicit(node, "max.connections.per.ip.overrides")
	_xk_full(node, "max.connections.per.ip.overrides")
}

_xk_no_overrides(node) if {
	o := node.settings["max.connections.per.ip.overrides"]
	_xk_explicit(node, "max.connections.per.ip.overrides")
	not o.unknown
	trim_space(o.raw) == ""
}

# --- socket and cleaner sizing (KafkaConfig.validateValues) ---------------------

# Each check needs at least one of its keys written; an absent key has
# Kafka's default (the same in 3.8-4.3).
report contains result.fail(anchor, message) if {
	some node in input.nodes
	_xk_writes_any(node, {"queued.max.request.bytes", "socket.request.max.bytes"})
	queued := _xk_number(node, "queued.max.request.bytes", -1)
	request := _xk_number(node, "socket.request.max.bytes", 104857600)
	queued.value > 0
	queued.value < request.value
	anchor := _xk_pair_anchor(queued, request)
	message := sprintf(
		"queued.max.request.bytes=%d%s is below socket.request.max.bytes=%d%s: Kafka %s refuses to start (\"queued.max.request.bytes must be larger or equal to socket.request.max.bytes\"); raise queued.max.request.bytes, or set it to -1 (no limit, the default)",
		[queued.value, queued.note, request.value, request.note, input.kafka_version],
	)
}

report contains result.fail(anchor, message) if {
	some node in input.nodes
	_xk_writes_any(node, {"connection.failed.authentication.delay.ms", "connections.max.idle.ms"})
	delay := _xk_number(node, "connection.failed.authentication.delay.ms", 100)
	idle := _xk_number(node, "connections.max.idle.ms", 600000)
	idle.value >= 0
	delay.value >= idle.value
	anchor := _xk_pair_anchor(delay, idle)
	message := sprintf(
		"connection.failed.authentication.delay.ms=%d%s is not below connections.max.idle.ms=%d%s: Kafka %s refuses to start (\"connection.failed.authentication.delay.ms=%d should always be less than connections.max.idle.ms=%d to prevent failed authentication responses from timing out\"); keep the delay well below the idle timeout",
		[delay.value, delay.note, idle.value, idle.note, input.kafka_version, delay.value, idle.value],
	)
}

report contains result.fail(anchor, message) if {
	some node in input.nodes
	_xk_writes_any(node, {"log.cleaner.dedupe.buffer.size", "log.cleaner.threads"})
	size := _xk_number(node, "log.cleaner.dedupe.buffer.size", 134217728)
	threads := _xk_number(node, "log.cleaner.threads", 1)
	threads.value > 0
	floor(size.value / threads.value) <= 1048576
	anchor := _xk_pair_anchor(size, threads)
	message := sprintf(
		"log.cleaner.dedupe.buffer.size=%d%s over log.cleaner.threads=%d%s leaves 1 MiB or less per cleaner thread: Kafka %s refuses to start (\"log.cleaner.dedupe.buffer.size must be at least 1MB per cleaner thread.\"); give every cleaner thread more than 1 MiB (the default is 128 MiB for 1 thread)",
		[size.value, size.note, threads.value, threads.note, input.kafka_version],
	)
}

# _xk_number is {value, note, setting?}: the written number, else Kafka's
# default; undefined for a placeholder or an invalid value, and when neither
# key of a check is written the defaults are consistent anyway.
_xk_number(node, key, fallback) := {"value": s.value, "note": "", "setting": s} if {
	s := node.settings[key]
	_xk_explicit(node, key)
	_xk_known(s)
	is_number(s.value)
} else := {"value": fallback, "note": " (Kafka's default)"} if {
	not _xk_explicit(node, key)
	not key in node.managed_keys
}

# --- SASL between brokers (KafkaConfig.validateValues, saslEnabledMechanisms) -----

# When the inter-broker listener uses SASL, sasl.mechanism.inter.broker.protocol
# (default GSSAPI) must be one of that listener's enabled mechanisms:
# listener.name.<listener>.sasl.enabled.mechanisms, else sasl.enabled.mechanisms
# (default GSSAPI), compared as written.
report contains result.fail(anchor, message) if {
	some node in input.nodes
	ibl := _xk_inter_broker(node)
	ibl.protocol in {"SASL_PLAINTEXT", "SASL_SSL"}
	mechanism := _xk_mechanism(node)
	enabled := _xk_enabled_mechanisms(node, ibl.name)
	not mechanism.value in enabled.values
	anchor := _xk_sasl_anchor(mechanism, enabled)
	message := sprintf(
		"sasl.mechanism.inter.broker.protocol is %s but the inter-broker listener %s (%s) enables only %s (%s): Kafka %s refuses to start (\"sasl.mechanism.inter.broker.protocol must be included in sasl.enabled.mechanisms when SASL is used for inter-broker communication\"); add %s to %s",
		[
			mechanism.value, ibl.name, ibl.protocol, _xk_list(enabled.values), enabled.why,
			input.kafka_version, mechanism.value, enabled.key,
		],
	)
}

# _xk_inter_broker is {name, protocol} of the inter-broker listener:
# inter.broker.listener.name through the effective protocol map, else the
# listener named after security.inter.broker.protocol (default PLAINTEXT,
# which needs no check).
_xk_inter_broker(node) := {"name": name, "protocol": node.protocol_map[name]} if {
	s := node.settings["inter.broker.listener.name"]
	_xk_explicit(node, "inter.broker.listener.name")
	_xk_known(s)
	name := upper(s.value)
} else := {"name": s.value, "protocol": s.value} if {
	s := node.settings["security.inter.broker.protocol"]
	_xk_explicit(node, "security.inter.broker.protocol")
	_xk_known(s)
}

_xk_mechanism(node) := {"value": s.value, "setting": s} if {
	s := node.settings["sasl.mechanism.inter.broker.protocol"]
	_xk_explicit(node, "sasl.mechanism.inter.broker.protocol")
	_xk_known(s)
} else := {"value": "GSSAPI"} if {
	not _xk_explicit(node, "sasl.mechanism.inter.broker.protocol")
	_xk_full(node, "sasl.mechanism.inter.broker.protocol")
}

_xk_enabled_mechanisms(node, listener) := m if {
	s := _xk_enabled_setting(node, listener)
	not s.unknown
	m := _xk_mechanisms(s, _xk_enabled_why(s))
} else := {"values": ["GSSAPI"], "why": "Kafka's default sasl.enabled.mechanisms", "key": "sasl.enabled.mechanisms"} if {
	not _xk_enabled_setting(node, listener)
	_xk_full(node, "sasl.enabled.mechanisms")
}

# _xk_enabled_setting: the listener override when written, else
# sasl.enabled.mechanisms when written (a placeholder in either is unknown).
_xk_enabled_setting(node, listener) := node.settings[key] if {
	key := concat("", ["listener.name.", lower(listener), ".sasl.enabled.mechanisms"])
	_xk_explicit(node, key)
} else := node.settings["sasl.enabled.mechanisms"] if {
	_xk_explicit(node, "sasl.enabled.mechanisms")
}

_xk_enabled_why(s) := "sasl.enabled.mechanisms" if s.key == "sasl.enabled.mechanisms"

_xk_enabled_why(s) := "listener override" if s.key != "sasl.enabled.mechanisms"

_xk_mechanisms(s, why) := {
	"values": [trim_space(m) | some m in split(s.raw, ","); trim_space(m) != ""],
	"why": sprintf("%s at line %d", [why, s.location.line]),
	"key": s.key,
	"setting": s,
}

_xk_sasl_anchor(mechanism, _) := mechanism.setting

_xk_sasl_anchor(mechanism, enabled) := enabled.setting if not mechanism.setting

_xk_list(values) := "nothing" if count(values) == 0

_xk_list(values) := concat(",", values) if count(values) > 0

# --- cordoned log directories (4.3: KafkaConfig.validateCordonedLogDirs) --------

report contains result.fail(s, message) if {
	version.at_least(4, 3)
	some node in input.nodes
	node.is_broker
	s := node.settings["cordoned.log.dirs"]
	entries := _xk_cordoned(node)
	"*" in entries
	count(entries) > 1
	message := sprintf(
		"cordoned.log.dirs=%s mixes * with directories: Kafka %s refuses to start (\"When cordoned.log.dirs is set to *, it must not contain other values\"); write * alone to cordon every directory, or list the directories",
		[trim_space(s.raw), input.kafka_version],
	)
}

report contains result.fail(s, message) if {
	version.at_least(4, 3)
	some node in input.nodes
	node.is_broker
	s := node.settings["cordoned.log.dirs"]
	entries := _xk_cordoned(node)
	not "*" in entries
	dirs := _xk_log_dirs(node)
	missing := [e | some e in entries; not e in dirs.values]
	count(missing) > 0
	message := sprintf(
		"cordoned.log.dirs names %s, which %s does not list: Kafka %s refuses to start (\"All entries in cordoned.log.dirs must be present in log.dirs or log.dir. Missing entries : %s\"); cordon only directories of log.dirs, written exactly as there",
		[concat(", ", missing), dirs.why, input.kafka_version, concat(", ", missing)],
	)
}

_xk_cordoned(node) := [trim_space(e) | some e in split(s.raw, ","); trim_space(e) != ""] if {
	s := node.settings["cordoned.log.dirs"]
	_xk_explicit(node, "cordoned.log.dirs")
	not s.unknown
}

# _xk_log_dirs: log.dirs when written, else log.dir, else log.dir's default.
_xk_log_dirs(node) := {"values": _xk_split(s.raw), "why": sprintf("log.dirs (line %d)", [s.location.line])} if {
	s := node.settings["log.dirs"]
	_xk_explicit(node, "log.dirs")
	not s.unknown
} else := {"values": _xk_split(s.raw), "why": sprintf("log.dir (line %d)", [s.location.line])} if {
	not _xk_explicit(node, "log.dirs")
	_xk_full(node, "log.dirs")
	s := node.settings["log.dir"]
	_xk_explicit(node, "log.dir")
	not s.unknown
} else := {"values": ["/tmp/kafka-logs"], "why": "log.dir's default /tmp/kafka-logs"} if {
	not _xk_explicit(node, "log.dirs")
	not _xk_explicit(node, "log.dir")
	_xk_full(node, "log.dirs")
	_xk_full(node, "log.dir")
}

_xk_split(raw) := [trim_space(e) | some e in split(raw, ","); trim_space(e) != ""]

# --- consumer group coordinator limits (GroupCoordinatorConfig; KafkaConfig in 3.8) -

# Each pair is checked when the file writes at least one of its keys; an
# absent key has Kafka's default (the same in 3.8-4.3). Kafka checks these
# for every role, in the GroupCoordinatorConfig constructor. Share groups
# (group.share.*) are checked from 4.0 on and streams groups
# (group.streams.*) from 4.1 on, with the same shape.
_xk_group_defaults := {
	"group.consumer.session.timeout.ms": 45000,
	"group.consumer.min.session.timeout.ms": 45000,
	"group.consumer.max.session.timeout.ms": 60000,
	"group.consumer.heartbeat.interval.ms": 5000,
	"group.consumer.min.heartbeat.interval.ms": 5000,
	"group.consumer.max.heartbeat.interval.ms": 15000,
	"group.share.session.timeout.ms": 45000,
	"group.share.min.session.timeout.ms": 45000,
	"group.share.max.session.timeout.ms": 60000,
	"group.share.heartbeat.interval.ms": 5000,
	"group.share.min.heartbeat.interval.ms": 5000,
	"group.share.max.heartbeat.interval.ms": 15000,
	"group.streams.session.timeout.ms": 45000,
	"group.streams.min.session.timeout.ms": 45000,
	"group.streams.max.session.timeout.ms": 60000,
	"group.streams.heartbeat.interval.ms": 5000,
	"group.streams.min.heartbeat.interval.ms": 5000,
	"group.streams.max.heartbeat.interval.ms": 15000,
}

_xk_group_keys := {key | some key, _ in _xk_group_defaults}

# [a, op, b, [major, minor]]: from that Kafka version, Kafka requires a op b.
_xk_group_pairs := [
	["group.consumer.max.heartbeat.interval.ms", ">=", "group.consumer.min.heartbeat.interval.ms", [3, 0]],
	["group.consumer.heartbeat.interval.ms", ">=", "group.consumer.min.heartbeat.interval.ms", [3, 0]],
	["group.consumer.heartbeat.interval.ms", "<=", "group.consumer.max.heartbeat.interval.ms", [3, 0]],
	["group.consumer.max.session.timeout.ms", ">=", "group.consumer.min.session.timeout.ms", [3, 0]],
	["group.consumer.session.timeout.ms", ">=", "group.consumer.min.session.timeout.ms", [3, 0]],
	["group.consumer.session.timeout.ms", "<=", "group.consumer.max.session.timeout.ms", [3, 0]],
	["group.consumer.heartbeat.interval.ms", "<", "group.consumer.session.timeout.ms", [4, 0]],
	["group.share.max.heartbeat.interval.ms", ">=", "group.share.min.heartbeat.interval.ms", [4, 0]],
	["group.share.heartbeat.interval.ms", ">=", "group.share.min.heartbeat.interval.ms", [4, 0]],
	["group.share.heartbeat.interval.ms", "<=", "group.share.max.heartbeat.interval.ms", [4, 0]],
	["group.share.max.session.timeout.ms", ">=", "group.share.min.session.timeout.ms", [4, 0]],
	["group.share.session.timeout.ms", ">=", "group.share.min.session.timeout.ms", [4, 0]],
	["group.share.session.timeout.ms", "<=", "group.share.max.session.timeout.ms", [4, 0]],
	["group.share.heartbeat.interval.ms", "<", "group.share.session.timeout.ms", [4, 0]],
	["group.streams.max.heartbeat.interval.ms", ">=", "group.streams.min.heartbeat.interval.ms", [4, 1]],
	["group.streams.heartbeat.interval.ms", ">=", "group.streams.min.heartbeat.interval.ms", [4, 1]],
	["group.streams.heartbeat.interval.ms", "<=", "group.streams.max.heartbeat.interval.ms", [4, 1]],
	["group.streams.max.session.timeout.ms", ">=", "group.streams.min.session.timeout.ms", [4, 1]],
	["group.streams.session.timeout.ms", ">=", "group.streams.min.session.timeout.ms", [4, 1]],
	["group.streams.session.timeout.ms", "<=", "group.streams.max.session.timeout.ms", [4, 1]],
	["group.streams.heartbeat.interval.ms", "<", "group.streams.session.timeout.ms", [4, 1]],
]

report contains result.fail(anchor, message) if {
	some node in input.nodes

	# Most nodes write none of these keys, and with Kafka's defaults on
	# both sides every pair holds: one set intersection skips them before
	# the 21 pairs are looked at (they were most of this rule's time).
	count(object.keys(node.settings) & _xk_group_keys) > 0
	some pair in _xk_group_pairs
	input.kafka_release >= pair[3]
	a := _xk_group_value(node, pair[0])
	b := _xk_group_value(node, pair[2])
	not _xk_holds(a.value, pair[1], b.value)
	anchor := _xk_pair_anchor(a, b)
	message := sprintf(
		"%s=%d%s is not %s %s=%d%s: Kafka %s refuses to start (\"%s\"); keep every group coordinator timeout within its min/max pair",
		[
			pair[0], a.value, a.note, pair[1], pair[2], b.value, b.note, input.kafka_version,
			_xk_group_words(pair),
		],
	)
}

_xk_group_value(node, key) := {"value": s.value, "note": "", "setting": s} if {
	s := node.settings[key]
	_xk_explicit(node, key)
	_xk_known(s)
	is_number(s.value)
} else := {"value": _xk_group_defaults[key], "note": " (Kafka's default)"} if {
	not _xk_explicit(node, key)
	not key in node.managed_keys
}

_xk_holds(a, ">=", b) if a >= b

_xk_holds(a, "<=", b) if a <= b

_xk_holds(a, "<", b) if a < b

_xk_pair_anchor(a, _) := a.setting

_xk_pair_anchor(a, b) := b.setting if not a.setting

# Kafka's words: "equals to" up to 3.9, "equal to" from 4.0.
_xk_group_words(pair) := sprintf("%s must be less than %s", [pair[0], pair[2]]) if pair[1] == "<"

_xk_group_words(pair) := sprintf("%s must be %s %s", [pair[0], _xk_relation(pair[1]), pair[2]]) if pair[1] != "<"

_xk_relation(">=") := "greater than or equal to" if version.at_least(4, 0)

_xk_relation(">=") := "greater than or equals to" if not version.at_least(4, 0)

_xk_relation("<=") := "less than or equal to" if version.at_least(4, 0)

_xk_relation("<=") := "less than or equals to" if not version.at_least(4, 0)

# --- controller auto-join on a broker (4.2+: KafkaConfig.validateValues) ---------

report contains result.fail(s, message) if {
	version.at_least(4, 2)
	some node in input.nodes
	node.mode == "kraft"
	node.is_broker
	not node.is_controller
	s := node.settings["controller.quorum.auto.join.enable"]
	_xk_explicit(node, "controller.quorum.auto.join.enable")
	s.value == true
	message := sprintf(
		"controller.quorum.auto.join.enable=true on a broker-only node: Kafka %s refuses to start (\"controller.quorum.auto.join.enable is only supported when process.roles contains the 'controller' role.\"); remove it from the broker (it belongs on controllers)",
		[input.kafka_version],
	)
}

# --- quorum entries (QuorumConfig.parseVoterConnections / parseBootstrapServer) ---

# ConfigDef splits a LIST keeping empty entries (split(trimmed, -1)), so a
# trailing, leading or doubled comma gives an entry "" that the voter
# parser refuses; the loader's voter list drops empty entries, so they are
# found here from the raw value.
report contains result.fail(s, message) if {
	some node in input.nodes
	s := node.settings["controller.quorum.voters"]
	_xk_explicit(node, "controller.quorum.voters")
	not s.unknown
	trimmed := trim_space(s.raw)
	trimmed != ""
	count([e | some e in split(trimmed, ","); trim_space(e) == ""]) > 0
	message := sprintf(
		"controller.quorum.voters=%s has an empty entry (a leading, trailing or doubled comma): Kafka %s refuses to start (\"Invalid configuration value for controller.quorum.voters. Each entry should be in the form `{id}@{host}:{port}`.\"); remove the extra comma",
		[trimmed, input.kafka_version],
	)
}

# Utils.getHost: the whole entry must be host:port, else no host is parsed.
report contains result.fail(s, message) if {
	version.at_least(3, 9)
	some node in input.nodes
	s := node.settings["controller.quorum.bootstrap.servers"]
	_xk_explicit(node, "controller.quorum.bootstrap.servers")
	not s.unknown
	trimmed := trim_space(s.raw)
	trimmed != ""
	some entry in split(trimmed, ",")
	not regex.match(`^(?:[0-9a-zA-Z\-%._]*://)?\[?[0-9a-zA-Z\-%._:]*\]?:[0-9]+$`, trim_space(entry))
	message := sprintf(
		"controller.quorum.bootstrap.servers entry %q is not host:port: Kafka %s refuses to start (\"Failed to parse host name from %s for the configuration controller.quorum.bootstrap.servers. Each entry should be in the form \\\"{host}:{port}\\\"\"); write every entry as host:port, for example controller-1:9093",
		[trim_space(entry), input.kafka_version, trim_space(entry)],
	)
}

# --- controller listener names (KafkaConfig.validateValues) ----------------------

# Kafka upper-cases listener names but compares controller.listener.names as
# written (KafkaConfigTest.testLowercaseControllerListenerNames), so a
# lower-case name never matches its listener on a node with the controller
# role. KFK3015 compares case-insensitively and stays silent on these.
report contains result.fail(s, message) if {
	some node in input.nodes
	node.mode == "kraft"
	node.is_controller
	s := node.settings["controller.listener.names"]
	_xk_explicit(node, "controller.listener.names")
	listener_names := {l.name | some l in node.listeners; not l.error}
	lowered := [n | some n in node.controller_listener_names; n != upper(n); upper(n) in listener_names]
	count(lowered) > 0
	message := sprintf(
		"controller.listener.names=%s is not upper-case: Kafka upper-cases listener names but compares controller.listener.names as written, so %s never matches listener %s and Kafka %s refuses to start (\"%s\"); write controller.listener.names in upper case, e.g. %s",
		[
			trim_space(s.raw), concat(", ", lowered), concat(", ", [upper(n) | some n in lowered]),
			input.kafka_version, _xk_lowercase_words(node), upper(trim_space(s.raw)),
		],
	)
}

_xk_lowercase_words(node) := "The listeners config must only contain KRaft controller listeners from controller.listener.names when process.roles=controller" if {
	not node.is_broker
} else := "controller.listener.names must contain at least one value appearing in the 'listeners' configuration when running the KRaft controller role" if {
	listener_names := {l.name | some l in node.listeners}
	every n in node.controller_listener_names {
		not n in listener_names
	}
} else := "controller.listener.names must only contain values appearing in the 'listeners' configuration when running the KRaft controller role"

# A broker-only node looks its controller listener up in the effective
# protocol map. KFK3016 reports a written map that lacks it; this is the
# implicit map, which has no entry when a listener uses SSL or SASL or the
# name is not upper-case (AbstractKafkaConfig.effectiveListenerSecurityProtocolMap).
report contains result.fail(s, message) if {
	some node in input.nodes
	node.mode == "kraft"
	node.is_broker
	not node.is_controller
	not _xk_explicit(node, "listener.security.protocol.map")
	_xk_full(node, "listener.security.protocol.map")
	node.protocol_map
	s := node.settings["controller.listener.names"]
	_xk_explicit(node, "controller.listener.names")
	some name in node.controller_listener_names
	not node.protocol_map[upper(name)]
	message := sprintf(
		"controller listener %s has no security protocol: listener.security.protocol.map is not set and %s, so Kafka adds no implicit %s:PLAINTEXT mapping and Kafka %s refuses to start (\"Controller listener with name %s defined in controller.listener.names not found in listener.security.protocol.map\"); set listener.security.protocol.map with an entry for every listener, e.g. %s:PLAINTEXT or %s:SSL",
		[upper(name), _xk_no_implicit_why(node, name), upper(name), input.kafka_version, upper(name), upper(name), upper(name)],
	)
}

_xk_no_implicit_why(_, name) := sprintf("the name %s is not upper-case (Kafka maps it as written, then looks up %s)", [name, upper(name)]) if {
	name != upper(name)
} else := "this node's listeners use SSL or SASL"

# --- a controller advertising 0.0.0.0 (3.9+: KafkaConfig.validateValues) ------

# From 3.9 a controller may advertise its controller listeners; an explicit
# 0.0.0.0 there is refused like a broker's (a 0.0.0.0 only in listeners is
# replaced by the unspecified host instead). Brokers are checked in
# kafka_refuses_to_start.rego.
report contains result.fail(s, message) if {
	version.at_least(3, 9)
	some node in input.nodes
	node.mode == "kraft"
	node.is_controller
	s := node.settings["advertised.listeners"]
	_xk_explicit(node, "advertised.listeners")
	some l in node.advertised_listeners
	not l.error
	l.name in {n | some n in node.controller_listener_names}
	l.host == "0.0.0.0"
	message := sprintf(
		"advertised.listeners advertises the controller listener %s on 0.0.0.0: Kafka %s refuses to start (\"advertised.listeners cannot use the nonroutable meta-address 0.0.0.0. Use a routable IP address.\"); advertise this controller's host name, or leave the entry out so Kafka uses the listener",
		[l.raw, input.kafka_version],
	)
}

# --- version-specific listener rules ----------------------------------------------

# Up to 3.8 (KafkaConfig.validateValues, 3.8.0).
report contains result.fail(s, message) if {
	not version.at_least(3, 9)
	some node in input.nodes
	node.mode == "kraft"
	node.is_controller
	not node.is_broker
	s := node.settings["advertised.listeners"]
	_xk_explicit(node, "advertised.listeners")
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
	_xk_explicit(node, "advertised.listeners")
	advertised := [l.name | some l in node.advertised_listeners; not l.error; l.name in {n | some n in node.controller_listener_names}]
	count(advertised) > 0
	message := sprintf(
		"advertised.listeners advertises the controller listener %s on a node with the broker role: Kafka %s refuses to start (\"The advertised.listeners config must not contain KRaft controller listeners from controller.listener.names when process.roles contains the broker role\"); advertise only broker listeners (Kafka 3.9 and later accept it, KIP-853)",
		[concat(", ", advertised), input.kafka_version],
	)
}

# Up to 3.9 (KafkaConfig.validateValues: validateControlPlaneListenerEmptyForKRaft);
# 4.0 removed the key.
report contains result.fail(s, message) if {
	not version.at_least(4, 0)
	some node in input.nodes
	node.mode == "kraft"
	s := node.settings["control.plane.listener.name"]
	_xk_explicit(node, "control.plane.listener.name")
	not s.unknown
	trim_space(s.raw) != ""
	message := sprintf(
		"control.plane.listener.name=%s on a KRaft node: Kafka %s refuses to start (\"control.plane.listener.name is not supported in KRaft mode.\"); remove it (KRaft has no separate control plane listener)",
		[trim_space(s.raw), input.kafka_version],
	)
}

# --- producer two-phase commit (4.1+: ProducerConfig.postProcessAndValidateIdempotenceConfigs)

# Kafka checks that transaction.timeout.ms is present at all (originals
# containsKey), so its value, even a placeholder, does not matter.
report contains result.fail(timeout, message) if {
	version.at_least(4, 1)
	some client in input.clients
	client.kind in {"producer", "client"}
	two_pc := client.settings["transaction.two.phase.commit.enable"]
	_xk_explicit(client, "transaction.two.phase.commit.enable")
	two_pc.value == true
	timeout := client.settings["transaction.timeout.ms"]
	_xk_explicit(client, "transaction.timeout.ms")
	message := sprintf(
		"transaction.timeout.ms is set together with transaction.two.phase.commit.enable=true (line %d): the producer fails when it is created (\"Cannot set transaction.timeout.ms when transaction.two.phase.commit.enable is set to true. Transactions will not expire with two-phase commit enabled.\"); remove transaction.timeout.ms (Kafka %s)",
		[two_pc.location.line, input.kafka_version],
	)
}

# --- meta.properties (MetaProperties.Builder.build) -------------------------------

report contains result.fail(v, message) if {
	some meta in input.meta
	v := meta.settings.version
	trim_space(v.raw) == "1"
	some key in ["cluster.id", "node.id"]
	not _xk_meta_has(meta, key)
	message := sprintf(
		"meta.properties version=1 without %s: Kafka %s refuses to start with this log directory (\"%s was not found.\"); a KRaft meta.properties needs cluster.id and node.id, written by kafka-storage format",
		[key, input.kafka_version, key],
	)
}

_xk_meta_has(meta, key) if meta.settings[key].source == "explicit"

# --- helpers ----------------------------------------------------------------------

# _xk_writes_any holds when a node writes one of keys: the checks that
# need one of their keys written skip every other node before looking at
# defaults (most nodes write none of them).
_xk_writes_any(node, keys) if {
	some key in keys
	node.settings[key].source == "explicit"
}

_xk_explicit(unit, key) if unit.settings[key].source == "explicit"

# _xk_known: a written, typed value (not a placeholder, not invalid).
_xk_known(s) if {
	not s.unknown
	s.value != null
}

# _xk_full: the node's file is a whole .properties configuration (an absent
# key takes Kafka's default) and the platform does not manage key.
_xk_full(node, key) if {
	node.file in _xk_whole_files
	not key in node.managed_keys
}

_xk_whole_files contains f.path if {
	some f in input.files
	f.format == "properties"
	not f.template
}
