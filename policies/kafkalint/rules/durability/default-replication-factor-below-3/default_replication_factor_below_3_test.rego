package kafkalint.rules.durability["default-replication-factor-below-3_test"]

import data.kafkalint.lib.testing as t
import data.kafkalint.rules.durability["default-replication-factor-below-3"] as rule

_message := "log.retention.hours=9000 keeps data longer than a year: TODO say what that costs and how to fix it"

test_fail_above_a_year if {
	node := t.node("server.properties", ["broker"], [["log.retention.hours", 9000, 3]])
	rule.report == {t.finding("server.properties", 3, "log.retention.hours", _message)} with input as t.cluster([node], [])
}

test_success_a_week if {
	node := t.node("server.properties", ["broker"], [["log.retention.hours", 168, 3]])
	count(rule.report) == 0 with input as t.cluster([node], [])
}

# Line 0: the key is absent and the loader added Kafka's default.
test_success_key_absent if {
	node := t.node("server.properties", ["broker"], [["log.retention.hours", 168, 0]])
	count(rule.report) == 0 with input as t.cluster([node], [])
}

test_success_unknown_placeholder if {
	node := object.union(
		t.node("server.properties", ["broker"], []),
		{"settings": {"log.retention.hours": t.unknown_setting("server.properties", "log.retention.hours", "${env:RETENTION_HOURS}", 3)}},
	)
	count(rule.report) == 0 with input as t.cluster([node], [])
}

test_success_controller_only if {
	node := t.node("server.properties", ["controller"], [["log.retention.hours", 9000, 3]])
	count(rule.report) == 0 with input as t.cluster([node], [])
}
