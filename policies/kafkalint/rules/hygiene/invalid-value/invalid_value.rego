# METADATA
# title: Value Kafka rejects
# description: |
#   The value does not parse as the key's type, is out of the key's range,
#   or is not one of its valid values in the cluster's Kafka version. Kafka
#   validates every defined key when it reads the configuration, so the
#   broker or controller refuses to start, the client cannot be created, or
#   the connector or topic configuration is rejected.
# related_resources:
#   - description: Kafka docs, configuration reference (types and valid values)
#     ref: https://kafka.apache.org/documentation/#configuration
# schemas:
#   - input: schema.cluster
# custom:
#   id: KFK9005
#   severity: error
#   scope: all
#   applies_to: [broker, controller, producer, consumer, admin, client, topic, mirrormaker]
#   keys: []
#   since: unreleased
#   fix: |
#     Write a value of the key's type within its valid values, as the reason
#     Kafka gives says.
package kafkalint.rules.hygiene["invalid-value"]

import data.kafkalint.lib.result

# The loader checks the value (loader/validate.go): the key's ConfigDef type
# and the catalogue's validator for the cluster's exact release line, and
# sets invalid to Kafka's reason. Only keys known in that version count (a
# removed key's value is never read). A placeholder has no value and is
# never invalid. A password-type key has no validator, so a secret is never
# quoted. A unit's invalid values are among its flagged_keys: the rule
# reads those settings, not every one.
report contains _finding(s, "the broker or controller refuses to start") if {
	some node in input.nodes
	some key in node.flagged_keys
	s := node.settings[key]
	s.invalid != "" # cheap: test it before calling _invalid
	_invalid(s)
}

report contains _finding(s, "the client fails when the application creates it") if {
	some client in input.clients
	some key in client.flagged_keys
	s := client.settings[key]
	s.invalid != "" # cheap: test it before calling _invalid
	_invalid(s)
}

report contains _finding(s, "the MirrorMaker 2 connectors reject the configuration and do not run") if {
	some mm in input.mirror_makers
	some key in mm.flagged_keys
	s := mm.settings[key]
	s.invalid != "" # cheap: test it before calling _invalid
	_invalid(s)
}

report contains _finding(s, "the topic cannot be created or altered with it") if {
	some topic in input.topics
	some key in topic.flagged_keys
	s := topic.settings[key]
	s.invalid != "" # cheap: test it before calling _invalid
	_invalid(s)
}

_invalid(s) if {
	s.source == "explicit"
	s.key_status == "known"
	s.invalid != ""
	not s.unknown
}

# The message names the value; the why quotes Kafka's error as Kafka
# prints it (ConfigException), and the fix its reason.
_finding(s, effect) := result.explain(
	result.fail(s, sprintf("%s=%s is not a valid value in Kafka %s", [s.key, trim_space(s.raw), input.kafka_version])),
	sprintf(
		"Kafka %s rejects it (Invalid value %s for configuration %s: %s), so %s.",
		[input.kafka_version, trim_space(s.raw), s.key, s.invalid, effect],
	),
	sprintf("Set %s to a value Kafka %s accepts: %s", [s.key, input.kafka_version, _sentence(s.invalid)]),
)

_sentence(text) := text if endswith(text, ".")

_sentence(text) := concat("", [text, "."]) if not endswith(text, ".")
