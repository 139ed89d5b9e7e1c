package kafkalint.rules.hygiene["kafka-refuses-to-start"]

import data.kafkalint.lib.result
import data.kafkalint.lib.settings
import data.kafkalint.lib.version

# Producer configuration checked when the producer is created
# (ProducerConfig.postProcessAndValidateIdempotenceConfigs and the
# delivery.timeout.ms check of KafkaProducer).

# --- producer delivery timeout -------------------------------

report contains result.explain(result.fail(delivery, message), why, fix) if {
	some client in input.clients
	client.kind in {"producer", "client"}
	delivery := client.settings["delivery.timeout.ms"]
	settings.explicit_value(delivery)
	linger := client.settings["linger.ms"]
	request := client.settings["request.timeout.ms"]
	is_number(linger.value)
	is_number(request.value)
	delivery.value < linger.value + request.value
	message := sprintf(
		"delivery.timeout.ms=%d is below linger.ms=%d + request.timeout.ms=%d",
		[delivery.value, linger.value, request.value],
	)
	defaults := [sprintf("%s=%d", [s.key, s.value]) | some s in [linger, request]; settings.default_note(s) != ""]
	why := sprintf(
		"A record's delivery time covers its linger and one request at least.%s The producer fails when it is created (\"delivery.timeout.ms should be equal to or larger than linger.ms + request.timeout.ms\").",
		[_defaults_sentence(defaults)],
	)
	fix := sprintf("Raise delivery.timeout.ms to at least %d (the default is 120000).", [linger.value + request.value])
}

# --- producer two-phase commit (4.1+: ProducerConfig.postProcessAndValidateIdempotenceConfigs)

# Kafka checks that transaction.timeout.ms is present at all (originals
# containsKey), so its value, even a placeholder, does not matter.
report contains result.explain(result.fail(timeout, message), why, "Remove transaction.timeout.ms.") if {
	version.at_least(4, 1)
	some client in input.clients
	client.kind in {"producer", "client"}
	two_pc := client.settings["transaction.two.phase.commit.enable"]
	settings.explicit(client, "transaction.two.phase.commit.enable")
	two_pc.value == true
	timeout := client.settings["transaction.timeout.ms"]
	settings.explicit(client, "transaction.timeout.ms")
	message := sprintf("transaction.timeout.ms is set with transaction.two.phase.commit.enable=true (line %d)", [two_pc.location.line])
	why := sprintf(
		"With two-phase commit a transaction never expires, so it has no timeout to set. The producer fails when it is created (\"Cannot set transaction.timeout.ms when transaction.two.phase.commit.enable is set to true. Transactions will not expire with two-phase commit enabled.\"), from Kafka %s on.",
		[input.kafka_version],
	)
}
