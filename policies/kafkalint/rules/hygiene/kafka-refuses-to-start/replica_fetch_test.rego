package kafkalint.rules.hygiene["kafka-refuses-to-start_test"]

import data.kafkalint.lib.testing as t

# Tests of replica_fetch.rego.

test_fail_fetch_wait_above_lag_time if {
	node := t.with_setting(_broker, object.union(t.setting(_f, "replica.fetch.wait.max.ms", 40000, 8), {"type": "int"}))
	_refuses(_at("4.3", [node]), 8, "replica.fetch.wait.max.ms", "replica.fetch.wait.max.ms=40000 is above replica.lag.time.max.ms=30000 and replica.socket.timeout.ms=30000", "at least that long. replica.lag.time.max.ms=30000 and replica.socket.timeout.ms=30000 are Kafka's defaults. Kafka 4.3 refuses to start (\"replica.fetch.wait.max.ms should always be less than or equal to replica.lag.time.max.ms\").")
}

test_fail_lag_time_below_default_fetch_wait if {
	node := t.with_setting(_broker, t.setting(_f, "replica.lag.time.max.ms", 300, 8))
	_refuses(_at("4.3", [node]), 8, "replica.lag.time.max.ms", "replica.fetch.wait.max.ms=500 is above replica.lag.time.max.ms=300", "replica.fetch.wait.max.ms=500 is Kafka's default.")
}

test_success_fetch_timing_defaults if {
	_silent(_at("4.3", [_broker]))
}
