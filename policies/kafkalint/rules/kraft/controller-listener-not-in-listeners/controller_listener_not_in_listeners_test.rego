package kafkalint.rules.kraft["controller-listener-not-in-listeners_test"]

import data.kafkalint.lib.result
import data.kafkalint.lib.testing as t
import data.kafkalint.rules.kraft["controller-listener-not-in-listeners"] as rule

_key := "controller.listener.names"

_node(roles, names, listeners) := t.with_listeners(t.with_controller_names(t.node("c1.properties", roles, []), names, 5), listeners, 4)

_finding(raw, names, verb, bound, first, related) := result.explain(
	t.finding_related("c1.properties", 5, _key, sprintf("%s in controller.listener.names %s: Kafka refuses to start it", [names, verb]), related),
	sprintf(
		"controller.listener.names=%s names %s, which %s (%s). Kafka refuses to start a controller with \"controller.listener.names must only contain values appearing in the 'listeners' configuration when running the KRaft controller role\": a controller must bind every controller listener it names.",
		[raw, names, verb, bound],
	),
	sprintf("Add a listener %s://{host}:{port} to listeners (and point this controller's voter entry at it), or correct the name in controller.listener.names.", [first]),
)

test_fail_controller_listener_not_bound if {
	node := _node(["controller"], "CONTROLLER", "CTRL://c1:9093")
	finding := _finding("CONTROLLER", "CONTROLLER", "is not a listener of this node", "listeners=CTRL://c1:9093", "CONTROLLER", [["c1.properties", 4]])
	rule.report == {finding} with input as t.cluster([node], [])
}

test_fail_combined_node_second_name_missing if {
	node := _node(["broker", "controller"], "CONTROLLER,CONTROLLER_SSL,OLD", "PLAINTEXT://:9092,CONTROLLER://:9093")
	finding := _finding("CONTROLLER,CONTROLLER_SSL,OLD", "CONTROLLER_SSL, OLD", "are not listeners of this node", "listeners=PLAINTEXT://:9092,CONTROLLER://:9093", "CONTROLLER_SSL", [["c1.properties", 4]])
	rule.report == {finding} with input as t.cluster([node], [])
}

test_fail_listeners_absent_binds_the_default if {
	node := t.with_controller_names(t.node("c1.properties", ["controller"], [["listeners", "PLAINTEXT://:9092", 0]]), "CONTROLLER", 5)
	finding := _finding("CONTROLLER", "CONTROLLER", "is not a listener of this node", "listeners is not set, so Kafka binds its default PLAINTEXT://:9092", "CONTROLLER", [])
	rule.report == {finding} with input as t.cluster([node], [])
}

test_success_every_name_bound if {
	nodes := [
		_node(["controller"], "CONTROLLER", "CONTROLLER://c1:9093"),
		_node(["controller"], "controller", "CONTROLLER://c1:9093"),
		_node(["broker", "controller"], "CONTROLLER", "PLAINTEXT://:9092,CONTROLLER://:9093"),
	]
	count(rule.report) == 0 with input as t.cluster(nodes, [])
}

test_success_default_listener_is_the_controller_listener if {
	node := t.with_controller_names(t.node("c1.properties", ["controller"], []), "PLAINTEXT", 5)
	count(rule.report) == 0 with input as t.cluster([node], [])
}

test_success_broker_only_is_kfk3016s if {
	node := _node(["broker"], "CONTROLLER", "PLAINTEXT://b1:9092")
	count(rule.report) == 0 with input as t.cluster([node], [])
}

test_success_key_absent if {
	node := t.with_listeners(t.node("c1.properties", ["controller"], []), "CONTROLLER://c1:9093", 4)
	count(rule.report) == 0 with input as t.cluster([node], [])
}

test_success_unknown_placeholder if {
	unknown_listeners := object.union(t.with_controller_names(t.node("c1.properties", ["controller"], []), "CONTROLLER", 5), {"settings": {"listeners": t.unknown_setting("c1.properties", "listeners", "${env:LISTENERS}", 4)}})
	unknown_names := object.union(t.with_listeners(t.node("c2.properties", ["controller"], []), "CTRL://c2:9093", 4), {"settings": {_key: t.unknown_setting("c2.properties", _key, "${env:NAMES}", 5)}})
	count(rule.report) == 0 with input as t.cluster([unknown_listeners, unknown_names], [])
}

test_success_unparsed_listener_entry if {
	node := object.union(t.with_controller_names(t.node("c1.properties", ["controller"], []), "CONTROLLER", 5), {
		"listeners": [{"name": "", "host": "", "port": 0, "protocol": "", "raw": "CONTROLLER//c1", "error": "unable to parse", "location": {"file": "c1.properties", "line": 4, "column": 1}}],
		"settings": {"listeners": t.list_setting("c1.properties", "listeners", "CONTROLLER//c1", 4)},
	})
	count(rule.report) == 0 with input as t.cluster([node], [])
}

# Built with the loader (kafkalint.parse), not fixtures: a controller binds no listener named in controller.listener.names.
test_loader_controller_listener_not_in_listeners if {
	reports := rule.report with input as kafkalint.parse("", "prod/kafka/controller.properties", `process.roles=controller
node.id=1
controller.quorum.voters=1@c1:9093,2@c2:9093,3@c3:9093
controller.listener.names=CONTROLLER
listeners=SSL://c1:9093
`)
	{[f.location.file, f.location.line, object.get(f, "key", "")] | some f in reports} == {["prod/kafka/controller.properties", 4, "controller.listener.names"]}
}
