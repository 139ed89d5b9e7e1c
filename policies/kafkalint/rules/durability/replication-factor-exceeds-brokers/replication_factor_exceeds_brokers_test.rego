package kafkalint.rules.durability["replication-factor-exceeds-brokers_test"]

import data.kafkalint.lib.result
import data.kafkalint.lib.testing as t
import data.kafkalint.rules.durability["replication-factor-exceeds-brokers"] as rule

_count_at := ["main.tf", 20]

_three_brokers(nodes, topics) := t.with_broker_count(t.full_cluster(nodes, [], [], topics), 3, "main.tf", 20)

_two_brokers(nodes, topics) := t.with_broker_count(t.full_cluster(nodes, [], [], topics), 2, "main.tf", 20)

_msk := ["default.replication.factor", "min.insync.replicas", "offsets.topic.replication.factor", "transaction.state.log.replication.factor"]

_source := "aws_msk_cluster.number_of_broker_nodes"

_error(rf, brokers) := sprintf("\"The target replication factor of %v cannot be reached because only %v broker(s) are registered\"", [rf, brokers])

# _rf_finding is a replication factor's finding: its message, the
# consequence the why ends with, and the most that fits (the fix).
_rf_finding(file, line, key, message, consequence, brokers) := result.explain(
	t.finding_related(file, line, key, message, [_count_at]),
	sprintf("The cluster has %s (%s), and Kafka places each replica of a partition on a different broker: %s.", [_brokers(brokers), _source, consequence]),
	sprintf("Lower %s to at most %v, or add brokers.", [key, brokers]),
)

_brokers(1) := "1 broker"

_brokers(n) := sprintf("%v brokers", [n]) if n != 1

test_fail_default_replication_factor_above_brokers if {
	node := t.node("main.tf", [], [["default.replication.factor", 4, 7]])
	rule.report == {_rf_finding(
		"main.tf", 7, "default.replication.factor",
		"default.replication.factor=4 exceeds 3 brokers: topics created without a replication factor fail",
		sprintf("topics created without an explicit replication factor (auto-created topics, CreateTopics with -1) are refused (%s)", [_error(4, 3)]),
		3,
	)} with input as _three_brokers([node], [])
}

test_fail_offsets_default_above_two_brokers if {
	node := t.node("server.properties", ["broker"], [["offsets.topic.replication.factor", 3, 0]])
	rule.report == {_rf_finding(
		"server.properties", 1, "offsets.topic.replication.factor",
		"offsets.topic.replication.factor=3 (Kafka's default) exceeds 2 brokers: __consumer_offsets cannot be created",
		sprintf("__consumer_offsets cannot be created (%s), so consumer groups never get a coordinator and cannot commit or fetch offsets", [_error(3, 2)]),
		2,
	)} with input as _two_brokers([node], [])
}

test_fail_transaction_log_explicit_on_managed_platform if {
	node := t.with_managed_keys(t.node("main.tf", [], [["transaction.state.log.replication.factor", 3, 9]]), _msk)
	rule.report == {_rf_finding(
		"main.tf", 9, "transaction.state.log.replication.factor",
		"transaction.state.log.replication.factor=3 exceeds 2 brokers: __transaction_state cannot be created",
		sprintf("__transaction_state cannot be created (%s), so transactional producers never initialize", [_error(3, 2)]),
		2,
	)} with input as _two_brokers([node], [])
}

test_fail_topic_replication_factor_above_brokers if {
	topic := t.declared_topic("topics.tf", "orders", 5, 12, [])
	rule.report == {result.explain(
		t.finding_related("topics.tf", 12, "replication.factor", "topic orders: replication factor 5 exceeds 3 brokers", [_count_at]),
		sprintf("The cluster has 3 brokers (%s), and Kafka places each replica of a partition on a different broker, so it refuses to create the topic (%s).", [_source, _error(5, 3)]),
		"Lower the replication factor of topic orders to at most 3, or add brokers.",
	)} with input as _three_brokers([], [topic])
}

_every_broker := "every broker must be in sync for an acks=all write, so one broker down stops them all with NOT_ENOUGH_REPLICAS."

test_fail_min_isr_without_a_spare_broker if {
	node := t.node("main.tf", [], [["default.replication.factor", 4, 7], ["min.insync.replicas", 3, 8]])
	findings := {[f.key, f.location.line] | some f in rule.report} with input as _three_brokers([node], [])
	findings == {["default.replication.factor", 7], ["min.insync.replicas", 8]}
	some f in rule.report with input as _three_brokers([node], [])
	f.key == "min.insync.replicas"
	f.message == "min.insync.replicas=3 with only 3 brokers: one broker down fails acks=all writes"
	f.why == sprintf("min.insync.replicas=3 with default.replication.factor=4, and the cluster has 3 brokers (%s): %s", [_source, _every_broker])
	f.fix == "Set min.insync.replicas below the number of brokers (3), and the replication factor to at most the number of brokers."
	f.related == [{"file": "main.tf", "line": 20, "column": 1}]
}

test_fail_topic_min_isr_without_a_spare_broker if {
	topic := t.declared_topic("topics.tf", "orders", 4, 12, [["min.insync.replicas", 3, 14]])
	reports := rule.report with input as _three_brokers([], [topic])
	{[f.key, f.location.line] | some f in reports} == {["replication.factor", 12], ["min.insync.replicas", 14]}
	some f in reports
	f.key == "min.insync.replicas"
	f.message == "topic orders: min.insync.replicas=3 with only 3 brokers"
	f.why == sprintf("Topic orders has min.insync.replicas=3 with replication factor 4, and the cluster has 3 brokers (%s): %s", [_source, _every_broker])
}

test_success_replication_factors_fit if {
	node := t.node("server.properties", ["broker"], [
		["default.replication.factor", 3, 2],
		["offsets.topic.replication.factor", 3, 3],
		["transaction.state.log.replication.factor", 3, 4],
		["min.insync.replicas", 2, 5],
	])
	topic := t.declared_topic("topics.tf", "orders", 3, 12, [["min.insync.replicas", 2, 13]])
	count(rule.report) == 0 with input as _three_brokers([node], [topic])
}

# min.insync.replicas at or above the replication factor is KFK1003's.
test_success_min_isr_not_below_replication_factor_left_to_kfk1003 if {
	node := t.node("server.properties", ["broker"], [["default.replication.factor", 3, 2], ["min.insync.replicas", 3, 5]])
	count(rule.report) == 0 with input as _three_brokers([node], [])
}

test_success_broker_count_absent if {
	node := t.node("server.properties", ["broker"], [["default.replication.factor", 5, 2], ["offsets.topic.replication.factor", 5, 3]])
	topic := t.declared_topic("topics.tf", "orders", 7, 12, [])
	count(rule.report) == 0 with input as t.full_cluster([node], [], [], [topic])
}

# On Amazon MSK Kafka's defaults do not apply to these keys: MSK sets the
# internal topics' replication factors from the number of brokers and zones.
test_success_managed_default_is_not_kafkas if {
	node := t.with_managed_keys(t.node("main.tf", [], [["offsets.topic.replication.factor", 3, 0], ["transaction.state.log.replication.factor", 3, 0]]), _msk)
	count(rule.report) == 0 with input as _two_brokers([node], [])
}

test_success_internal_topics_not_created_by_controllers if {
	node := t.node("controller.properties", ["controller"], [["offsets.topic.replication.factor", 3, 4]])
	count(rule.report) == 0 with input as _two_brokers([node], [])
}

test_success_topic_without_replication_factor if {
	topic := t.declared_topic("topics.tf", "orders", 0, 0, [])
	count(rule.report) == 0 with input as _two_brokers([], [topic])
}

test_success_unknown_replication_factor if {
	node := t.with_setting(
		t.node("main.tf", [], []),
		t.unknown_setting("main.tf", "default.replication.factor", "${var.rf}", 7),
	)
	topic := object.union(
		object.remove(t.declared_topic("topics.tf", "orders", 3, 12, []), ["replication_factor"]),
		{"replication_factor": t.unknown_setting("topics.tf", "replication.factor", "${each.value.rf}", 12)},
	)
	count(rule.report) == 0 with input as _two_brokers([node], [topic])
}

test_fail_single_broker_default_transaction_log if {
	node := t.node("docker-compose.yml", ["broker", "controller"], [["transaction.state.log.replication.factor", 3, 0]])
	rule.report == {_rf_finding(
		"docker-compose.yml", 1, "transaction.state.log.replication.factor",
		"transaction.state.log.replication.factor=3 (Kafka's default) exceeds 1 broker: __transaction_state cannot be created",
		sprintf("__transaction_state cannot be created (%s), so transactional producers never initialize", [_error(3, 1)]),
		1,
	)} with input as t.with_broker_count(t.full_cluster([node], [], [], []), 1, "main.tf", 20)
}

# Built with the loader (kafkalint.parse), not fixtures: a compose file with one broker keeps the default replication factor 3.
test_loader_replication_factor_exceeds_brokers if {
	reports := rule.report with input as kafkalint.parse("", "prod/docker-compose.yml", `services:
  kafka:
    image: apache/kafka:4.0.0
    environment:
      KAFKA_NODE_ID: 1
      KAFKA_PROCESS_ROLES: broker,controller
      KAFKA_CONTROLLER_QUORUM_VOTERS: 1@kafka:9093
      KAFKA_LISTENERS: PLAINTEXT://:9092,CONTROLLER://:9093
      KAFKA_CONTROLLER_LISTENER_NAMES: CONTROLLER
      KAFKA_DEFAULT_REPLICATION_FACTOR: 3
`)
	{[f.location.file, f.location.line, object.get(f, "key", "")] | some f in reports} == {["prod/docker-compose.yml", 2, "min.insync.replicas"], ["prod/docker-compose.yml", 2, "offsets.topic.replication.factor"], ["prod/docker-compose.yml", 2, "transaction.state.log.replication.factor"], ["prod/docker-compose.yml", 10, "default.replication.factor"]}
}
