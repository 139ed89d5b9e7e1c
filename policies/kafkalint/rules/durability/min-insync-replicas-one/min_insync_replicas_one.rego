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
#   fix: |
#     Set min.insync.replicas=2 and use acks=all in producers: the Kafka docs'
#     durability example with a replication factor of 3. In KRaft set it on
#     the controllers too.
package kafkalint.rules.durability["min-insync-replicas-one"]

import data.kafkalint.lib.result
import data.kafkalint.lib.settings

# Node files: the cluster defaults, each written in the file or Kafka's
# default added by the loader (min.insync.replicas defaults to 1, so a file
# that sets only default.replication.factor=3 is reported at its line 1).
# Every node is checked: in KRaft mode the controllers read both keys too.
# Kafka's default of a key the platform manages (Amazon MSK sets
# min.insync.replicas itself) is not the value that runs, so it is not used.
report contains result.fail(min_isr, message) if {
	some node in input.nodes
	rf := node.settings["default.replication.factor"]
	min_isr := node.settings["min.insync.replicas"]
	settings.known(node, rf)
	settings.known(node, min_isr)
	_leader_alone_acknowledges(rf.value, min_isr.value)
	message := sprintf("%s with %s: acks=all writes need only the leader", [settings.shown(min_isr), settings.shown(rf)])
}

# Topics that set min.insync.replicas.
report contains result.fail(min_isr, _topic_message(topic, settings.shown(min_isr), rf)) if {
	some topic in input.topics
	rf := topic.replication_factor
	min_isr := topic.settings["min.insync.replicas"]
	_leader_alone_acknowledges(rf.value, min_isr.value)
}

# Topics that do not set it take the cluster's value, known for certain only
# when the model holds the cluster's nodes and all of them have the same
# known value; a topic whose config map is unknown may set it. Anchored at
# the topic's replication factor, with the nodes' values as related
# locations; its why says where the value comes from.
report contains result.explain(finding, why, fix) if {
	some topic in input.topics
	not topic.settings["min.insync.replicas"]
	not topic.config_unknown
	rf := topic.replication_factor
	inherited := _cluster_min_isr
	_leader_alone_acknowledges(rf.value, inherited.value)
	finding := result.fail_related(rf, _topic_message(topic, sprintf("inherited min.insync.replicas=%v", [inherited.value]), rf), inherited.locations)
	why := sprintf(
		"Topic %s does not set min.insync.replicas, so it runs with %s. Once the followers drop out of the in-sync replica set the leader alone acknowledges acks=all writes, so losing that broker loses records producers were told were safe.",
		[topic.name, inherited.text],
	)
	fix := sprintf("Set min.insync.replicas=2 on topic %s (or on the cluster's nodes) and use acks=all in producers.", [topic.name])
}

# _cluster_min_isr is the nodes' agreed min.insync.replicas, computed once
# per evaluation.
_cluster_min_isr := settings.agreed(input.nodes, "min.insync.replicas")

# Undefined for unknown values.
_leader_alone_acknowledges(replication_factor, min_isr) if {
	replication_factor >= 3
	min_isr == 1
}

# A topic's message leaves the consequence to the why: the topic's name
# takes the room.
_topic_message(topic, min_isr_text, rf) := sprintf("topic %s: %s with %s", [topic.name, min_isr_text, _rf_shown(rf)])

_rf_shown(rf) := sprintf("replication factor %v", [rf.value]) if rf.source != "platform"

_rf_shown(rf) := sprintf("replication factor %v (fixed by the platform)", [rf.value]) if rf.source == "platform"
