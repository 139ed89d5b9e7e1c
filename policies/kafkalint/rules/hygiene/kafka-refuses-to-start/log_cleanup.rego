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
report contains _refused(result.fail(s, message), context, words, fix) if {
	some node in input.nodes
	_writes_any(node, {"log.retention.ms", "log.retention.minutes", "log.retention.hours"})
	s := _retention(node)
	settings.explicit_value(s)
	s.value == 0
	message := sprintf("%s=0 sets the log retention to 0 ms", [s.key])
	context := sprintf("%s is the retention key that decides (log.retention.ms wins over log.retention.minutes, which wins over log.retention.hours), and a retention must be unlimited or at least 1 ms.", [s.key])
	words := "log.retention.ms must be unlimited (-1) or, greater than or equal to 1"
	fix := "Use -1 for unlimited retention or a positive time."
}

report contains _refused(result.fail(anchor, message), context, words, fix) if {
	some node in input.nodes
	_writes_any(node, {"log.cleaner.dedupe.buffer.size", "log.cleaner.threads"})
	size := _number(node, "log.cleaner.dedupe.buffer.size", 134217728)
	threads := _number(node, "log.cleaner.threads", 1)
	threads.value > 0
	floor(size.value / threads.value) <= 1048576
	anchor := _pair_anchor(size, threads)
	message := sprintf(
		"log.cleaner.dedupe.buffer.size=%d over log.cleaner.threads=%d leaves 1 MiB or less per thread",
		[size.value, threads.value],
	)
	context := sprintf(
		"The log cleaner splits its dedupe buffer among its threads, and each needs more than 1 MiB.%s",
		[_defaults_sentence(_number_defaults([["log.cleaner.dedupe.buffer.size", size], ["log.cleaner.threads", threads]]))],
	)
	words := "log.cleaner.dedupe.buffer.size must be at least 1MB per cleaner thread."
	fix := "Give every cleaner thread more than 1 MiB: raise log.cleaner.dedupe.buffer.size or lower log.cleaner.threads (the default is 128 MiB for 1 thread)."
}

# --- helpers ------------------------------------------------------------------

_retention(node) := node.settings["log.retention.ms"] if {
	settings.explicit(node, "log.retention.ms")
} else := node.settings["log.retention.minutes"] if {
	settings.explicit(node, "log.retention.minutes")
} else := node.settings["log.retention.hours"] if {
	settings.explicit(node, "log.retention.hours")
}
