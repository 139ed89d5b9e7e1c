package kafkalint.rules.security["plaintext-listener-in-production_test"]

import data.kafkalint.lib.testing as t
import data.kafkalint.rules.security["plaintext-listener-in-production"] as rule

_f := "server.properties"

_broker := t.node(_f, ["broker"], [["security.inter.broker.protocol", "PLAINTEXT", 0]])

_with(node, key, entries, line) := object.union(node, {
	{"listeners": "listeners", "advertised.listeners": "advertised_listeners"}[key]: [t.listener(_f, line, e[0], e[1]) | some e in entries],
	"settings": {key: t.list_setting(_f, key, concat(",", [e[0] | some e in entries]), line)},
})

test_fail_single_plaintext_listener if {
	node := _with(_broker, "listeners", [["PLAINTEXT://broker-1.prod.example.com:9092", "PLAINTEXT"]], 4)
	rule.report == {object.union(
		t.finding(_f, 4, "listeners", "listener PLAINTEXT (PLAINTEXT://broker-1.prod.example.com:9092) is PLAINTEXT: unencrypted and unauthenticated"),
		{
			"why": "Clients of PLAINTEXT://broker-1.prod.example.com:9092 connect unauthenticated as the ANONYMOUS principal and every record crosses the network in clear text.",
			"fix": "Serve clients on SSL or SASL_SSL, for example PLAINTEXT://...:9093 with PLAINTEXT:SASL_SSL in listener.security.protocol.map.",
		},
	)} with input as t.cluster([node], [])
}

test_fail_advertised_sasl_plaintext if {
	node := _with(
		_with(_broker, "listeners", [["CLIENT://:9092", "SASL_PLAINTEXT"]], 4),
		"advertised.listeners", [["CLIENT://kafka.example.com:9092", "SASL_PLAINTEXT"]], 5,
	)
	rule.report == {object.union(
		t.finding(_f, 5, "advertised.listeners", "listener CLIENT (CLIENT://kafka.example.com:9092) is SASL_PLAINTEXT: unencrypted"),
		{
			"why": "Clients of CLIENT://kafka.example.com:9092 authenticate, but the SASL exchange (a PLAIN password included) and every record cross the network in clear text.",
			"fix": "Serve clients on SSL or SASL_SSL, for example CLIENT://...:9093 with CLIENT:SASL_SSL in listener.security.protocol.map.",
		},
	)} with input as t.cluster([node], [])
}

# A long listener is left to the why: the message names the listener only.
test_fail_long_listener_is_quoted_in_the_why if {
	raw := "EXTERNAL://kafka-broker-0.kafka-headless.kafka-production.svc.cluster.local:9094"
	node := _with(_broker, "listeners", [[raw, "PLAINTEXT"], ["SSL://b:9093", "SSL"]], 4)
	some f in rule.report with input as t.cluster([node], [])
	f.message == "listener EXTERNAL is PLAINTEXT: unencrypted and unauthenticated"
	contains(f.why, raw)
}

test_success_internal_replication_listener_beside_tls_client_listener if {
	node := t.with_setting(
		_with(_broker, "listeners", [["INTERNAL://b:9091", "PLAINTEXT"], ["EXTERNAL://b:9093", "SASL_SSL"]], 4),
		t.setting(_f, "inter.broker.listener.name", "INTERNAL", 6),
	)
	count(rule.report) == 0 with input as t.cluster([node], [])
}

test_fail_inter_broker_listener_is_the_only_one if {
	node := t.with_setting(_with(_broker, "listeners", [["INTERNAL://b:9091", "PLAINTEXT"]], 4), t.setting(_f, "inter.broker.listener.name", "INTERNAL", 6))
	count(rule.report) == 1 with input as t.cluster([node], [])
}

test_success_controller_listener if {
	node := object.union(
		t.node("controller.properties", ["controller"], []),
		{"listeners": [t.listener("controller.properties", 3, "CONTROLLER://c:9093", "PLAINTEXT")], "controller_listener_names": ["CONTROLLER"]},
	)
	count(rule.report) == 0 with input as t.cluster([node], [])
}

test_success_tls_listener if {
	node := _with(_broker, "listeners", [["SSL://b:9093", "SSL"]], 4)
	count(rule.report) == 0 with input as t.cluster([node], [])
}

test_success_listeners_absent if {
	count(rule.report) == 0 with input as t.cluster([_broker], [])
}

test_success_unknown_placeholder if {
	node := t.with_setting(_broker, t.unknown_setting(_f, "listeners", "${env:LISTENERS}", 4))
	count(rule.report) == 0 with input as t.cluster([node], [])
}

test_success_loopback_listener if {
	node := _with(
		_with(_broker, "listeners", [["PLAINTEXT://:29092", "PLAINTEXT"], ["PLAINTEXT_HOST://:9092", "PLAINTEXT"]], 4),
		"advertised.listeners", [["PLAINTEXT_HOST://localhost:9092", "PLAINTEXT"], ["PLAINTEXT://127.0.0.1:29092", "PLAINTEXT"]], 5,
	)
	count(rule.report) == 0 with input as t.cluster([node], [])
}

_msk(value, line) := object.union(t.node("main.tf", ["broker"], []), {"platform": {"encryption_info.encryption_in_transit.client_broker": t.setting("main.tf", "encryption_info.encryption_in_transit.client_broker", value, line)}})

test_fail_msk_client_broker_plaintext if {
	rule.report == {object.union(
		t.finding("main.tf", 12, "encryption_info.encryption_in_transit.client_broker", "encryption_info.encryption_in_transit.client_broker = \"TLS_PLAINTEXT\" lets clients connect in clear text"),
		{
			"why": "Clients can connect to the managed cluster in clear text: every record (and any SASL/SCRAM exchange) crosses the network unencrypted.",
			"fix": "Set it to TLS.",
		},
	)} with input as t.cluster([_msk("TLS_PLAINTEXT", 12)], [])
}

test_success_msk_client_broker_tls if {
	count(rule.report) == 0 with input as t.cluster([_msk("TLS", 12)], [])
}

test_success_msk_client_broker_unknown if {
	node := object.union(t.node("main.tf", ["broker"], []), {"platform": {"encryption_info.encryption_in_transit.client_broker": t.unknown_setting("main.tf", "encryption_info.encryption_in_transit.client_broker", "${var.client_broker}", 12)}})
	count(rule.report) == 0 with input as t.cluster([node], [])
}

# Built with the loader (kafkalint.parse), not fixtures: a PLAINTEXT client listener.
test_loader_plaintext_listener_in_production if {
	reports := rule.report with input as kafkalint.parse("", "prod/kafka/server.properties", `process.roles=broker
node.id=4
controller.quorum.voters=1@c1:9093,2@c2:9093,3@c3:9093
controller.listener.names=CONTROLLER
listeners=PLAINTEXT://b4.example.com:9092
`)
	{[f.location.file, f.location.line, object.get(f, "key", "")] | some f in reports} == {["prod/kafka/server.properties", 5, "listeners"]}
}

# listener.security.protocol.map is a placeholder: the loader maps no
# listener, so none is judged. (The fixtures once gave a PLAINTEXT listener
# the protocol PLAINTEXT whatever the map said, and this rule fired.)
test_success_placeholder_protocol_map_from_the_loader if {
	c := kafkalint.parse("", "prod/kafka/server.properties", `listeners=PLAINTEXT://:9092
listener.security.protocol.map=${env:MAP}
`)
	c.nodes[0].protocol_map_unknown
	count(rule.report) == 0 with input as c
}

test_success_placeholder_protocol_map if {
	unknown := object.union(_broker, {"protocol_map": {}, "protocol_map_unknown": true})
	node := t.with_setting(t.with_listeners(unknown, "PLAINTEXT://:9092", 4), t.unknown_setting(_f, "listener.security.protocol.map", "${env:MAP}", 5))
	count(rule.report) == 0 with input as t.cluster([node], [])
}
