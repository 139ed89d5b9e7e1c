# METADATA
# title: min.insync.replicas is 1 with a replication factor of 3 or more
# description: |
#   With min.insync.replicas=1 (Kafka's default) the leader alone can
#   acknowledge an acks=all write once its followers drop out of the in-sync
#   replica set, so losing that broker loses records the producer was told
#   were safe, however many replicas the topic has.
# related_resources:
#   - description: Kafka docs, min.insync.replicas
#     ref: https://kafka.apache.org/documentation/#brokerconfigs_min.insync.replicas
#   - description: Kafka docs, availability and durability guarantees
#     ref: https://kafka.apache.org/documentation/#design_ha
# schemas:
#   - input: schema.cluster
# custom:
#   id: KFK1004
#   severity: warning
#   scope: production
#   applies_to: [broker, controller, topic]
#   keys: [default.replication.factor, min.insync.replicas]
#   since: unreleased
package kafkalint.rules.durability["min-insync-replicas-one"]

import data.kafkalint.lib.result

# Node files: the cluster defaults, each written in the file or Kafka's
# default added by the loader (min.insync.replicas defaults to 1, so a file
# that sets only default.replication.factor=3 is reported at its line 1).
# Every node is checked: in KRaft mode the controllers read both keys too.
#
# Topics (not in the model yet) get their own branch: the topic's replication
# factor against its effective min.insync.replicas, through the same
# _leader_alone_acknowledges and _message.
report contains result.fail(min_isr, _message(min_isr, rf)) if {
	some node in input.nodes
	rf := node.settings["default.replication.factor"]
	min_isr := node.settings["min.insync.replicas"]
	_leader_alone_acknowledges(rf.value, min_isr.value)
}

# Undefined for unknown values.
_leader_alone_acknowledges(replication_factor, min_isr) if {
	replication_factor >= 3
	min_isr == 1
}

_message(min_isr, rf) := sprintf(
	"%s with %s: once the followers drop out of the in-sync replica set the leader alone acknowledges acks=all writes, so losing that broker loses records producers were told were safe; set min.insync.replicas=2 and use acks=all",
	[_shown(min_isr), _shown(rf)],
)

_shown(setting) := sprintf("%s=%v", [setting.key, setting.value]) if setting.source == "explicit"

_shown(setting) := sprintf("%s=%v (Kafka's default, not set in the file)", [setting.key, setting.value]) if setting.source == "default"
