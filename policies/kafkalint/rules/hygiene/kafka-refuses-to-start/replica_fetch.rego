package kafkalint.rules.hygiene["kafka-refuses-to-start"]

import data.kafkalint.lib.result
import data.kafkalint.lib.settings

# Replica fetching (KafkaConfig.validateValues).

report contains result.fail(anchor, message) if {
	some node in input.nodes
	_all_settled(node, ["replica.fetch.wait.max.ms", "replica.lag.time.max.ms", "replica.socket.timeout.ms"])
	wait := node.settings["replica.fetch.wait.max.ms"]
	limits := [limit |
		some key in ["replica.lag.time.max.ms", "replica.socket.timeout.ms"]
		limit := node.settings[key]
		is_number(limit.value)
		is_number(wait.value)
		wait.value > limit.value
	]
	count(limits) > 0
	some anchor in _timing_anchor(wait, limits)
	message := sprintf(
		"replica.fetch.wait.max.ms=%d is above %s: Kafka %s refuses to start (\"replica.fetch.wait.max.ms should always be less than or equal to replica.lag.time.max.ms\"; replica.socket.timeout.ms must be at least replica.fetch.wait.max.ms too); keep replica.fetch.wait.max.ms (default 500) below both",
		[wait.value, concat(" and ", [sprintf("%s=%d%s", [l.key, l.value, settings.default_note(l)]) | some l in limits]), input.kafka_version],
	)
}

# --- helpers ------------------------------------------------------------------

# Anchored at replica.fetch.wait.max.ms when written, else at the limit
# that is (a file writing none of them keeps Kafka's consistent defaults).
_timing_anchor(wait, _) := [wait] if wait.source == "explicit"

_timing_anchor(wait, limits) := [l | some l in limits; l.source == "explicit"] if wait.source != "explicit"
