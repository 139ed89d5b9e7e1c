package kafkalint.rules.durability["default-replication-factor-below-3_test"]

import data.kafkalint.lib.testing as t
import data.kafkalint.rules.durability["default-replication-factor-below-3"] as rule

_fix := "Set default.replication.factor=3 (with min.insync.replicas=2), or set auto.create.topics.enable=false and create topics deliberately with replication factor 3."

_one := "Restarting or losing the one broker that holds a partition makes it unavailable, and a lost disk loses its data"

_why(rf, auto, brokers, replicas, cost) := sprintf(
	"With %s and %s on a cluster of %s, every topic a client creates by naming it (a producer's first send, a consumer's subscription) gets %s. %s.",
	[rf, auto, brokers, replicas, cost],
)

_three_configs := "at least 3 brokers (3 broker configs with distinct ids)"

# _broker is broker n of a cluster of broker configs, with entries.
_broker(n, entries) := t.with_id(t.node(sprintf("broker-%d.properties", [n]), ["broker"], entries), n, 1)

_defaults := [["default.replication.factor", 1, 0], ["auto.create.topics.enable", true, 0]]

_findings(reports) := {[f.location.file, f.location.line] | some f in reports}

test_fail_kafka_defaults_on_three_brokers if {
	nodes := [_broker(n, _defaults) | some n in [1, 2, 3]]
	reports := rule.report with input as t.cluster(nodes, [])
	_findings(reports) == {["broker-1.properties", 1], ["broker-2.properties", 1], ["broker-3.properties", 1]}
	some f in reports
	f.message == "default.replication.factor=1 (Kafka's default) on at least 3 brokers: auto-created topics get 1 replica"
	f.why == _why(
		"default.replication.factor=1 (Kafka's default, not set in the file)", "auto.create.topics.enable=true (Kafka's default, not set in the file)",
		_three_configs, "1 replica", _one,
	)
	f.fix == _fix
}

test_fail_explicit_two_with_stated_broker_count if {
	node := t.node("server.properties", ["broker"], [["default.replication.factor", 2, 7], ["auto.create.topics.enable", true, 8]])
	c := object.union(t.cluster([node], []), {"broker_count": {"value": 5, "source": "broker.replicaCount", "location": {"file": "values.yaml", "line": 3, "column": 1}}})
	reports := rule.report with input as c
	_findings(reports) == {["server.properties", 7]}
	some f in reports
	f.message == "default.replication.factor=2 on 5 brokers: auto-created topics get 2 replicas"
	f.why == _why(
		"default.replication.factor=2", "auto.create.topics.enable=true", "5 brokers (broker.replicaCount)", "2 replicas",
		"One broker down leaves its partitions without a spare copy (and with min.insync.replicas=2 stops their writes)",
	)
	f.fix == _fix
	{[r.file, r.line] | some r in f.related} == {["server.properties", 8], ["values.yaml", 3]}
}

test_success_three_replicas if {
	nodes := [_broker(n, [["default.replication.factor", 3, 4], ["auto.create.topics.enable", true, 0]]) | some n in [1, 2, 3]]
	count(rule.report) == 0 with input as t.cluster(nodes, [])
}

test_success_auto_creation_off if {
	nodes := [_broker(n, [["default.replication.factor", 1, 0], ["auto.create.topics.enable", false, 5]]) | some n in [1, 2, 3]]
	count(rule.report) == 0 with input as t.cluster(nodes, [])
}

# Fewer than 3 brokers cannot hold 3 replicas (KFK1008 covers an RF above the count).
test_success_two_brokers if {
	nodes := [_broker(n, _defaults) | some n in [1, 2]]
	count(rule.report) == 0 with input as t.cluster(nodes, [])
}

# Three copies of one config (one id) are not three brokers.
test_success_copies_of_one_broker if {
	nodes := [t.with_id(t.node(sprintf("broker-%d.properties", [n]), ["broker"], _defaults), 1, 1) | some n in [1, 2, 3]]
	count(rule.report) == 0 with input as t.cluster(nodes, [])
}

# Keys absent and no default added (the platform manages them: MSK).
test_success_keys_absent_platform_managed if {
	node := object.union(
		t.node("main.tf", ["broker"], [["default.replication.factor", 1, 0], ["auto.create.topics.enable", true, 0]]),
		{"managed_keys": ["default.replication.factor", "auto.create.topics.enable"]},
	)
	c := object.union(t.cluster([node], []), {"broker_count": {"value": 3, "source": "number_of_broker_nodes", "location": {"file": "main.tf", "line": 4, "column": 1}}})
	count(rule.report) == 0 with input as c
}

test_success_unknown_placeholder if {
	nodes := [t.with_setting(_broker(n, [["auto.create.topics.enable", true, 0]]), t.unknown_setting(sprintf("broker-%d.properties", [n]), "default.replication.factor", "${env:RF}", 4)) | some n in [1, 2, 3]]
	count(rule.report) == 0 with input as t.cluster(nodes, [])
}

test_success_controller_only if {
	nodes := [t.with_id(t.node(sprintf("controller-%d.properties", [n]), ["controller"], _defaults), n, 1) | some n in [1, 2, 3]]
	count(rule.report) == 0 with input as t.cluster(nodes, [])
}

# Built with the loader: a Bitnami-style compose file with three brokers
# (one service, deploy.replicas 3) leaving both keys at Kafka's defaults.
test_loader_default_replication_factor_below_3 if {
	reports := rule.report with input as kafkalint.parse("", "prod/docker-compose.yml", `services:
  kafka:
    image: apache/kafka:3.9.0
    deploy:
      replicas: 3
    environment:
      KAFKA_PROCESS_ROLES: broker
      KAFKA_CONTROLLER_QUORUM_VOTERS: 1@c1:9093,2@c2:9093,3@c3:9093
      KAFKA_CONTROLLER_LISTENER_NAMES: CONTROLLER
      KAFKA_LISTENERS: SSL://:9093
      KAFKA_DEFAULT_REPLICATION_FACTOR: 2
`)
	{[f.location.file, f.location.line, object.get(f, "key", "")] | some f in reports} == {["prod/docker-compose.yml", 11, "default.replication.factor"]}
}

test_loader_three_broker_files if {
	clusters := kafkalint.parse_files({sprintf("prod/kafka/broker-%d.properties", [n]): sprintf(
		`process.roles=broker
node.id=%d
controller.quorum.voters=1@c1:9093,2@c2:9093,3@c3:9093
controller.listener.names=CONTROLLER
listeners=SSL://:9093
`,
		[n + 3],
	) |
		some n in [1, 2, 3]
	})
	count(clusters) == 1
	reports := rule.report with input as clusters[0]
	{[f.location.file, f.location.line] | some f in reports} == {["prod/kafka/broker-1.properties", 1], ["prod/kafka/broker-2.properties", 1], ["prod/kafka/broker-3.properties", 1]}
}
