package custom.acme["client-sasl-ssl_test"]

import data.custom.acme["client-sasl-ssl"] as rule

_producer(lines) := kafkalint.parse("properties", "prod/producer.properties", concat("\n", array.concat(
	["bootstrap.servers=kafka-1.example.com:9093", "acks=all"],
	lines,
)))

test_fail_ssl_without_sasl if {
	findings := rule.report with input as _producer(["security.protocol=SSL"])
	{[f.location.line, f.key] | some f in findings} == {[3, "security.protocol"]}
}

test_fail_not_set if {
	some f in rule.report with input as _producer([])
	f.location.line == 1
	startswith(f.message, "security.protocol is not set, so the client connects with Kafka's default PLAINTEXT")
}

test_success_sasl_ssl if {
	count(rule.report) == 0 with input as _producer(["security.protocol=SASL_SSL", "sasl.mechanism=SCRAM-SHA-512"])
}

test_success_lower_case if {
	count(rule.report) == 0 with input as _producer(["security.protocol=sasl_ssl"])
}

test_success_unknown_placeholder if {
	count(rule.report) == 0 with input as _producer(["security.protocol=${env:KAFKA_SECURITY_PROTOCOL}"])
}
