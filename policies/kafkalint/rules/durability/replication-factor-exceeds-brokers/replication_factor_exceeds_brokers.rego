# METADATA
# title: Replication factor larger than the number of brokers
# description: |
#   The cluster's broker count is known and a replication factor asks for more
#   replicas than there are brokers: Kafka refuses to create the topic, and for
#   __consumer_offsets or __transaction_state that means consumer groups or
#   transactions never start. min.insync.replicas at or above the broker count
#   leaves acks=all writes no broker to spare.
# related_resources:
#   - description: Kafka docs, default.replication.factor
#     ref: https://kafka.apache.org/documentation/#brokerconfigs_default.replication.factor
#   - description: Kafka docs, offsets.topic.replication.factor
#     ref: https://kafka.apache.org/documentation/#brokerconfigs_offsets.topic.replication.factor
#   - description: Kafka docs, transaction.state.log.replication.factor
#     ref: https://kafka.apache.org/documentation/#brokerconfigs_transaction.state.log.replication.factor
#   - description: Kafka docs, min.insync.replicas
#     ref: https://kafka.apache.org/documentation/#brokerconfigs_min.insync.replicas
# schemas:
#   - input: schema.cluster
# custom:
#   id: KFK1008
#   severity: error
#   scope: all
#   applies_to: [broker, controller, topic]
#   keys: [default.replication.factor, offsets.topic.replication.factor, transaction.state.log.replication.factor, min.insync.replicas]
#   since: unreleased
#   fix: |
#     Add brokers (three, one per zone, is the usual production answer), or
#     lower the replication factor to at most the number of brokers. Keep
#     min.insync.replicas below both the replication factor and the number of
#     brokers.
package kafkalint.rules.durability["replication-factor-exceeds-brokers"]

import data.kafkalint.lib.result
import data.kafkalint.lib.settings

# Only a broker count a source states for certain (an MSK cluster's
# number_of_broker_nodes, node pools that all state their replicas) is used;
# the number of files is never taken for it.

# Every finding brings its own why and fix: they quote the broker count's
# source, Kafka's error and the largest value that fits.

# default.replication.factor: every node (in KRaft the controller's value
# serves CreateTopics requests with replication factor -1).
report contains _rf_finding(rf) if {
	some node in input.nodes
	rf := node.settings["default.replication.factor"]
	_exceeds(node, rf)
}

# The internal topics are created by brokers.
report contains _rf_finding(rf) if {
	some node in input.nodes
	node.is_broker
	some key in ["offsets.topic.replication.factor", "transaction.state.log.replication.factor"]
	rf := node.settings[key]
	_exceeds(node, rf)
}

# A topic's own replication factor. A topic's message leaves the
# consequence to the why: the topic's name takes the room.
report contains result.explain(finding, why, fix) if {
	some topic in input.topics
	rf := topic.replication_factor
	rf.value > input.broker_count.value
	finding := result.fail_related(rf, sprintf("topic %s: replication factor %v exceeds %s", [topic.name, rf.value, _brokers_text]), _count_location)
	why := sprintf(
		"The cluster %s, and Kafka places each replica of a partition on a different broker, so it refuses to create the topic (%s).",
		[_has_brokers, _error(rf.value)],
	)
	fix := sprintf("Lower the replication factor of topic %s to at most %v, or add brokers.", [topic.name, input.broker_count.value])
}

# min.insync.replicas at or above the broker count, on a replicated default
# (min.insync.replicas at or above the replication factor itself is
# KFK1003's finding).
report contains result.explain(result.fail_related(min_isr, message, _count_location), why, _min_isr_fix) if {
	some node in input.nodes
	min_isr := node.settings["min.insync.replicas"]
	rf := node.settings["default.replication.factor"]
	settings.known(node, min_isr)
	settings.known(node, rf)
	_min_isr_without_spare(min_isr.value, rf.value, input.broker_count.value)
	message := sprintf("%s with only %s: one broker down fails acks=all writes", [settings.shown(min_isr), _brokers_text])
	why := _min_isr_why(sprintf("%s with %s", [settings.shown(min_isr), settings.shown(rf)]))
}

report contains result.explain(result.fail_related(min_isr, message, _count_location), why, _min_isr_fix) if {
	some topic in input.topics
	min_isr := topic.settings["min.insync.replicas"]
	rf := topic.replication_factor
	_min_isr_without_spare(min_isr.value, rf.value, input.broker_count.value)
	message := sprintf("topic %s: min.insync.replicas=%v with only %s", [topic.name, min_isr.value, _brokers_text])
	why := _min_isr_why(sprintf("Topic %s has min.insync.replicas=%v with replication factor %v", [topic.name, min_isr.value, rf.value]))
}

_exceeds(node, rf) if {
	settings.known(node, rf)
	rf.value > input.broker_count.value
}

_min_isr_without_spare(min_isr, rf, brokers) if {
	rf > 1
	min_isr >= brokers
	min_isr < rf
}

_rf_finding(rf) := result.explain(
	result.fail_related(rf, sprintf("%s exceeds %s: %s", [settings.shown(rf), _brokers_text, _effect[rf.key]]), _count_location),
	sprintf("The cluster %s, and Kafka places each replica of a partition on a different broker: %s.", [_has_brokers, sprintf(_consequence[rf.key], [_error(rf.value)])]),
	sprintf("Lower %s to at most %v, or add brokers.", [rf.key, input.broker_count.value]),
)

_effect := {
	"default.replication.factor": "topics created without a replication factor fail",
	"offsets.topic.replication.factor": "__consumer_offsets cannot be created",
	"transaction.state.log.replication.factor": "__transaction_state cannot be created",
}

_consequence := {
	"default.replication.factor": "topics created without an explicit replication factor (auto-created topics, CreateTopics with -1) are refused (%s)",
	"offsets.topic.replication.factor": "__consumer_offsets cannot be created (%s), so consumer groups never get a coordinator and cannot commit or fetch offsets",
	"transaction.state.log.replication.factor": "__transaction_state cannot be created (%s), so transactional producers never initialize",
}

# _error is the error Kafka's controller gives for a replication factor
# above the registered brokers.
_error(rf) := sprintf("\"The target replication factor of %v cannot be reached because only %v broker(s) are registered\"", [rf, input.broker_count.value])

_min_isr_why(values) := sprintf(
	"%s, and the cluster %s: every broker must be in sync for an acks=all write, so one broker down stops them all with NOT_ENOUGH_REPLICAS.",
	[values, _has_brokers],
)

_min_isr_fix := sprintf(
	"Set min.insync.replicas below the number of brokers (%v), and the replication factor to at most the number of brokers.",
	[input.broker_count.value],
)

_count_location := [input.broker_count.location]

_brokers_text := _brokers(input.broker_count.value)

# _has_brokers is the broker count with its source ("has 3 brokers
# (aws_msk_cluster.number_of_broker_nodes)"), for the why.
_has_brokers := sprintf("has %s (%s)", [_brokers_text, input.broker_count.source])

_brokers(1) := "1 broker"

_brokers(n) := sprintf("%v brokers", [n]) if n != 1
