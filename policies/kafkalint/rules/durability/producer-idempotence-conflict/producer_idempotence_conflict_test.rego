package kafkalint.rules.durability["producer-idempotence-conflict_test"]

import data.kafkalint.lib.result
import data.kafkalint.lib.testing as t
import data.kafkalint.rules.durability["producer-idempotence-conflict"] as rule

# _refused is the why of a combination Kafka refuses, with its error.
_refused(error) := sprintf("Kafka refuses the combination when the producer is created (\"%s\"), so the application fails at startup instead of sending anything.", [error])

_fails := ": the producer fails at startup"

_acks_finding(file, line, acks) := result.explain(
	t.finding(file, line, "acks", sprintf("acks=%s with enable.idempotence=true%s", [acks, _fails])),
	_refused("Must set acks to all in order to use the idempotent producer. Otherwise we cannot guarantee idempotence."),
	sprintf("Set acks=all, or set enable.idempotence=false if acks=%s is really intended.", [acks]),
)

_retries_finding(line) := result.explain(
	t.finding("producer.properties", line, "retries", concat("", ["retries=0 with enable.idempotence=true", _fails])),
	_refused("Must set retries to non-zero when using the idempotent producer."),
	"Remove retries (the default keeps retrying until delivery.timeout.ms), or set enable.idempotence=false if no retries is really intended.",
)

# _in_flight_finding: value in flight with idempotence (its words in the
# message), idempotence_why (the why's first sentence, or "") and Kafka's
# error.
_in_flight_finding(file, value, idempotence, idempotence_why, error) := result.explain(
	t.finding(file, 5, "max.in.flight.requests.per.connection", sprintf("max.in.flight.requests.per.connection=%v with %s%s", [value, idempotence, _fails])),
	concat("", [idempotence_why, _refused(error)]),
	"Set max.in.flight.requests.per.connection to 5 or less (the default is 5).",
)

_error_3x := "Must set max.in.flight.requests.per.connection to at most 5 to use the idempotent producer."

_error_4x := "To use the idempotent producer, max.in.flight.requests.per.connection must be set to at most 5. Current value is 10."

_by_default(version) := sprintf("enable.idempotence is not set, and on the target Kafka %s idempotence is on by default. ", [version])

_no_idempotence := _refused("Cannot set a transactional.id without also enabling idempotence.")

_transactional := "transactional.id=orders-tx makes the producer transactional, and transactions need idempotence."

# _cluster is a cluster of clients targeting version.
_cluster(version, clients) := t.at_version(t.cluster([], clients), version)

# _with_unknown adds a ${provider:...} placeholder setting to a client.
_with_unknown(client, key, line) := object.union(
	client,
	{"settings": {key: t.unknown_setting(client.file, key, "${env:VALUE}", line)}},
)

# Producer defaults as the loader adds them when a producer file leaves the keys out.
_defaults := [
	["enable.idempotence", true, 0],
	["acks", "all", 0],
	["retries", 2147483647, 0],
	["max.in.flight.requests.per.connection", 5, 0],
]

test_fail_acks_one_with_explicit_idempotence if {
	c := t.client("producer.properties", "producer", [["enable.idempotence", true, 2], ["acks", "1", 3]])
	rule.report == {_acks_finding("producer.properties", 3, "1")} with input as t.cluster([], [c])
}

test_fail_acks_zero_in_generic_client_file if {
	c := t.client("client.properties", "client", [["enable.idempotence", true, 2], ["acks", "0", 7]])
	rule.report == {_acks_finding("client.properties", 7, "0")} with input as t.cluster([], [c])
}

test_fail_retries_zero_with_explicit_idempotence if {
	c := t.client("producer.properties", "producer", [["enable.idempotence", true, 2], ["retries", 0, 4]])
	rule.report == {_retries_finding(4)} with input as t.cluster([], [c])
}

test_fail_in_flight_with_explicit_idempotence_on_3x if {
	c := t.client("producer.properties", "producer", [["enable.idempotence", true, 2], ["max.in.flight.requests.per.connection", 6, 5]])
	message := "max.in.flight.requests.per.connection=6 with enable.idempotence=true: the producer fails at startup"
	rule.report == {result.explain(t.finding("producer.properties", 5, "max.in.flight.requests.per.connection", message), _refused(_error_3x), "Set max.in.flight.requests.per.connection to 5 or less (the default is 5).")} with input as _cluster("3.9", [c])
}

test_fail_in_flight_with_explicit_idempotence_on_4x if {
	c := t.client("producer.properties", "producer", [["enable.idempotence", true, 2], ["max.in.flight.requests.per.connection", 10, 5]])
	rule.report == {_in_flight_finding("producer.properties", 10, "enable.idempotence=true", "", _error_4x)} with input as _cluster("4.0", [c])
}

test_fail_in_flight_with_default_idempotence_on_4x if {
	c := t.client("producer.properties", "producer", [["enable.idempotence", true, 0], ["max.in.flight.requests.per.connection", 10, 5]])
	rule.report == {_in_flight_finding("producer.properties", 10, "idempotence on by default", _by_default("4.3"), _error_4x)} with input as t.cluster([], [c])
}

test_fail_in_flight_with_absent_idempotence_in_client_file_on_4x if {
	# Generic client files get no defaults from the loader: the key is missing altogether.
	c := t.client("client.properties", "client", [["max.in.flight.requests.per.connection", 10, 5]])
	rule.report == {_in_flight_finding("client.properties", 10, "idempotence on by default", _by_default("4.1.2"), _error_4x)} with input as _cluster("4.1.2", [c])
}

test_fail_transactional_id_with_idempotence_disabled if {
	c := t.client("producer.properties", "producer", [["enable.idempotence", false, 2], ["transactional.id", "orders-tx", 3]])
	rule.report == {result.explain(
		t.finding("producer.properties", 3, "transactional.id", concat("", ["transactional.id with enable.idempotence=false", _fails])),
		concat(" ", [_transactional, _no_idempotence]),
		"Remove enable.idempotence=false, or remove transactional.id if the producer is not transactional.",
	)} with input as t.cluster([], [c])
}

test_fail_every_conflict_of_one_file if {
	c := t.client("producer.properties", "producer", [
		["enable.idempotence", true, 1],
		["acks", "1", 2],
		["retries", 0, 3],
		["max.in.flight.requests.per.connection", 10, 4],
	])
	rule.report == {
		_acks_finding("producer.properties", 2, "1"),
		_retries_finding(3),
		result.explain(
			t.finding("producer.properties", 4, "max.in.flight.requests.per.connection", concat("", ["max.in.flight.requests.per.connection=10 with enable.idempotence=true", _fails])),
			_refused(_error_4x),
			"Set max.in.flight.requests.per.connection to 5 or less (the default is 5).",
		),
	} with input as t.cluster([], [c])
}

test_success_explicit_idempotence_with_acks_all if {
	c := t.client("producer.properties", "producer", [["enable.idempotence", true, 2], ["acks", "all", 3], ["retries", 5, 4], ["max.in.flight.requests.per.connection", 5, 5]])
	count(rule.report) == 0 with input as t.cluster([], [c])
}

test_success_explicit_idempotence_with_acks_minus_one if {
	c := t.client("producer.properties", "producer", [["enable.idempotence", true, 2], ["acks", "-1", 3]])
	count(rule.report) == 0 with input as t.cluster([], [c])
}

test_success_idempotence_disabled_allows_everything if {
	c := t.client("producer.properties", "producer", [["enable.idempotence", false, 1], ["acks", "1", 2], ["retries", 0, 3], ["max.in.flight.requests.per.connection", 10, 4]])
	count(rule.report) == 0 with input as t.cluster([], [c])
}

test_success_default_idempotence_silently_disabled_by_acks if {
	# Kafka silently disables an implicit idempotence instead of failing.
	c := t.client("producer.properties", "producer", [["enable.idempotence", true, 0], ["acks", "1", 2], ["retries", 0, 3]])
	count(rule.report) == 0 with input as t.cluster([], [c])
}

test_success_default_idempotence_with_in_flight_on_3x if {
	# 3.2-3.9 silently disable an implicit idempotence (WARN) instead of failing.
	c := t.client("producer.properties", "producer", [["enable.idempotence", true, 0], ["max.in.flight.requests.per.connection", 10, 5]])
	count(rule.report) == 0 with input as _cluster("3.9", [c])
}

test_success_transactional_id_with_default_idempotence if {
	c := t.client("producer.properties", "producer", [["enable.idempotence", true, 0], ["transactional.id", "orders-tx", 3]])
	count(rule.report) == 0 with input as t.cluster([], [c])
}

test_success_consumer_file_is_not_checked if {
	c := t.client("consumer.properties", "consumer", [["enable.idempotence", true, 2], ["acks", "1", 3]])
	count(rule.report) == 0 with input as t.cluster([], [c])
}

test_success_all_keys_absent_take_defaults if {
	c := t.client("producer.properties", "producer", _defaults)
	count(rule.report) == 0 with input as t.cluster([], [c])
}

test_success_unknown_idempotence if {
	c := _with_unknown(
		t.client("producer.properties", "producer", [["acks", "1", 3], ["max.in.flight.requests.per.connection", 10, 4], ["transactional.id", "orders-tx", 5]]),
		"enable.idempotence", 2,
	)
	count(rule.report) == 0 with input as t.cluster([], [c])
}

test_success_unknown_conflicting_values if {
	base := t.client("producer.properties", "producer", [["enable.idempotence", true, 1]])
	c := _with_unknown(_with_unknown(_with_unknown(base, "acks", 2), "retries", 3), "max.in.flight.requests.per.connection", 4)
	count(rule.report) == 0 with input as t.cluster([], [c])
}

test_success_unknown_transactional_id if {
	c := _with_unknown(t.client("producer.properties", "producer", [["enable.idempotence", false, 1]]), "transactional.id", 2)
	count(rule.report) == 0 with input as t.cluster([], [c])
}

test_success_empty_transactional_id if {
	c := t.client("producer.properties", "producer", [["enable.idempotence", false, 1], ["transactional.id", "", 2]])
	count(rule.report) == 0 with input as t.cluster([], [c])
}

# transactional.id while the default idempotence is turned off by the producer
# itself (ProducerConfig.postProcessAndValidateIdempotenceConfigs).

test_fail_transactional_id_with_acks_one_and_default_idempotence if {
	c := t.client("producer.properties", "producer", [["enable.idempotence", true, 0], ["acks", "1", 2], ["transactional.id", "orders-tx", 3]])
	rule.report == {result.explain(
		t.finding("producer.properties", 3, "transactional.id", concat("", ["transactional.id with acks=1", _fails])),
		concat(" ", [_transactional, "enable.idempotence is not set and acks=1, so the producer turns its default idempotence off.", _no_idempotence]),
		"Remove acks=1, or remove transactional.id if the producer is not transactional.",
	)} with input as t.cluster([], [c])
}

test_fail_transactional_id_with_retries_zero_and_default_idempotence if {
	c := t.client("producer.properties", "producer", [["acks", "0", 2], ["retries", 0, 3], ["transactional.id", "orders-tx", 4]])
	some f in rule.report with input as t.cluster([], [c])
	f.location.line == 4
	f.message == "transactional.id with acks=0, retries=0: the producer fails at startup"
	contains(f.why, "enable.idempotence is not set and acks=0 and retries=0, so the producer turns its default idempotence off.")
	f.fix == "Remove acks=0 and retries=0, or remove transactional.id if the producer is not transactional."
}

test_fail_transactional_id_with_in_flight_on_3x if {
	c := t.client("producer.properties", "producer", [["max.in.flight.requests.per.connection", 6, 2], ["transactional.id", "orders-tx", 3]])
	some f in rule.report with input as _cluster("3.9", [c])
	f.location.line == 3
	f.message == "transactional.id with max.in.flight.requests.per.connection=6: the producer fails at startup"
}

test_success_transactional_id_in_flight_on_4x_is_the_in_flight_finding if {
	c := t.client("producer.properties", "producer", [["max.in.flight.requests.per.connection", 6, 2], ["transactional.id", "orders-tx", 3]])
	reports := rule.report with input as _cluster("4.3", [c])
	count(reports) == 1
	some f in reports
	f.key == "max.in.flight.requests.per.connection"
}

test_success_transactional_id_with_acks_all_and_default_idempotence if {
	c := t.client("producer.properties", "producer", [["acks", "all", 2], ["transactional.id", "orders-tx", 3]])
	count(rule.report) == 0 with input as t.cluster([], [c])
}

test_success_acks_one_without_transactional_id if {
	c := t.client("producer.properties", "producer", [["acks", "1", 2]])
	count(rule.report) == 0 with input as t.cluster([], [c])
}

test_success_transactional_id_placeholder_with_acks_one if {
	c := _with_unknown(t.client("producer.properties", "producer", [["acks", "1", 2]]), "transactional.id", 3)
	count(rule.report) == 0 with input as t.cluster([], [c])
}

# Built with the loader (kafkalint.parse), not fixtures: enable.idempotence=true with acks=1.
test_loader_producer_idempotence_conflict if {
	reports := rule.report with input as kafkalint.parse("", "prod/app/producer.properties", `bootstrap.servers=b1:9092
enable.idempotence=true
acks=1
`)
	{[f.location.file, f.location.line, object.get(f, "key", "")] | some f in reports} == {["prod/app/producer.properties", 3, "acks"]}
}
