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
package kafkalint.rules.hygiene["invalid-value"]

import data.kafkalint.lib.result

# The loader checks the value (loader/validate.go): the key's ConfigDef type
# and the catalogue's validator for the cluster's exact release line, and
# sets invalid to Kafka's reason. Only keys known in that version count (a
# removed key's value is never read). A placeholder has no value and is
# never invalid. A password-type key has no validator, so a secret is never
# quoted.
report contains result.fail(s, _message(s, "the broker or controller refuses to start")) if {
	some node in input.nodes
	some s in node.settings
	s.invalid != "" # cheap, and false for almost every setting: test it before calling _invalid
	_invalid(s)
}

report contains result.fail(s, _message(s, "the client fails when the application creates it")) if {
	some client in input.clients
	some s in client.settings
	s.invalid != "" # cheap, and false for almost every setting: test it before calling _invalid
	_invalid(s)
}

report contains result.fail(s, _message(s, "the MirrorMaker 2 connectors reject the configuration and do not run")) if {
	some mm in input.mirror_makers
	some s in mm.settings
	s.invalid != "" # cheap, and false for almost every setting: test it before calling _invalid
	_invalid(s)
}

report contains result.fail(s, _message(s, "the topic cannot be created or altered with it")) if {
	some topic in input.topics
	some s in topic.settings
	s.invalid != "" # cheap, and false for almost every setting: test it before calling _invalid
	_invalid(s)
}

_invalid(s) if {
	s.source == "explicit"
	s.key_status == "known"
	s.invalid != ""
	not s.unknown
}

_message(s, effect) := sprintf(
	"%s=%s is not a valid value in Kafka %s (Invalid value %s for configuration %s: %s), so %s; fix the value",
	[s.key, trim_space(s.raw), input.kafka_version, trim_space(s.raw), s.key, s.invalid, effect],
)
