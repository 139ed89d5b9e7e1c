package kafkalint.rules.durability["replication-factor-exceeds-brokers_test"]

import data.kafkalint.lib.testing as t
import data.kafkalint.rules.durability["replication-factor-exceeds-brokers"] as rule

_count_at := ["main.tf", 20]

_three_brokers(nodes, topics) := t.with_broker_count(t.full_cluster(nodes, [], [], topics), 3, "main.tf", 20)

_two_brokers(nodes, topics) := t.with_broker_count(t.full_cluster(nodes, [], [], topics), 2, "main.tf", 20)

_msk := ["default.replication.factor", "min.insync.replicas", "offsets.topic.replication.factor", "transaction.state.log.replication.factor"]

test_fail_default_replication_factor_above_brokers if {
	node := t.node("main.tf", [], [["default.replication.factor", 4, 7]])
	rule.report == {t.finding_related(
		"main.tf", 7, "default.replication.factor",
		"default.replication.factor=4 but the cluster has 3 brokers (aws_msk_cluster.number_of_broker_nodes): topics created without an explicit replication factor (auto-created topics, CreateTopics with -1) are refused (\"The target replication factor of 4 cannot be reached because only 3 broker(s) are registered\"); lower it to at most 3 or add brokers",
		[_count_at],
	)} with input as _three_brokers([node], [])
}

test_fail_offsets_default_above_two_brokers if {
	node := t.node("server.properties", ["broker"], [["offsets.topic.replication.factor", 3, 0]])
	rule.report == {t.finding_related(
		"server.properties", 1, "offsets.topic.replication.factor",
		"offsets.topic.replication.factor=3 (Kafka's default, not set in the file) but the cluster has 2 brokers (aws_msk_cluster.number_of_broker_nodes): __consumer_offsets cannot be created (\"The target replication factor of 3 cannot be reached because only 2 broker(s) are registered\"), so consumer groups never get a coordinator and cannot commit or fetch offsets; lower it to at most 2 or add brokers",
		[_count_at],
	)} with input as _two_brokers([node], [])
}

test_fail_transaction_log_explicit_on_managed_platform if {
	node := t.with_managed_keys(t.node("main.tf", [], [["transaction.state.log.replication.factor", 3, 9]]), _msk)
	rule.report == {t.finding_related(
		"main.tf", 9, "transaction.state.log.replication.factor",
		"transaction.state.log.replication.factor=3 but the cluster has 2 brokers (aws_msk_cluster.number_of_broker_nodes): __transaction_state cannot be created (\"The target replication factor of 3 cannot be reached because only 2 broker(s) are registered\"), so transactional producers never initialize; lower it to at most 2 or add brokers",
		[_count_at],
	)} with input as _two_brokers([node], [])
}

test_fail_topic_replication_factor_above_brokers if {
	topic := t.declared_topic("topics.tf", "orders", 5, 12, [])
	rule.report == {t.finding_related(
		"topics.tf", 12, "replication.factor",
		"topic orders has replication factor 5 but the cluster has 3 brokers (aws_msk_cluster.number_of_broker_nodes): Kafka refuses to create it (\"The target replication factor of 5 cannot be reached because only 3 broker(s) are registered\"); lower the replication factor to at most 3 or add brokers",
		[_count_at],
	)} with input as _three_brokers([], [topic])
}

test_fail_min_isr_without_a_spare_broker if {
	node := t.node("main.tf", [], [["default.replication.factor", 4, 7], ["min.insync.replicas", 3, 8]])
	findings := {[f.key, f.location.line] | some f in rule.report} with input as _three_brokers([node], [])
	findings == {["default.replication.factor", 7], ["min.insync.replicas", 8]}
	some f in rule.report with input as _three_brokers([node], [])
	f.key == "min.insync.replicas"
	f.message == "min.insync.replicas=3 with default.replication.factor=4 but the cluster has 3 brokers (aws_msk_cluster.number_of_broker_nodes): every broker must be in sync for an acks=all write, so one broker down stops them all with NOT_ENOUGH_REPLICAS; set min.insync.replicas below the number of brokers (and the replication factor at most the number of brokers)"
	f.related == [{"file": "main.tf", "line": 20, "column": 1}]
}

test_fail_topic_min_isr_without_a_spare_broker if {
	topic := t.declared_topic("topics.tf", "orders", 4, 12, [["min.insync.replicas", 3, 14]])
	{[f.key, f.location.line] | some f in rule.report} == {["replication.factor", 12], ["min.insync.replicas", 14]} with input as _three_brokers([], [topic])
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
	rule.report == {t.finding_related(
		"docker-compose.yml", 1, "transaction.state.log.replication.factor",
		"transaction.state.log.replication.factor=3 (Kafka's default, not set in the file) but the cluster has 1 broker (aws_msk_cluster.number_of_broker_nodes): __transaction_state cannot be created (\"The target replication factor of 3 cannot be reached because only 1 broker(s) are registered\"), so transactional producers never initialize; lower it to at most 1 or add brokers",
		[_count_at],
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
