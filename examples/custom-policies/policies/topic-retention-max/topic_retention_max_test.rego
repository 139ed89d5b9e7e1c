package custom.acme["topic-retention-max_test"]

import data.custom.acme["topic-retention-max"] as rule

# _topic is a Terraform module declaring one topic with the given config
# lines: the test builds the model with the loader itself.
_topic(config) := kafkalint.parse("terraform", "prod/topics/main.tf", concat("\n", [
	`resource "kafka_topic" "orders" {`,
	`  name               = "orders"`,
	`  replication_factor = 3`,
	`  partitions         = 12`,
	`  config = {`,
	config,
	`  }`,
	`}`,
]))

test_fail_thirty_days if {
	findings := rule.report with input as _topic(`    "retention.ms" = "2592000000"`)
	findings == {{
		"key": "retention.ms",
		"location": {"file": "prod/topics/main.tf", "line": 6, "column": 5},
		"message": "topic orders sets retention.ms=2592000000 (30 days): production topics keep data at most 7 days here; lower retention.ms, or ask for an exception and record it with a kafkalint:ignore directive",
		"related": [],
	}}
}

test_fail_infinite_retention if {
	some f in rule.report with input as _topic(`    "retention.ms" = "-1"`)
	contains(f.message, "retention.ms=-1 (forever)")
}

test_success_a_week if {
	count(rule.report) == 0 with input as _topic(`    "retention.ms" = "604800000"`)
}

test_success_not_set if {
	count(rule.report) == 0 with input as _topic(`    "cleanup.policy" = "delete"`)
}

test_success_unknown_value if {
	count(rule.report) == 0 with input as _topic(`    "retention.ms" = var.retention_ms`)
}

test_success_maximum_from_data if {
	count(rule.report) == 0 with input as _topic(`    "retention.ms" = "2592000000"`)
		with data.kafkalint.params.custom.max_topic_retention_ms as 2592000000
}
