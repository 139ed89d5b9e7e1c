package kafkalint.rules.kraft["combined-roles-in-production_test"]

import data.kafkalint.lib.result
import data.kafkalint.lib.testing as t
import data.kafkalint.rules.kraft["combined-roles-in-production"] as rule

_message(raw) := sprintf("process.roles=%s: broker and KRaft controller in one process", [raw])

_platform_fix := "Give the controllers and the brokers separate node groups, 3 or 5 controller-only nodes and broker-only nodes (Strimzi: a KafkaNodePool with roles [controller] and one with roles [broker]; Bitnami chart: controller.controllerOnly: true and broker.replicaCount). On a running cluster this is a quorum migration, not a one-line edit."

test_fail_broker_controller if {
	node := t.node("server.properties", ["broker", "controller"], [["process.roles", "broker,controller", 2]])
	rule.report == {t.finding("server.properties", 2, "process.roles", _message("broker,controller"))} with input as t.cluster([node], [])
}

test_fail_controller_broker_any_order if {
	node := t.node("server.properties", ["controller", "broker"], [["process.roles", "controller, broker", 7]])
	rule.report == {t.finding("server.properties", 7, "process.roles", _message("controller, broker"))} with input as t.cluster([node], [])
}

test_success_dedicated_roles if {
	nodes := [
		t.node("controller.properties", ["controller"], [["process.roles", "controller", 2]]),
		t.node("broker.properties", ["broker"], [["process.roles", "broker", 2]]),
	]
	count(rule.report) == 0 with input as t.cluster(nodes, [])
}

test_success_key_absent if {
	node := t.node("server.properties", [], [["process.roles", "", 0]])
	count(rule.report) == 0 with input as t.cluster([node], [])
}

test_success_unknown_placeholder if {
	node := object.union(
		t.node("server.properties", [], []),
		{
			"mode": "unknown",
			"is_broker": false,
			"settings": {"process.roles": t.unknown_setting("server.properties", "process.roles", "${env:ROLES}", 2)},
		},
	)
	count(rule.report) == 0 with input as t.cluster([node], [])
}

test_fail_node_pool_roles_name_the_field if {
	roles := object.union(t.setting("kafka.yaml", "process.roles", "controller,broker", 9), {"origin": "KafkaNodePool spec.roles", "origin_kind": "platform"})
	node := object.union(t.node("kafka.yaml", ["controller", "broker"], []), {"settings": {"process.roles": roles}})
	finding := result.explain(
		t.finding("kafka.yaml", 9, "process.roles", "process.roles=controller,broker from KafkaNodePool spec.roles: broker and KRaft controller in one process"),
		sprintf("The roles come from KafkaNodePool spec.roles. %s", [rule._why]),
		_platform_fix,
	)
	rule.report == {finding} with input as t.cluster([node], [])
}

test_fail_chart_default_points_at_the_file if {
	origin := "controller.controllerOnly (not set: the chart's default false makes every controller-eligible node a combined broker and controller)"
	roles := object.union(t.setting("values.yaml", "process.roles", "controller,broker", 1), {"origin": origin, "origin_kind": "platform"})
	node := object.union(t.node("values.yaml", ["controller", "broker"], []), {"settings": {"process.roles": roles}})
	findings := rule.report with input as t.cluster([node], [])
	count(findings) == 1
	some f in findings
	f.location.line == 1
	f.message == "process.roles=controller,broker from controller.controllerOnly: broker and KRaft controller in one process"
	startswith(f.why, "The roles come from controller.controllerOnly (not set: the chart's default false")
	f.fix == _platform_fix
}

test_fail_environment_variable_origin_keeps_the_properties_advice if {
	roles := object.union(t.setting("compose.yaml", "process.roles", "broker,controller", 14), {"origin": "KAFKA_PROCESS_ROLES", "origin_kind": "env"})
	node := object.union(t.node("compose.yaml", ["broker", "controller"], []), {"settings": {"process.roles": roles}})
	rule.report == {t.finding("compose.yaml", 14, "process.roles", _message("broker,controller"))} with input as t.cluster([node], [])
}

# Built with the loader (kafkalint.parse), not fixtures: process.roles from a compose environment variable.
test_loader_combined_roles_in_production if {
	reports := rule.report with input as kafkalint.parse("", "prod/docker-compose.yml", `services:
  kafka:
    image: apache/kafka:4.0.0
    environment:
      KAFKA_NODE_ID: 1
      KAFKA_PROCESS_ROLES: broker,controller
      KAFKA_CONTROLLER_QUORUM_VOTERS: 1@kafka:9093
`)
	{[f.location.file, f.location.line, object.get(f, "key", "")] | some f in reports} == {["prod/docker-compose.yml", 6, "process.roles"]}
}

# Built with the loader: process.roles from a KafkaNodePool's roles, a
# platform field (origin_kind platform), so the message names the field.
test_loader_node_pool_roles_name_the_field if {
	c := kafkalint.parse("", "prod/kafka.yaml", `apiVersion: kafka.strimzi.io/v1beta2
kind: KafkaNodePool
metadata:
  name: dual
  labels:
    strimzi.io/cluster: orders
spec:
  replicas: 3
  roles:
    - controller
    - broker
---
apiVersion: kafka.strimzi.io/v1beta2
kind: Kafka
metadata:
  name: orders
spec:
  kafka:
    version: 4.0.0
`)
	reports := rule.report with input as c
	count(reports) == 1
	some f in reports
	contains(f.message, "from KafkaNodePool spec.roles:")
	f.fix == _platform_fix
}
