# METADATA
# title: Configuration Kafka refuses at startup
# description: |
#   Kafka validates a node's configuration (and a producer's) before it starts
#   and stops with a ConfigException at the first problem: a missing or empty
#   process.roles or node.id, listeners it cannot parse, map to a security
#   protocol or advertise, limits that contradict each other, no log
#   directory, a class that can never load. A node that refuses to start is
#   otherwise found during a rollout, one restart at a time; each finding
#   quotes what Kafka says, for the Kafka version the cluster runs.
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
#   fix: |
#     Change the key the finding points at: each finding's own fix names the
#     value to set or the entry to remove. A ZooKeeper-mode file reported on
#     Kafka 4.x either runs on 3.x (lint it with --kafka-version 3.x) or must
#     first be migrated to KRaft with the 3.9 bridge release.
package kafkalint.rules.hygiene["kafka-refuses-to-start"]

import data.kafkalint.lib.cluster
import data.kafkalint.lib.result
import data.kafkalint.lib.settings

# Scope (the startup checks of KafkaConfig.validateValues and of the
# configs it builds, one finding per distinct cause). Covered by other rules and never reported here: a
# missing or malformed quorum (KFK3006, KFK3007), the voter set against
# node ids (KFK3012, KFK3013), controller.listener.names against listeners
# (KFK3015, KFK3016), invalid values of a single key such as an unknown
# role, a negative node.id on 4.x or acks=ALL (KFK9005), and the producer's
# idempotence conflicts (KFK1006). Placeholders (${provider:...}) are
# unknown values: every branch needs the values it compares to be known.
# Checks for a key that is missing altogether only run on .properties
# files, and never for keys the platform manages (managed_keys): Strimzi,
# MSK and Helm write those keys themselves.
#
# The checks live in one file per Kafka subsystem (roles.rego,
# listeners.rego, protocol_map.rego, inter_broker.rego, advertised.rego,
# log_dirs.rego, ...); this file holds the METADATA and the helpers they
# share. Each check is one in Kafka's own code (cited per check;
# docs/rules/KFK9007.md lists them with their Kafka tests); its finding has a
# short message and its own why, which quotes the message Kafka stops with
# (_refused), and fix. The checks of keys outside custom.keys read only
# keys the file writes (the setting of an explicit key: the loader adds no
# default for them) and take an absent key's default from their own
# constants, only in a whole .properties file (_full_file), where nothing
# else can set it.

# --- helpers ----------------------------------------------------------------------

# _writes_any holds when a node writes one of keys: the checks that
# need one of their keys written skip every other node before looking at
# defaults (most nodes write none of them).
_writes_any(node, keys) if {
	some key in keys
	settings.explicit(node, key)
}

# _full_file: a node's file is a whole Kafka configuration (the loader's
# whole_configuration) that should hold key, which the platform does not
# set (cluster.absent_means_default).
_full_file(node, key) if cluster.absent_means_default(node, key)

# _settled holds when the model knows a key's effective value: the
# platform does not manage it, and it is written, or the file is a whole
# .properties configuration where an absent key takes Kafka's default.
# Elsewhere an absent key may be set by the platform or the image (a
# Confluent image derives listeners from advertised.listeners, a Helm
# chart writes the protocol map).
_settled(node, key) if {
	not key in node.managed_keys
	settings.explicit(node, key)
}

_settled(node, key) if _full_file(node, key)

# A whole .properties file whose platform manages nothing settles every key
# (the common case, checked before the key-by-key test).
_all_settled(node, _) if {
	node.whole_configuration
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

# _number is {value, note, setting?}: the written number, else Kafka's
# default; undefined for a placeholder or an invalid value, and when neither
# key of a check is written the defaults are consistent anyway.
_number(node, key, fallback) := {"value": s.value, "note": "", "setting": s} if {
	s := node.settings[key]
	settings.explicit_value(s)
	is_number(s.value)
} else := {"value": fallback, "note": " (Kafka's default)"} if {
	not settings.explicit(node, key)
	not key in node.managed_keys
}

# _pair_anchor is where a finding about two values ({value, setting?}) is
# reported: the first one that is written.
_pair_anchor(a, _) := a.setting

_pair_anchor(a, b) := b.setting if not a.setting

# _entries are the entries of a comma-separated value, trimmed, without
# empty ones.
_entries(raw) := [trim_space(e) | some e in split(raw, ","); trim_space(e) != ""]

# _refused gives a finding its own why and fix: what the configuration does
# (context, one or two sentences), then what Kafka says, word for word, so
# that it can be found in Kafka's source and in the node's log.
_refused(finding, context, words, fix) := result.explain(
	finding,
	sprintf("%s Kafka %s refuses to start (\"%s\").", [context, input.kafka_version, words]),
	fix,
)

# _cut is a part of a value (an entry, a list of names) for a message. The
# engine cuts whole values at 60 characters (policies/redact.go) but not
# their parts, so a long part is cut here with "…"; the why quotes it whole.
_cut(text) := text if count(text) <= 40

_cut(text) := concat("", [substring(text, 0, 40), "…"]) if count(text) > 40

# _defaults_sentence says which of the values a message quotes are Kafka's
# defaults (items: "key=value" texts): "" when none is, else a sentence for
# the why, after a space.
_defaults_sentence(items) := "" if count(items) == 0

_defaults_sentence(items) := sprintf(" %s is Kafka's default.", items) if count(items) == 1

_defaults_sentence(items) := sprintf(" %s are Kafka's defaults.", [concat(" and ", items)]) if count(items) > 1

# _number_defaults are the "key=value" texts of the _number values ([key,
# number] pairs) that are Kafka's defaults.
_number_defaults(pairs) := [sprintf("%s=%d", [p[0], p[1].value]) | some p in pairs; p[1].note != ""]
