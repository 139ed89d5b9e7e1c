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
package kafkalint.rules.hygiene["unknown-key"]

import data.kafkalint.lib.result

# The loader decides what is unknown (loader/validate.go): only for the
# cluster's exact catalogued release line, never for listener-prefixed,
# config-provider, authorizer or vendor keys, and for clients only near
# misses, keys of another kind and 0.8-era keys (a client's file also feeds
# its serializers and the application). The value plays no part, so a
# placeholder value does not matter; nothing of it is printed.
report contains result.fail(s, _message(s, "broker or controller", "Kafka ignores unknown keys without a warning")) if {
	some node in input.nodes
	some s in node.settings
	s.key_status == "unknown"
}

report contains result.fail(s, _message(s, _client_kind(client.kind), "the client logs it as unused and ignores it")) if {
	some client in input.clients
	some s in client.settings
	s.key_status == "unknown"
}

report contains result.fail(s, _message(s, "MirrorMaker 2", "MirrorMaker 2 ignores it")) if {
	some mm in input.mirror_makers
	some s in mm.settings
	s.key_status == "unknown"
}

report contains result.fail(s, _message(s, "topic", "Kafka does not apply it")) if {
	some topic in input.topics
	some s in topic.settings
	s.key_status == "unknown"
}

_client_kind("client") := "client"

_client_kind(kind) := kind if kind != "client"

_message(s, kind, effect) := sprintf(
	"%s is not a %s configuration key in Kafka %s, so %s and the setting it was meant for keeps its default%s",
	[s.key, kind, input.kafka_version, effect, _advice(s)],
)

# _advice says what the key most likely is; the loader leaves out fields it
# has nothing for.
_advice(s) := concat("", [
	_known_for(s),
	_added_in(s),
	_suggestion(s),
])

_known_for(s) := sprintf(": it is a %s setting, which this file does not configure", [concat(" and ", s.known_for)]) if count(object.get(s, "known_for", [])) > 0

_known_for(s) := "" if count(object.get(s, "known_for", [])) == 0

_added_in(s) := sprintf("; it was added in Kafka %s, so upgrade first or remove it", [s.added_in]) if object.get(s, "added_in", "") != ""

_added_in(s) := "" if object.get(s, "added_in", "") == ""

_suggestion(s) := sprintf("; did you mean %s?", [s.suggestion]) if object.get(s, "suggestion", "") != ""

_suggestion(s) := "; fix the name, or remove the line if no plugin reads it" if {
	object.get(s, "suggestion", "") == ""
	object.get(s, "added_in", "") == ""
}

_suggestion(s) := "" if {
	object.get(s, "suggestion", "") == ""
	object.get(s, "added_in", "") != ""
}
