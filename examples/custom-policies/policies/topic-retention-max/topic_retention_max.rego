# METADATA
# title: Production topic keeps data longer than allowed
# description: |
#   A production topic sets retention.ms above the organization's maximum
#   (7 days unless data.kafkalint.params.custom.max_topic_retention_ms says
#   otherwise), or to -1, which keeps data forever: disks fill up and
#   personal data outlives its retention policy.
# related_resources:
#   - description: Kafka docs, retention.ms
#     ref: https://kafka.apache.org/documentation/#topicconfigs_retention.ms
# schemas:
#   - input: schema.cluster
# custom:
#   id: ACME001
#   severity: error
#   scope: production
#   applies_to: [topic]
#   keys: [retention.ms]
package custom.acme["topic-retention-max"]

import data.kafkalint.lib.result

# _max_ms is the longest retention allowed: the --data parameter, else 7 days.
_max_ms := object.get(data.kafkalint.params.custom, "max_topic_retention_ms", 604800000)

report contains result.fail(s, message) if {
	some topic in input.topics
	s := topic.settings["retention.ms"]

	# An unknown value (a Terraform variable only apply knows) has no value.
	is_number(s.value)
	_too_long(s.value)
	message := sprintf(
		"topic %s sets retention.ms=%d (%s): production topics keep data at most %s here; lower retention.ms, or ask for an exception and record it with a kafkalint:ignore directive",
		[topic.name, s.value, _days(s.value), _days(_max_ms)],
	)
}

_too_long(ms) if ms < 0

_too_long(ms) if ms > _max_ms

_days(ms) := "forever" if ms < 0

_days(ms) := sprintf("%v days", [round((ms / 86400000) * 10) / 10]) if ms >= 0
