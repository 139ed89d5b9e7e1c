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
package kafkalint.rules.durability["replication-factor-exceeds-brokers"]

import data.kafkalint.lib.result
import data.kafkalint.lib.settings

# Only a broker count a source states for certain (an MSK cluster's
# number_of_broker_nodes, node pools that all state their replicas) is used;
# the number of files is never taken for it.

# default.replication.factor: every node (in KRaft the controller's value
# serves CreateTopics requests with replication factor -1).
report contains result.fail_related(rf, _rf_message(rf, input.broker_count, _consequence[rf.key]), [input.broker_count.location]) if {
	some node in input.nodes
	rf := node.settings["default.replication.factor"]
	_exceeds(node, rf)
}

# The internal topics are created by brokers.
report contains result.fail_related(rf, _rf_message(rf, input.broker_count, _consequence[rf.key]), [input.broker_count.location]) if {
	some node in input.nodes
	node.is_broker
	some key in ["offsets.topic.replication.factor", "transaction.state.log.replication.factor"]
	rf := node.settings[key]
	_exceeds(node, rf)
}

# A topic's own replication factor.
report contains result.fail_related(topic.replication_factor, msg, [input.broker_count.location]) if {
	some topic in input.topics
	rf := topic.replication_factor
	rf.value > input.broker_count.value
	msg := sprintf(
		"topic %s has replication factor %v but the cluster has %s (%s): Kafka refuses to create it (\"The target replication factor of %v cannot be reached because only %v broker(s) are registered\"); lower the replication factor to at most %v or add brokers",
		[topic.name, rf.value, _brokers(input.broker_count.value), input.broker_count.source, rf.value, input.broker_count.value, input.broker_count.value],
	)
}

# min.insync.replicas at or above the broker count, on a replicated default
# (min.insync.replicas at or above the replication factor itself is
# KFK1003's finding).
report contains result.fail_related(min_isr, msg, [input.broker_count.location]) if {
	some node in input.nodes
	min_isr := node.settings["min.insync.replicas"]
	rf := node.settings["default.replication.factor"]
	settings.known(node, min_isr)
	settings.known(node, rf)
	_min_isr_without_spare(min_isr.value, rf.value, input.broker_count.value)
	msg := _min_isr_message(settings.shown_unset(min_isr), settings.shown_unset(rf), input.broker_count)
}

report contains result.fail_related(min_isr, msg, [input.broker_count.location]) if {
	some topic in input.topics
	min_isr := topic.settings["min.insync.replicas"]
	rf := topic.replication_factor
	_min_isr_without_spare(min_isr.value, rf.value, input.broker_count.value)
	msg := _min_isr_message(sprintf("topic %s: min.insync.replicas=%v", [topic.name, min_isr.value]), sprintf("replication factor %v", [rf.value]), input.broker_count)
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

_consequence := {
	"default.replication.factor": "topics created without an explicit replication factor (auto-created topics, CreateTopics with -1) are refused (\"The target replication factor of %v cannot be reached because only %v broker(s) are registered\")",
	"offsets.topic.replication.factor": "__consumer_offsets cannot be created (\"The target replication factor of %v cannot be reached because only %v broker(s) are registered\"), so consumer groups never get a coordinator and cannot commit or fetch offsets",
	"transaction.state.log.replication.factor": "__transaction_state cannot be created (\"The target replication factor of %v cannot be reached because only %v broker(s) are registered\"), so transactional producers never initialize",
}

_rf_message(rf, brokers, consequence) := sprintf(
	"%s but the cluster has %s (%s): %s; lower it to at most %v or add brokers",
	[settings.shown_unset(rf), _brokers(brokers.value), brokers.source, sprintf(consequence, [rf.value, brokers.value]), brokers.value],
)

_min_isr_message(min_isr_text, rf_text, brokers) := sprintf(
	"%s with %s but the cluster has %s (%s): every broker must be in sync for an acks=all write, so one broker down stops them all with NOT_ENOUGH_REPLICAS; set min.insync.replicas below the number of brokers (and the replication factor at most the number of brokers)",
	[min_isr_text, rf_text, _brokers(brokers.value), brokers.source],
)

_brokers(1) := "1 broker"

_brokers(n) := sprintf("%v brokers", [n]) if n != 1
