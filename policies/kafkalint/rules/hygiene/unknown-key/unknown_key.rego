# METADATA
# title: Key unknown to Kafka for this kind of configuration
# description: |
#   The key is not a configuration Kafka defines for this kind of file
#   (broker or controller, producer, consumer, admin client, topic,
#   MirrorMaker 2 connector) in the cluster's Kafka version. Kafka ignores it
#   without a word, so a typo or a key put in the wrong file silently leaves
#   the setting at its default.
# related_resources:
#   - description: Kafka docs, configuration reference
#     ref: https://kafka.apache.org/documentation/#configuration
# schemas:
#   - input: schema.cluster
# custom:
#   id: KFK9004
#   severity: warning
#   scope: all
#   applies_to: [broker, controller, producer, consumer, admin, client, topic, mirrormaker]
#   keys: []
#   since: unreleased
#   fix: |
#     Fix the name (the finding suggests the nearest known key when there is
#     one), or remove the line if no plugin reads it.
package kafkalint.rules.hygiene["unknown-key"]

import data.kafkalint.lib.result

# The loader decides what is unknown (loader/validate.go): only for the
# cluster's exact catalogued release line, never for listener-prefixed,
# config-provider, authorizer or vendor keys, and for clients only near
# misses, keys of another kind and 0.8-era keys (a client's file also feeds
# its serializers and the application). The value plays no part, so a
# placeholder value does not matter; nothing of it is printed. Each unit's
# flagged_keys hold its unknown keys (among others): the rule reads those
# settings, not every one.
report contains _finding(s, "broker or controller", "Kafka ignores unknown keys without a warning") if {
	some node in input.nodes
	some key in node.flagged_keys
	s := node.settings[key]
	s.key_status == "unknown"
}

report contains _finding(s, _client_kind(client.kind), "the client logs it as unused and ignores it") if {
	some client in input.clients
	some key in client.flagged_keys
	s := client.settings[key]
	s.key_status == "unknown"
}

report contains _finding(s, "MirrorMaker 2", "MirrorMaker 2 ignores it") if {
	some mm in input.mirror_makers
	some key in mm.flagged_keys
	s := mm.settings[key]
	s.key_status == "unknown"
}

report contains _finding(s, "topic", "Kafka does not apply it") if {
	some topic in input.topics
	some key in topic.flagged_keys
	s := topic.settings[key]
	s.key_status == "unknown"
}

_client_kind("client") := "client"

_client_kind(kind) := kind if kind != "client"

# The message keeps "did you mean KEY?" whole: the editor's quick fix
# reads the suggestion from it (lsp/features.go). What the key is for
# elsewhere is left to the why when the message would be too long.
_finding(s, kind, effect) := result.explain(
	result.fail(s, _message(s, kind)),
	sprintf(
		"Kafka %s defines no %s configuration key of that name, so %s and the setting it was meant for keeps its default.%s%s",
		[input.kafka_version, kind, effect, _known_for_why(s), _added_in_why(s)],
	),
	concat(" ", _fixes(s)),
)

_message(s, kind) := m if {
	m := concat("", [s.key, " is not a ", kind, " key", _version(s), _known_for(s), _suggestion(s)])
	count(m) <= 120
} else := concat("", [s.key, " is not a ", kind, " key", _version(s), _suggestion(s)])

# _version: the release matters in the message when the key exists in a
# newer one.
_version(s) := sprintf(" in Kafka %s (added in %s)", [input.kafka_version, s.added_in]) if _added(s)

_version(s) := "" if not _added(s)

_known_for(s) := sprintf(" (it is a %s setting)", [_list(s.known_for, "and")]) if _known_elsewhere(s)

_known_for(s) := "" if not _known_elsewhere(s)

_suggestion(s) := sprintf("; did you mean %s?", [s.suggestion]) if _suggested(s)

_suggestion(s) := "" if not _suggested(s)

_known_for_why(s) := sprintf(" It is a %s setting, which this file does not configure.", [_list(s.known_for, "and")]) if _known_elsewhere(s)

_known_for_why(s) := "" if not _known_elsewhere(s)

_added_in_why(s) := sprintf(" It was added in Kafka %s.", [s.added_in]) if _added(s)

_added_in_why(s) := "" if not _added(s)

# _fixes are the fix's sentences, in order: upgrade, rename, move; a key
# with neither a newer release nor a near name is a typo or a plugin's.
_fixes(s) := [f |
	some f in [
		_fix_added(s),
		_fix_suggestion(s),
		_fix_known_for(s),
		_fix_name(s),
	]
	f != ""
]

_fix_added(s) := sprintf("Upgrade to Kafka %s or later first, or remove the line.", [s.added_in]) if _added(s)

_fix_added(s) := "" if not _added(s)

_fix_suggestion(s) := sprintf("Rename it to %s if that is the key meant.", [s.suggestion]) if _suggested(s)

_fix_suggestion(s) := "" if not _suggested(s)

_fix_known_for(s) := sprintf("Set it in a %s configuration if it belongs there.", [_list(s.known_for, "or")]) if _known_elsewhere(s)

_fix_known_for(s) := "" if not _known_elsewhere(s)

_fix_name(s) := "Fix the name, or remove the line if no plugin reads it." if {
	not _suggested(s)
	not _added(s)
}

_fix_name(s) := "" if _suggested(s)

_fix_name(s) := "" if {
	not _suggested(s)
	_added(s)
}

# The loader leaves out the fields it has nothing for.
_added(s) if object.get(s, "added_in", "") != ""

_suggested(s) if object.get(s, "suggestion", "") != ""

_known_elsewhere(s) if count(object.get(s, "known_for", [])) > 0

# _list writes the kinds a key is known for as prose: "producer",
# "producer and consumer", "producer, consumer and admin".
_list(items, _) := items[0] if count(items) == 1

_list(items, conjunction) := sprintf("%s %s %s", [
	concat(", ", array.slice(items, 0, count(items) - 1)),
	conjunction,
	items[count(items) - 1],
]) if count(items) > 1
