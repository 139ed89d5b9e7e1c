# METADATA
# title: min.insync.replicas is not below the replication factor
# description: |
#   With min.insync.replicas equal to or above the replication factor, one
#   replica that is restarting, lagging or down makes every acks=all write to
#   the partition fail with NOT_ENOUGH_REPLICAS, so a rolling restart becomes a
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
package kafkalint.rules.durability["min-insync-replicas-not-below-replication-factor"]

import data.kafkalint.lib.result

# Node files: the cluster defaults. Every node is checked: brokers use these
# values for auto-created topics, and in KRaft mode the controllers read both
# keys too (CreateTopics with replication factor -1, min.insync.replicas
# resolution and ELR). Both settings are effective values: written in the file
# or Kafka's default added by the loader.
#
# Topics (not in the model yet) get their own branch: the topic's replication
# factor against the topic's own min.insync.replicas, through the same
# _no_fault_tolerance and _message.
report contains result.fail(min_isr, _message(min_isr, rf)) if {
	some node in input.nodes
	rf := node.settings["default.replication.factor"]
	min_isr := node.settings["min.insync.replicas"]
	_no_fault_tolerance(rf.value, min_isr.value)
}

# _no_fault_tolerance holds when a replicated partition cannot lose a single
# replica without rejecting acks=all writes. Undefined for unknown values.
_no_fault_tolerance(replication_factor, min_isr) if {
	replication_factor > 1
	min_isr >= replication_factor
}

_message(min_isr, rf) := sprintf(
	"%s with %s: acks=all writes need that many in-sync replicas, so a single replica that is restarting, lagging or down makes every acks=all write fail with NOT_ENOUGH_REPLICAS; set min.insync.replicas below the replication factor (the Kafka docs use 2 with a replication factor of 3)",
	[_shown(min_isr), _shown(rf)],
)

_shown(setting) := sprintf("%s=%v", [setting.key, setting.value]) if setting.source == "explicit"

_shown(setting) := sprintf("%s=%v (Kafka's default, not set in the file)", [setting.key, setting.value]) if setting.source == "default"
