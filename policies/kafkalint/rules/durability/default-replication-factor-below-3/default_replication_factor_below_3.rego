# METADATA
# title: Automatically created topics get fewer than 3 replicas
# description: |
#   TODO: what the rule finds, what it costs in production, and when it does
#   not apply. As scaffolded, it reports brokers that keep log segments
#   longer than a year: replace that check with yours.
# related_resources:
#   - description: TODO the Kafka docs of the keys the rule reads
#     ref: https://kafka.apache.org/documentation/#brokerconfigs_log.retention.hours
# schemas:
#   - input: schema.cluster
# custom:
#   id: KFK1011
#   severity: warning
#   scope: production
#   applies_to: [broker]
#   keys: [log.retention.hours]
#   since: unreleased
package kafkalint.rules.durability["default-replication-factor-below-3"]

import data.kafkalint.lib.result

# custom.keys lists log.retention.hours, so a broker that does not set it
# has Kafka's default (168, source "default") in the model; a key a rule
# reads must be listed there. A value kafkalint cannot know (a
# ${provider:...} placeholder) has no value: the rule stays silent.
report contains result.fail(s, message) if {
	some node in input.nodes
	node.is_broker
	s := node.settings["log.retention.hours"]
	is_number(s.value)
	s.value > 8760
	message := sprintf(
		"log.retention.hours=%d keeps data longer than a year: TODO say what that costs and how to fix it",
		[s.value],
	)
}
