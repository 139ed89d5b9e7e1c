package kafkalint.rules.hygiene["kafka-refuses-to-start"]

import data.kafkalint.lib.result
import data.kafkalint.lib.settings

# Log cleanup (KafkaConfig.validateValues): the retention that decides must
# not be 0 ms, and the log cleaner needs more than 1 MiB of dedupe buffer
# per thread.

# --- log retention (KafkaConfig.validateValues, logRetentionTimeMillis) ----------

# log.retention.ms wins over log.retention.minutes, which wins over
# log.retention.hours (default 168); the one that decides must not resolve
# to 0 ms (negative means unlimited).
report contains result.fail(s, message) if {
	some node in input.nodes
	_writes_any(node, {"log.retention.ms", "log.retention.minutes", "log.retention.hours"})
	s := _retention(node)
	settings.explicit_value(s)
	s.value == 0
	message := sprintf(
		"%s=0 sets the log retention to 0 ms: Kafka %s refuses to start (\"log.retention.ms must be unlimited (-1) or, greater than or equal to 1\"); use -1 for unlimited retention or a positive time",
		[s.key, input.kafka_version],
	)
}

report contains result.fail(anchor, message) if {
	some node in input.nodes
	_writes_any(node, {"log.cleaner.dedupe.buffer.size", "log.cleaner.threads"})
	size := _number(node, "log.cleaner.dedupe.buffer.size", 134217728)
	threads := _number(node, "log.cleaner.threads", 1)
	threads.value > 0
	floor(size.value / threads.value) <= 1048576
	anchor := _pair_anchor(size, threads)
	message := sprintf(
		"log.cleaner.dedupe.buffer.size=%d%s over log.cleaner.threads=%d%s leaves 1 MiB or less per cleaner thread: Kafka %s refuses to start (\"log.cleaner.dedupe.buffer.size must be at least 1MB per cleaner thread.\"); give every cleaner thread more than 1 MiB (the default is 128 MiB for 1 thread)",
		[size.value, size.note, threads.value, threads.note, input.kafka_version],
	)
}

# --- helpers ------------------------------------------------------------------

_retention(node) := node.settings["log.retention.ms"] if {
	settings.explicit(node, "log.retention.ms")
} else := node.settings["log.retention.minutes"] if {
	settings.explicit(node, "log.retention.minutes")
} else := node.settings["log.retention.hours"] if {
	settings.explicit(node, "log.retention.hours")
}
