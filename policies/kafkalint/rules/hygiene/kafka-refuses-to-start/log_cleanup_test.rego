package kafkalint.rules.hygiene["kafka-refuses-to-start_test"]

# Tests of log_cleanup.rego.

# --- log retention

test_fail_log_retention_ms_zero if {
	_refuses(_at("4.3", [_int(_quorum_broker, "log.retention.ms", 0, 9)]), 9, "log.retention.ms", "log.retention.ms=0 sets the log retention to 0 ms", "log.retention.ms must be unlimited (-1) or, greater than or equal to 1")
}

test_fail_log_retention_hours_zero if {
	_refuses(_at("3.8", [_int(_quorum_broker, "log.retention.hours", 0, 9)]), 9, "log.retention.hours", "log.retention.hours=0 sets", "Kafka 3.8 refuses to start (\"log.retention.ms must be unlimited")
}

test_success_log_retention_ms_wins_over_zero_minutes if {
	_silent(_at("4.3", [_int(_int(_quorum_broker, "log.retention.ms", -1, 9), "log.retention.minutes", 0, 10)]))
}

test_fail_log_retention_ms_zero_wins_over_minutes if {
	_refuses(_at("4.3", [_int(_int(_quorum_broker, "log.retention.ms", 0, 9), "log.retention.minutes", 30, 10)]), 9, "log.retention.ms", "log.retention.ms=0", "must be unlimited")
}

test_success_log_retention_absent if _silent(_at("4.3", [_quorum_broker]))

test_success_log_retention_placeholder if _silent(_at("4.3", [_unknown(_int(_quorum_broker, "log.retention.minutes", 0, 10), "log.retention.ms", 9)]))

# --- log cleaner

test_fail_dedupe_buffer_per_thread if {
	_refuses(_at("4.3", [_int(_quorum_broker, "log.cleaner.threads", 128, 9)]), 9, "log.cleaner.threads", "log.cleaner.dedupe.buffer.size=134217728 over log.cleaner.threads=128 leaves 1 MiB or less per thread", "more than 1 MiB. log.cleaner.dedupe.buffer.size=134217728 is Kafka's default. Kafka 4.3 refuses to start (\"log.cleaner.dedupe.buffer.size must be at least 1MB per cleaner thread.\").")
}

test_success_dedupe_buffer_enough if _silent(_at("4.3", [_int(_quorum_broker, "log.cleaner.threads", 8, 9)]))

test_success_dedupe_buffer_placeholder if _silent(_at("4.3", [_unknown(_int(_quorum_broker, "log.cleaner.threads", 128, 9), "log.cleaner.dedupe.buffer.size", 10)]))
