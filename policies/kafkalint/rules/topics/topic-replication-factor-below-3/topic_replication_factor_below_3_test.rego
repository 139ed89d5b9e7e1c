package kafkalint.rules.topics["topic-replication-factor-below-3_test"]

import data.kafkalint.lib.testing as t
import data.kafkalint.rules.topics["topic-replication-factor-below-3"] as rule

test_fail_rf_one if {
	topic := t.topic("topics.tf", "orders", 3, 1, 5)
	rule.report == {t.finding("topics.tf", 5, "replication_factor", "topic orders has replication factor 1: one broker down makes it unavailable")} with input as t.full_cluster([], [], [], [topic])
}

test_fail_rf_two if {
	topic := t.topic("topics.tf", "orders", 3, 2, 5)
	rule.report == {t.finding("topics.tf", 5, "replication_factor", "topic orders has replication factor 2: one broker down leaves a single copy")} with input as t.full_cluster([], [], [], [topic])
}

test_success_rf_three if {
	count(rule.report) == 0 with input as t.full_cluster([], [], [], [t.topic("topics.tf", "orders", 3, 3, 5)])
}

test_success_broker_default_rf if {
	count(rule.report) == 0 with input as t.full_cluster([], [], [], [t.topic("topics.tf", "orders", 3, -1, 5)])
}

test_success_rf_absent if {
	topic := object.remove(t.topic("topics.tf", "orders", 3, 3, 5), ["replication_factor"])
	count(rule.report) == 0 with input as t.full_cluster([], [], [], [topic])
}

test_success_unknown_placeholder if {
	topic := object.union(object.remove(t.topic("topics.tf", "orders", 3, 1, 5), ["replication_factor"]), {"replication_factor": t.unknown_setting("topics.tf", "replication_factor", "var.rf", 5)})
	count(rule.report) == 0 with input as t.full_cluster([], [], [], [topic])
}

# Built with the loader (kafkalint.parse), not fixtures: a Terraform topic with replication factor 2.
test_loader_topic_replication_factor_below_3 if {
	reports := rule.report with input as kafkalint.parse("", "prod/topics.tf", `resource "kafka_topic" "orders" {
  name               = "orders"
  partitions         = 6
  replication_factor = 2
}
`)
	{[f.location.file, f.location.line, object.get(f, "key", "")] | some f in reports} == {["prod/topics.tf", 4, "replication.factor"]}
}
