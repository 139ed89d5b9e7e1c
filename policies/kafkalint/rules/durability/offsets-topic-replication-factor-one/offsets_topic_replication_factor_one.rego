# METADATA
# title: offsets.topic.replication.factor is 1
# description: |
#   The __consumer_offsets topic is created with one replica, so losing the
#   broker that holds a partition of it stops every consumer group mapped to
#   that partition from committing or fetching offsets. A rolling restart is
#   enough, and a lost disk loses those offsets for good.
# related_resources:
#   - description: Kafka docs, offsets.topic.replication.factor
#     ref: https://kafka.apache.org/documentation/#brokerconfigs_offsets.topic.replication.factor
# schemas:
#   - input: schema.cluster
# custom:
#   id: KFK1001
#   severity: error
#   scope: production
#   applies_to: [broker]
#   keys: [offsets.topic.replication.factor]
#   since: unreleased
#   fix: |
#     Set offsets.topic.replication.factor=3 (Kafka's default) on every
#     broker, or delete the line. An existing __consumer_offsets keeps its
#     replicas: add them with kafka-reassign-partitions.sh.
package kafkalint.rules.durability["offsets-topic-replication-factor-one"]

import data.kafkalint.lib.result

report contains result.fail(setting, message) if {
	some node in input.nodes
	node.is_broker
	setting := node.settings["offsets.topic.replication.factor"]
	setting.value == 1
	message := "offsets.topic.replication.factor=1: __consumer_offsets has a single replica"
}
