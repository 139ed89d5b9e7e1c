# METADATA
# title: min.insync.replicas is not below the replication factor
# description: |
#   An acks=all write needs min.insync.replicas in-sync replicas. With
#   min.insync.replicas equal to or above the replication factor, one replica
#   that is restarting, lagging or down makes every acks=all write to the
#   partition fail with NOT_ENOUGH_REPLICAS, so a rolling restart becomes a
#   producer outage.
# related_resources:
#   - description: Kafka docs, min.insync.replicas
#     ref: https://kafka.apache.org/documentation/#brokerconfigs_min.insync.replicas
#   - description: Kafka docs, default.replication.factor
#     ref: https://kafka.apache.org/documentation/#brokerconfigs_default.replication.factor
# schemas:
#   - input: schema.cluster
# custom:
#   id: KFK1003
#   severity: error
#   scope: all
#   applies_to: [broker, controller, topic]
#   keys: [default.replication.factor, min.insync.replicas]
#   since: unreleased
#   fix: |
#     Set min.insync.replicas below the replication factor: the Kafka docs use
#     2 with a replication factor of 3. In KRaft set the same value on the
#     controllers, and on a running cluster change the dynamic value too
#     (kafka-configs.sh --entity-type brokers --entity-default).
package kafkalint.rules.durability["min-insync-replicas-not-below-replication-factor"]

import data.kafkalint.lib.result
import data.kafkalint.lib.settings

# Node files: the cluster defaults. Every node is checked: brokers use these
# values for auto-created topics, and in KRaft mode the controllers read both
# keys too (CreateTopics with replication factor -1, min.insync.replicas
# resolution and ELR). Both settings are effective values: written in the file
# or Kafka's default added by the loader (unless the platform manages the key,
# as Amazon MSK does: its own default applies then, which is not known here).
report contains result.fail(min_isr, message) if {
	some node in input.nodes
	rf := node.settings["default.replication.factor"]
	min_isr := node.settings["min.insync.replicas"]
	settings.known(node, rf)
	settings.known(node, min_isr)
	_no_fault_tolerance(rf.value, min_isr.value)
	message := sprintf("%s with %s: one replica down fails acks=all writes", [settings.shown(min_isr), settings.shown(rf)])
}

# Topics that set min.insync.replicas: their replication factor against it.
report contains result.fail(min_isr, _topic_message(topic, settings.shown(min_isr), rf)) if {
	some topic in input.topics
	rf := topic.replication_factor
	min_isr := topic.settings["min.insync.replicas"]
	_no_fault_tolerance(rf.value, min_isr.value)
}

# Topics that do not set it take the cluster's value. That value is known for
# certain only when the model holds the cluster's nodes and every one of them
# has the same known min.insync.replicas (brokers enforce it, KRaft
# controllers resolve it); a topic whose config map is unknown may set it.
# The finding is anchored at the topic's replication factor, with the nodes'
# values as related locations; its why says where the value comes from.
report contains result.explain(finding, why, fix) if {
	some topic in input.topics
	not topic.settings["min.insync.replicas"]
	not topic.config_unknown
	rf := topic.replication_factor
	inherited := _cluster_min_isr
	_no_fault_tolerance(rf.value, inherited.value)
	finding := result.fail_related(rf, _topic_message(topic, sprintf("inherited min.insync.replicas=%v", [inherited.value]), rf), inherited.locations)
	why := sprintf(
		"Topic %s does not set min.insync.replicas, so it runs with %s. As that is not below its replication factor %v, one replica that is restarting, lagging or down makes every acks=all write to the topic fail with NOT_ENOUGH_REPLICAS, so a rolling restart becomes a producer outage.",
		[topic.name, inherited.text, rf.value],
	)
	fix := sprintf(
		"Set min.insync.replicas on topic %s below its replication factor (the Kafka docs use 2 with a replication factor of 3), or lower min.insync.replicas on the cluster's nodes.",
		[topic.name],
	)
}

# _cluster_min_isr is the nodes' agreed min.insync.replicas, computed once
# per evaluation.
_cluster_min_isr := settings.agreed(input.nodes, "min.insync.replicas")

# _no_fault_tolerance holds when a replicated partition cannot lose a single
# replica without rejecting acks=all writes. Undefined for unknown values.
_no_fault_tolerance(replication_factor, min_isr) if {
	replication_factor > 1
	min_isr >= replication_factor
}

# A topic's message leaves the consequence to the why: the topic's name
# takes the room.
_topic_message(topic, min_isr_text, rf) := sprintf("topic %s: %s is not below %s", [topic.name, min_isr_text, _rf_shown(rf)])

_rf_shown(rf) := sprintf("replication factor %v", [rf.value]) if rf.source != "platform"

_rf_shown(rf) := sprintf("replication factor %v (fixed by the platform)", [rf.value]) if rf.source == "platform"
