package kafkalint.rules.kraft["broker-exposes-controller-listener_test"]

import data.kafkalint.lib.result
import data.kafkalint.lib.testing as t
import data.kafkalint.rules.kraft["broker-exposes-controller-listener"] as rule

_map := "listener.security.protocol.map"

_broker(names, listeners) := t.with_listeners(t.with_controller_names(t.node("b1.properties", ["broker"], []), names, 5), listeners, 4)

_exposed(file, line, subject, listeners, exposed, names) := result.explain(
	t.finding(file, line, "listeners", sprintf("%s binds the controller listener %s: Kafka refuses to start a broker-only node", [subject, exposed])),
	sprintf(
		"%s binds %s, which controller.listener.names=%s names as the controller listener. Kafka refuses to start the node: \"controller.listener.names must not contain a value appearing in the 'listeners' configuration when running KRaft with just the broker role\". A broker only connects to the controllers through that name; it never serves the quorum.",
		[listeners, exposed, names],
	),
	sprintf("Remove %s from listeners (the controllers bind it) and keep it in controller.listener.names.", [exposed]),
)

_missing(line, state) := result.explain(
	t.finding("b1.properties", line, "controller.listener.names", sprintf("controller.listener.names %s on this broker-only node: Kafka refuses to start it", [state])),
	"A broker needs controller.listener.names to know how to reach the controllers. Kafka refuses to start it without one: \"controller.listener.names must contain at least one value when running KRaft with just the broker role\" (from Kafka 4.2 the key is required).",
	"Set it to the controllers' listener name (for example controller.listener.names=CONTROLLER), and map that name in listener.security.protocol.map if the map is set.",
)

_unmapped(raw, name) := result.explain(
	t.finding("b1.properties", 7, _map, sprintf("listener.security.protocol.map does not map the controller listener %s: Kafka refuses to start it", [name])),
	sprintf(
		"listener.security.protocol.map=%s is written in the file, so it replaces the implicit map and every listener name needs an entry, including the controller listener %s named in controller.listener.names. Kafka refuses to start the broker: \"Controller listener with name %s defined in controller.listener.names not found in listener.security.protocol.map\".",
		[raw, name, name],
	),
	sprintf("Add %s:{protocol} to listener.security.protocol.map, with the protocol the controllers use for that listener.", [name]),
)

test_fail_broker_binds_the_controller_listener if {
	node := _broker("CONTROLLER", "PLAINTEXT://b1:9092,CONTROLLER://b1:9093")
	finding := _exposed("b1.properties", 4, "listeners", "listeners=PLAINTEXT://b1:9092,CONTROLLER://b1:9093", "CONTROLLER", "CONTROLLER")
	rule.report == {finding} with input as t.cluster([node], [])
}

test_fail_default_listeners_are_the_controller_listener if {
	node := t.with_controller_names(t.node("b1.properties", ["broker"], [["listeners", "PLAINTEXT://:9092", 0]]), "PLAINTEXT", 5)
	finding := _exposed("b1.properties", 1, "listeners (default PLAINTEXT://:9092)", "Kafka's default listeners=PLAINTEXT://:9092 (listeners is not set)", "PLAINTEXT", "PLAINTEXT")
	rule.report == {finding} with input as t.cluster([node], [])
}

test_fail_controller_listener_names_absent if {
	node := t.with_listeners(t.node("b1.properties", ["broker"], []), "PLAINTEXT://b1:9092", 4)
	rule.report == {_missing(1, "is not set")} with input as t.cluster([node], [])
}

test_fail_controller_listener_names_blank if {
	node := t.with_listeners(t.node("b1.properties", ["broker"], [["controller.listener.names", "", 6]]), "PLAINTEXT://b1:9092", 4)
	rule.report == {_missing(6, "is empty")} with input as t.cluster([node], [])
}

test_fail_controller_listener_unmapped_in_an_explicit_map if {
	node := t.with_settings(_broker("CONTROLLER", "INTERNAL://b1:9092"), [[_map, "INTERNAL:SSL", 7]])
	rule.report == {_unmapped("INTERNAL:SSL", "CONTROLLER")} with input as t.cluster([node], [])
}

test_success_correct_broker if {
	mapped := t.with_protocol_map(
		t.with_settings(_broker("CONTROLLER", "PLAINTEXT://b1:9092"), [[_map, "PLAINTEXT:PLAINTEXT,controller:SSL", 7]]),
		{"PLAINTEXT": "PLAINTEXT", "CONTROLLER": "SSL"},
	)
	implicit := _broker("CONTROLLER", "PLAINTEXT://b1:9092")
	count(rule.report) == 0 with input as t.cluster([mapped, implicit], [])
}

test_success_controllers_and_combined_nodes_bind_it if {
	controller := t.with_listeners(t.with_controller_names(t.node("c1.properties", ["controller"], []), "CONTROLLER", 5), "CONTROLLER://c1:9093", 4)
	combined := t.with_listeners(t.with_controller_names(t.node("x1.properties", ["broker", "controller"], []), "CONTROLLER", 5), "PLAINTEXT://:9092,CONTROLLER://:9093", 4)
	count(rule.report) == 0 with input as t.cluster([controller, combined], [])
}

test_success_zookeeper_mode_broker if {
	count(rule.report) == 0 with input as t.cluster([t.node("server.properties", [], [["broker.id", 0, 2]])], [])
}

test_success_default_protocol_map if {
	node := t.with_settings(_broker("CONTROLLER", "INTERNAL://b1:9092"), [[_map, "PLAINTEXT:PLAINTEXT,SSL:SSL,SASL_PLAINTEXT:SASL_PLAINTEXT,SASL_SSL:SASL_SSL", 0]])
	count(rule.report) == 0 with input as t.cluster([node], [])
}

test_success_unknown_placeholder if {
	names := object.union(t.with_listeners(t.node("b1.properties", ["broker"], []), "CONTROLLER://b1:9093", 4), {"settings": {"controller.listener.names": t.unknown_setting("b1.properties", "controller.listener.names", "${env:NAMES}", 5)}})
	listeners := object.union(t.with_controller_names(t.node("b2.properties", ["broker"], []), "CONTROLLER", 5), {"settings": {"listeners": t.unknown_setting("b2.properties", "listeners", "${env:LISTENERS}", 4)}})
	protocol_map := object.union(_broker("CONTROLLER", "PLAINTEXT://b3:9092"), {"file": "b3.properties", "protocol_map_unknown": true, "settings": {_map: t.unknown_setting("b3.properties", _map, "${env:MAP}", 7)}})
	count(rule.report) == 0 with input as t.cluster([names, listeners, protocol_map], [])
}

test_success_key_absent_from_another_format_or_managed if {
	node := t.with_listeners(t.node("b1.properties", ["broker"], []), "PLAINTEXT://b1:9092", 4)
	count(rule.report) == 0 with input as t.cluster([object.union(node, {"whole_configuration": false})], [])
	managed := object.union(node, {"managed_keys": ["controller.listener.names", "listeners"]})
	count(rule.report) == 0 with input as t.cluster([managed], [])
}

# Built with the loader (kafkalint.parse), not fixtures: a broker-only node binds its controller listener.
test_loader_broker_exposes_controller_listener if {
	reports := rule.report with input as kafkalint.parse("", "prod/kafka/server.properties", `process.roles=broker
node.id=4
controller.quorum.voters=1@c1:9093,2@c2:9093,3@c3:9093
controller.listener.names=CONTROLLER
listeners=SSL://:9092,CONTROLLER://:9093
`)
	{[f.location.file, f.location.line, object.get(f, "key", "")] | some f in reports} == {["prod/kafka/server.properties", 5, "listeners"]}
}
