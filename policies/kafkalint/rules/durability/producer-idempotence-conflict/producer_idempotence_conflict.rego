# METADATA
# title: Producer idempotence conflicts with acks, retries, in-flight requests or transactional.id
# description: |
#   The producer combines idempotence with a setting it cannot work with, so
#   Kafka throws a ConfigException when the producer is created and the
#   application fails at startup instead of sending anything.
# related_resources:
#   - description: Kafka docs, enable.idempotence
#     ref: https://kafka.apache.org/documentation/#producerconfigs_enable.idempotence
#   - description: Kafka docs, producer configs
#     ref: https://kafka.apache.org/documentation/#producerconfigs
# schemas:
#   - input: schema.cluster
# custom:
#   id: KFK1006
#   severity: error
#   scope: all
#   applies_to: [producer]
#   keys: [enable.idempotence, acks, retries, max.in.flight.requests.per.connection, transactional.id]
#   since: unreleased
#   fix: |
#     Keep idempotence (transactions need it): use acks=all, leave retries at
#     its default and keep max.in.flight.requests.per.connection at 5 or less.
#     Or, if the producer really must not be idempotent, set
#     enable.idempotence=false and remove transactional.id.
package kafkalint.rules.durability["producer-idempotence-conflict"]

import data.kafkalint.lib.result
import data.kafkalint.lib.settings
import data.kafkalint.lib.version

# Producer files, and generic client files that may hold producer keys.
_producer_kinds := {"producer", "client"}

# Explicit enable.idempotence=true with acks 0 or 1. An absent acks is not
# checked: its default is all (and up to 2.8 Kafka overrode its default of 1
# when idempotence was enabled).
report contains result.explain(result.fail(acks, message), why, fix) if {
	some client in input.clients
	client.kind in _producer_kinds
	_idempotence_explicitly(client, true)
	acks := client.settings.acks
	acks.source == "explicit"
	acks.value in {"0", "1"}
	message := sprintf("acks=%s with enable.idempotence=true: the producer fails at startup", [acks.value])
	why := _refused("Must set acks to all in order to use the idempotent producer. Otherwise we cannot guarantee idempotence.")
	fix := sprintf("Set acks=all, or set enable.idempotence=false if acks=%s is really intended.", [acks.value])
}

# Explicit enable.idempotence=true with retries=0.
report contains result.explain(result.fail(retries, message), why, fix) if {
	some client in input.clients
	client.kind in _producer_kinds
	_idempotence_explicitly(client, true)
	retries := client.settings.retries
	retries.source == "explicit"
	retries.value == 0
	message := "retries=0 with enable.idempotence=true: the producer fails at startup"
	why := _refused("Must set retries to non-zero when using the idempotent producer.")
	fix := "Remove retries (the default keeps retrying until delivery.timeout.ms), or set enable.idempotence=false if no retries is really intended."
}

# Idempotence on (explicitly, or by default on Kafka 4.0+) with more than 5
# requests in flight. On 3.x an implicit idempotence is silently disabled
# instead, which this rule does not report.
report contains result.explain(result.fail(in_flight, message), why, fix) if {
	some client in input.clients
	client.kind in _producer_kinds
	in_flight := client.settings["max.in.flight.requests.per.connection"]
	in_flight.value > 5
	idempotence := _idempotence_on(client)
	message := sprintf("max.in.flight.requests.per.connection=%v with %s: the producer fails at startup", [in_flight.value, idempotence.short])
	why := sprintf("%s%s", [idempotence.why, _refused(_in_flight_error(in_flight.value))])
	fix := "Set max.in.flight.requests.per.connection to 5 or less (the default is 5)."
}

# transactional.id with an explicit enable.idempotence=false. The message
# does not quote the id (its presence is the conflict, and a long one would
# crowd the line); the why does.
report contains result.explain(result.fail(transactional_id, message), why, fix) if {
	some client in input.clients
	client.kind in _producer_kinds
	_idempotence_explicitly(client, false)
	transactional_id := client.settings["transactional.id"]
	transactional_id.source == "explicit"
	transactional_id.value != ""
	message := "transactional.id with enable.idempotence=false: the producer fails at startup"
	why := sprintf(
		"transactional.id=%s makes the producer transactional, and transactions need idempotence. %s",
		[transactional_id.value, _refused(_no_idempotence)],
	)
	fix := "Remove enable.idempotence=false, or remove transactional.id if the producer is not transactional."
}

# transactional.id while enable.idempotence is not set and the producer
# turns the default idempotence off itself (ProducerConfig.
# postProcessAndValidateIdempotenceConfigs): acks 0 or 1, retries=0 and, up
# to 3.9, more than 5 requests in flight (4.0 refuses that on its own,
# above). Kafka checks transactional.id after that, so the producer fails.
report contains result.explain(result.fail(transactional_id, message), why, fix) if {
	some client in input.clients
	client.kind in _producer_kinds
	not settings.explicit(client, "enable.idempotence")
	transactional_id := client.settings["transactional.id"]
	transactional_id.source == "explicit"
	not transactional_id.unknown
	causes := array.concat(array.concat(_acks_disables(client), _retries_disable(client)), _in_flight_disables(client))
	count(causes) > 0
	message := sprintf("transactional.id with %s: the producer fails at startup", [concat(", ", causes)])
	why := sprintf(
		"transactional.id=%s makes the producer transactional, and transactions need idempotence. enable.idempotence is not set and %s, so the producer turns its default idempotence off. %s",
		[transactional_id.raw, concat(" and ", causes), _refused(_no_idempotence)],
	)
	fix := sprintf("Remove %s, or remove transactional.id if the producer is not transactional.", [concat(" and ", causes)])
}

# Each is [the cause] or [].
_acks_disables(client) := [sprintf("acks=%s", [acks.value])] if {
	acks := client.settings.acks
	acks.source == "explicit"
	acks.value in {"0", "1"}
} else := []

_retries_disable(client) := ["retries=0"] if {
	retries := client.settings.retries
	retries.source == "explicit"
	retries.value == 0
} else := []

_in_flight_disables(client) := [sprintf("max.in.flight.requests.per.connection=%v", [in_flight.value])] if {
	not version.at_least(4, 0)
	in_flight := client.settings["max.in.flight.requests.per.connection"]
	in_flight.source == "explicit"
	in_flight.value > 5
} else := []

# _idempotence_explicitly holds when the file writes enable.idempotence with
# a known value equal to value.
_idempotence_explicitly(client, value) if {
	setting := client.settings["enable.idempotence"]
	setting.source == "explicit"
	setting.value == value
}

# _idempotence_on describes why idempotence is on, in a few words for the
# message and in a sentence (or nothing) for the why; undefined when it is
# off, unknown, or only on by a default that Kafka may still silently
# disable.
_idempotence_on(client) := {"short": "enable.idempotence=true", "why": ""} if _idempotence_explicitly(client, true)

_idempotence_on(client) := {
	"short": "idempotence on by default",
	"why": sprintf("enable.idempotence is not set, and on the target Kafka %s idempotence is on by default. ", [input.kafka_version]),
} if {
	not settings.explicit(client, "enable.idempotence")
	version.at_least(4, 0)
}

# _refused is the why of a combination the producer refuses, with Kafka's
# error.
_refused(error) := sprintf("Kafka refuses the combination when the producer is created (\"%s\"), so the application fails at startup instead of sending anything.", [error])

_no_idempotence := "Cannot set a transactional.id without also enabling idempotence."

_in_flight_error(value) := sprintf("To use the idempotent producer, max.in.flight.requests.per.connection must be set to at most 5. Current value is %v.", [value]) if {
	version.at_least(4, 0)
}

_in_flight_error(_) := "Must set max.in.flight.requests.per.connection to at most 5 to use the idempotent producer." if {
	not version.at_least(4, 0)
}
