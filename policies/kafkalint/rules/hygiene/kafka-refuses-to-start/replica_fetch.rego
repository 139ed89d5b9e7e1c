package kafkalint.rules.hygiene["kafka-refuses-to-start"]

import data.kafkalint.lib.result

# Replica fetching (KafkaConfig.validateValues).

report contains _refused(result.fail(anchor, message), context, words, fix) if {
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
		"replica.fetch.wait.max.ms=%d is above %s",
		[wait.value, concat(" and ", [sprintf("%s=%d", [l.key, l.value]) | some l in limits])],
	)
	defaults := [sprintf("%s=%d", [s.key, s.value]) | some s in array.concat([wait], limits); s.source == "default"]
	context := sprintf(
		"A follower's fetch may wait replica.fetch.wait.max.ms, so replica.lag.time.max.ms and replica.socket.timeout.ms must be at least that long.%s",
		[_defaults_sentence(defaults)],
	)
	words := "replica.fetch.wait.max.ms should always be less than or equal to replica.lag.time.max.ms"
	fix := "Keep replica.fetch.wait.max.ms (default 500) at or below both replica.lag.time.max.ms and replica.socket.timeout.ms."
}

# --- helpers ------------------------------------------------------------------

# Anchored at replica.fetch.wait.max.ms when written, else at the limit
# that is (a file writing none of them keeps Kafka's consistent defaults).
_timing_anchor(wait, _) := [wait] if wait.source == "explicit"

_timing_anchor(wait, limits) := [l | some l in limits; l.source == "explicit"] if wait.source != "explicit"
