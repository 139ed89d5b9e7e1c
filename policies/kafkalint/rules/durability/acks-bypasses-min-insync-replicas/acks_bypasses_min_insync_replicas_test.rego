package kafkalint.rules.durability["acks-bypasses-min-insync-replicas_test"]

import data.kafkalint.lib.testing as t
import data.kafkalint.rules.durability["acks-bypasses-min-insync-replicas"] as rule

_broker(file, min_isr, line) := t.node(file, ["broker"], [["min.insync.replicas", min_isr, line]])

_producer(acks) := t.client("app/producer.properties", "producer", [["acks", acks, 4]])

_message(acks, requirement, effect) := sprintf(
	"acks=%s on this producer, but the cluster it writes to requires min.insync.replicas=%s: only acks=all writes are checked against min.insync.replicas, so %s, and they are lost if the leader fails before its followers copy them, whatever min.insync.replicas says; use acks=all (the default since Kafka 3.0) for data that must survive a broker failure, or accept the loss explicitly for this producer",
	[acks, requirement, effect],
)

test_fail_acks_1_with_min_insync_replicas_2 if {
	nodes := [_broker("b1.properties", 2, 9), _broker("b2.properties", 2, 9), _broker("b3.properties", 1, 0)]
	message := _message("1", "2 (b1.properties, b2.properties)", "this producer's writes are acknowledged by the partition leader alone")
	rule.report == {t.finding_related("app/producer.properties", 4, "acks", message, [["b1.properties", 9], ["b2.properties", 9]])} with input as t.cluster(nodes, [_producer("1")])
}

test_fail_acks_0_with_topic_requirement if {
	topic := {
		"name": "orders",
		"file": "topics.tf",
		"environment": "production",
		"location": {"file": "topics.tf", "line": 3, "column": 1},
		"settings": {"min.insync.replicas": t.setting("topics.tf", "min.insync.replicas", 2, 7)},
	}
	message := _message("0", "2 (topic orders)", "this producer does not wait for any acknowledgement (a failed write is not even reported)")
	rule.report == {t.finding_related("app/producer.properties", 4, "acks", message, [["topics.tf", 7]])} with input as t.full_cluster([_broker("b1.properties", 1, 0)], [_producer("0")], [], [topic])
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
