# METADATA
# title: Topic replication factor below 3
# description: |
#   A topic declared with fewer than three replicas cannot lose a broker
#   without losing availability or durability. With replication factor 1 its
#   only replica is a single point of failure: one broker down makes the
#   partitions unavailable and a lost disk loses the data. With 2, one broker
#   down (a rolling restart) leaves a single copy, so acks=all writes either
#   stop (min.insync.replicas=2) or are acknowledged by one replica that a
#   second failure loses. The Kafka docs call RF 3 the common production
#   setting.
# related_resources:
#   - description: Kafka docs, adding and removing topics (replication factor)
#     ref: https://kafka.apache.org/documentation/#basic_ops_add_topic
#   - description: Kafka docs, replication
#     ref: https://kafka.apache.org/documentation/#replication
# schemas:
#   - input: schema.cluster
# custom:
#   id: KFK5001
#   severity: warning
#   scope: production
#   applies_to: [topic]
#   keys: []
#   since: unreleased
#   fix: |
#     Use a replication factor of 3, with min.insync.replicas=2 and producers
#     on acks=all. An existing topic keeps its replicas until a partition
#     reassignment (kafka-reassign-partitions.sh) adds them; then update the
#     declaration.
package kafkalint.rules.topics["topic-replication-factor-below-3"]

import data.kafkalint.lib.result

# Topics come from Terraform (kafka_topic, confluent_kafka_topic) and
# Strimzi KafkaTopic resources. A topic without a replication factor, one
# of -1 (the broker's default.replication.factor) or an unknown value
# (a variable) is not judged.
report contains result.fail(rf, message) if {
	some topic in input.topics
	rf := topic.replication_factor
	is_number(rf.value)
	rf.value >= 1
	rf.value < 3
	message := sprintf("topic %s has replication factor %d: %s", [topic.name, rf.value, _consequence(rf.value)])
}

_consequence(1) := "one broker down makes it unavailable"

_consequence(2) := "one broker down leaves a single copy"
