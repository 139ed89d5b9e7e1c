package kafkalint.rules.hygiene["kafka-refuses-to-start_test"]

import data.kafkalint.lib.testing as t

# Tests of producer.rego.

test_fail_delivery_timeout_below_linger_plus_request if {
	client := t.client("producer.properties", "producer", [["delivery.timeout.ms", 20000, 4], ["linger.ms", 5, 0], ["request.timeout.ms", 30000, 0]])
	reports := _reports(t.cluster([], [client]))
	reports == {object.union(t.finding("producer.properties", 4, "delivery.timeout.ms", "delivery.timeout.ms=20000 is below linger.ms=5 + request.timeout.ms=30000"), {
		"why": "A record's delivery time covers its linger and one request at least. linger.ms=5 and request.timeout.ms=30000 are Kafka's defaults. The producer fails when it is created (\"delivery.timeout.ms should be equal to or larger than linger.ms + request.timeout.ms\").",
		"fix": "Raise delivery.timeout.ms to at least 30005 (the default is 120000).",
	})}
}

test_success_delivery_timeout_default if {
	client := t.client("producer.properties", "producer", [["delivery.timeout.ms", 120000, 0], ["linger.ms", 5, 0], ["request.timeout.ms", 30000, 0]])
	_silent(t.cluster([], [client]))
}

test_success_delivery_timeout_placeholder if {
	client := t.with_setting(
		t.client("producer.properties", "producer", [["linger.ms", 5, 0], ["request.timeout.ms", 30000, 0]]),
		t.unknown_setting("producer.properties", "delivery.timeout.ms", "${env:TIMEOUT}", 4),
	)
	_silent(t.cluster([], [client]))
}

# --- two-phase commit

_two_pc(entries) := t.client("producer.properties", "producer", entries)

_clients(version, clients) := t.at_version(t.cluster([], clients), version)

test_fail_two_phase_commit_with_transaction_timeout if {
	c := _clients("4.1", [_two_pc([["transaction.two.phase.commit.enable", true, 2], ["transaction.timeout.ms", 60000, 3]])])
	some f in _reports(c)
	f.location.line == 3
	f.key == "transaction.timeout.ms"
	f.message == "transaction.timeout.ms is set with transaction.two.phase.commit.enable=true (line 2)"
	contains(f.why, "(\"Cannot set transaction.timeout.ms when transaction.two.phase.commit.enable is set to true. Transactions will not expire with two-phase commit enabled.\"), from Kafka 4.1 on.")
	f.fix == "Remove transaction.timeout.ms."
}

test_fail_two_phase_commit_with_transaction_timeout_placeholder if {
	base := _two_pc([["transaction.two.phase.commit.enable", true, 2]])
	c := _clients("4.3", [object.union(base, {"settings": {"transaction.timeout.ms": t.unknown_setting("producer.properties", "transaction.timeout.ms", "${env:T}", 3)}})])
	count(_reports(c)) == 1
}

test_success_two_phase_commit_without_timeout if _silent(_clients("4.3", [_two_pc([["transaction.two.phase.commit.enable", true, 2]])]))

test_success_two_phase_commit_off if {
	_silent(_clients("4.3", [_two_pc([["transaction.two.phase.commit.enable", false, 2], ["transaction.timeout.ms", 60000, 3]])]))
}

test_success_two_phase_commit_before_4_1 if {
	_silent(_clients("4.0", [_two_pc([["transaction.two.phase.commit.enable", true, 2], ["transaction.timeout.ms", 60000, 3]])]))
}
