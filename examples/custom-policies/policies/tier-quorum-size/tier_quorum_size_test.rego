package custom.acme["tier-quorum-size_test"]

import data.custom.acme["tier-quorum-size"] as rule

_tiers := {
	"tier-1": {"clusters": ["**/payments"], "min_voters": 5},
	"tier-2": {"clusters": ["**/analytics", "**/payments"], "min_voters": 3},
}

_controller(dir, voters) := kafkalint.parse("properties", sprintf("prod/%s/controller.properties", [dir]), concat("\n", [
	"process.roles=controller",
	"node.id=1",
	"listeners=CONTROLLER://c1.example.com:9093",
	"controller.listener.names=CONTROLLER",
	sprintf("controller.quorum.voters=%s", [voters]),
]))

_three := "1@c1.example.com:9093,2@c2.example.com:9093,3@c3.example.com:9093"

test_fail_tier_one_with_three_voters if {
	findings := rule.report with input as _controller("payments", _three)
		with data.kafkalint.params.custom.tiers as _tiers
	findings == {{
		"key": "controller.quorum.voters",
		"location": {"file": "prod/payments/controller.properties", "line": 5, "column": 1},
		"message": sprintf("cluster prod/payments is tier-1, tier-2 and must run at least 5 controller quorum voters, but controller.quorum.voters=%s lists 3; add controllers and list them all", [_three]),
		"related": [],
	}}
}

test_success_tier_two_with_three_voters if {
	count(rule.report) == 0 with input as _controller("analytics", _three)
		with data.kafkalint.params.custom.tiers as _tiers
}

test_success_cluster_in_no_tier if {
	count(rule.report) == 0 with input as _controller("search", "1@c1.example.com:9093")
		with data.kafkalint.params.custom.tiers as _tiers
}

test_success_no_tiers_configured if {
	count(rule.report) == 0 with input as _controller("payments", _three)
}

test_success_unknown_voters if {
	count(rule.report) == 0 with input as _controller("payments", "${env:VOTERS}")
		with data.kafkalint.params.custom.tiers as _tiers
}

test_fail_managed_quorum if {
	strimzi := concat("\n", [
		"apiVersion: kafka.strimzi.io/v1beta2",
		"kind: KafkaNodePool",
		"metadata:",
		"  name: controller",
		"  labels:",
		"    strimzi.io/cluster: payments",
		"spec:",
		"  replicas: 3",
		"  roles: [controller]",
		"  storage:",
		"    type: ephemeral",
	])
	some f in rule.report with input as kafkalint.parse("yaml", "prod/payments/pool.yaml", strimzi)
		with data.kafkalint.params.custom.tiers as _tiers
	f.location.line == 8
}
