package kafkalint.rules.durability["acks-bypasses-min-insync-replicas_test"]

import data.kafkalint.lib.result
import data.kafkalint.lib.testing as t
import data.kafkalint.rules.durability["acks-bypasses-min-insync-replicas"] as rule

_broker(file, min_isr, line) := t.node(file, ["broker"], [["min.insync.replicas", min_isr, line]])

_producer(acks) := t.client("app/producer.properties", "producer", [["acks", acks, 4]])

# _finding is the finding at the producer's acks, with its why and fix.
_finding(acks, values, requirement, consequence, related) := result.explain(
	t.finding_related("app/producer.properties", 4, "acks", _message(acks, values), related),
	sprintf(
		"Only acks=all writes are checked against min.insync.replicas, which the cluster this producer writes to sets to %s. %s, and its writes are lost if the leader fails before its followers copy them, whatever min.insync.replicas says.",
		[requirement, consequence],
	),
	sprintf("Use acks=all (the default since Kafka 3.0) for data that must survive a broker failure; keep acks=%s only where losing records is acceptable, and say so in the file.", [acks]),
)

_message("1", values) := sprintf("acks=1 bypasses the cluster's min.insync.replicas=%s: the leader alone acknowledges writes", [values])

_message("0", values) := sprintf("acks=0 bypasses the cluster's min.insync.replicas=%s: writes are not acknowledged at all", [values])

_leader_alone := "This producer's writes are acknowledged by the partition leader alone"

test_fail_acks_1_with_min_insync_replicas_2 if {
	nodes := [_broker("b1.properties", 2, 9), _broker("b2.properties", 2, 9), _broker("b3.properties", 1, 0)]
	rule.report == {_finding("1", "2", "2 (b1.properties, b2.properties)", _leader_alone, [["b1.properties", 9], ["b2.properties", 9]])} with input as t.cluster(nodes, [_producer("1")])
}

# Several values: the message names each, the why where each is set.
test_fail_acks_1_with_two_requirements if {
	nodes := [_broker("b1.properties", 2, 9), _broker("b2.properties", 3, 9)]
	rule.report == {_finding("1", "2, 3", "2 (b1.properties); 3 (b2.properties)", _leader_alone, [["b1.properties", 9], ["b2.properties", 9]])} with input as t.cluster(nodes, [_producer("1")])
}

test_fail_acks_0_with_topic_requirement if {
	topic := {
		"name": "orders",
		"file": "topics.tf",
		"environment": "production",
		"location": {"file": "topics.tf", "line": 3, "column": 1},
		"settings": {"min.insync.replicas": t.setting("topics.tf", "min.insync.replicas", 2, 7)},
	}
	consequence := "This producer does not wait for any acknowledgement (a failed write is not even reported)"
	rule.report == {_finding("0", "2", "2 (topic orders)", consequence, [["topics.tf", 7]])} with input as t.full_cluster([_broker("b1.properties", 1, 0)], [_producer("0")], [], [topic])
}

test_fail_generic_client_file if {
	client := t.client("app/client.properties", "client", [["acks", "1", 2]])
	count(rule.report) == 1 with input as t.cluster([_broker("b1.properties", 3, 9)], [client])
}

test_success_acks_all if {
	count(rule.report) == 0 with input as t.cluster([_broker("b1.properties", 2, 9)], [_producer("all"), _producer("-1")])
}

test_success_min_insync_replicas_1 if {
	count(rule.report) == 0 with input as t.cluster([_broker("b1.properties", 1, 9), _broker("b2.properties", 1, 0)], [_producer("1")])
}

test_success_producer_on_its_own if {
	count(rule.report) == 0 with input as t.cluster([], [_producer("1")])
}

test_success_consumer if {
	consumer := t.client("app/consumer.properties", "consumer", [["acks", "1", 4]])
	count(rule.report) == 0 with input as t.cluster([_broker("b1.properties", 2, 9)], [consumer])
}

test_success_key_absent if {
	producer := t.client("app/producer.properties", "producer", [["acks", "all", 0]])
	count(rule.report) == 0 with input as t.cluster([_broker("b1.properties", 2, 9)], [producer])
}

test_success_unknown_placeholder if {
	producer := t.with_setting(_producer("1"), t.unknown_setting("app/producer.properties", "acks", "${env:ACKS}", 4))
	broker := t.with_setting(_broker("b2.properties", 1, 0), t.unknown_setting("b2.properties", "min.insync.replicas", "${env:MIN_ISR}", 9))
	count(rule.report) == 0 with input as t.cluster([_broker("b1.properties", 1, 0), broker], [producer, _producer("1")])
}

# Built with the loader (kafkalint.parse), not fixtures: a producer with acks=1 beside brokers that require min.insync.replicas=2.
test_loader_acks_bypasses_min_insync_replicas if {
	clusters := kafkalint.parse_files({
		"prod/kafka/server.properties": `process.roles=broker
node.id=4
controller.quorum.voters=1@c1:9093,2@c2:9093,3@c3:9093
controller.listener.names=CONTROLLER
listeners=SSL://:9093
min.insync.replicas=2
`,
		"prod/kafka/producer.properties": `bootstrap.servers=b4:9093
acks=1
`,
	})
	count(clusters) == 1
	reports := rule.report with input as clusters[0]
	{[f.location.file, f.location.line, object.get(f, "key", "")] | some f in reports} == {["prod/kafka/producer.properties", 2, "acks"]}
}
