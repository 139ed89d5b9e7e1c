package kafkalint.rules.hygiene["kafka-refuses-to-start"]

import data.kafkalint.lib.result
import data.kafkalint.lib.settings
import data.kafkalint.lib.version

# Producer configuration checked when the producer is created
# (ProducerConfig.postProcessAndValidateIdempotenceConfigs and the
# delivery.timeout.ms check of KafkaProducer).

# --- producer delivery timeout -------------------------------

report contains result.fail(delivery, message) if {
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
		"delivery.timeout.ms=%d is below linger.ms=%d%s + request.timeout.ms=%d%s: the producer fails when it is created (\"delivery.timeout.ms should be equal to or larger than linger.ms + request.timeout.ms\"); raise delivery.timeout.ms to at least %d (the default is 120000)",
		[delivery.value, linger.value, settings.default_note(linger), request.value, settings.default_note(request), linger.value + request.value],
	)
}

# --- producer two-phase commit (4.1+: ProducerConfig.postProcessAndValidateIdempotenceConfigs)

# Kafka checks that transaction.timeout.ms is present at all (originals
# containsKey), so its value, even a placeholder, does not matter.
report contains result.fail(timeout, message) if {
	version.at_least(4, 1)
	some client in input.clients
	client.kind in {"producer", "client"}
	two_pc := client.settings["transaction.two.phase.commit.enable"]
	settings.explicit(client, "transaction.two.phase.commit.enable")
	two_pc.value == true
	timeout := client.settings["transaction.timeout.ms"]
	settings.explicit(client, "transaction.timeout.ms")
	message := sprintf(
		"transaction.timeout.ms is set together with transaction.two.phase.commit.enable=true (line %d): the producer fails when it is created (\"Cannot set transaction.timeout.ms when transaction.two.phase.commit.enable is set to true. Transactions will not expire with two-phase commit enabled.\"); remove transaction.timeout.ms (Kafka %s)",
		[two_pc.location.line, input.kafka_version],
	)
}
