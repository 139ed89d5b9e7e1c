# METADATA
# title: Broker-only node's node.id is in controller.quorum.voters
# description: |
#   A node with only the broker role lists its own node.id in
#   controller.quorum.voters. Kafka refuses to start it: voters are
#   controllers, and a broker-only node must not be one.
# related_resources:
#   - description: Kafka docs, controller.quorum.voters
#     ref: https://kafka.apache.org/documentation/#brokerconfigs_controller.quorum.voters
#   - description: Kafka docs, process.roles
#     ref: https://kafka.apache.org/documentation/#brokerconfigs_process.roles
# schemas:
#   - input: schema.cluster
# custom:
#   id: KFK3013
#   severity: error
#   scope: all
#   applies_to: [broker]
#   keys: [node.id, broker.id, controller.quorum.voters]
#   since: unreleased
#   fix: |
#     Give the broker an id no voter uses (and keep the voter list the
#     controllers' ids only), or add the controller role to process.roles if
#     this node is meant to be a voter.
package kafkalint.rules.kraft["broker-is-voter"]

import data.kafkalint.lib.cluster
import data.kafkalint.lib.result

# Kafka checks a node against its own controller.quorum.voters
# (KafkaConfig.validateValues). Only KRaft nodes whose process.roles is
# exactly broker take part (a ZooKeeper-mode file has no roles to check).
# An entry that parses with the broker's id is enough, whatever the other
# entries; an unknown id or list is silent.
# The message names the id; the why quotes the entries and Kafka's error,
# the fix the id to change.
report contains result.explain(result.fail_related(id_setting, message, [voters.location]), why, fix) if {
	some node in input.nodes
	cluster.broker_only(node)
	cluster.has_id(node)
	voters := node.settings["controller.quorum.voters"]
	not voters.unknown
	entries := [v.raw | some v in node.quorum.voters; not v.error; v.id == node.id]
	count(entries) > 0
	id_setting := cluster.id_setting(node)
	message := sprintf("%s=%d of this broker-only node is in controller.quorum.voters: Kafka refuses to start it", [id_setting.key, node.id])
	why := sprintf(
		"controller.quorum.voters lists this node's id (%s), but voters are controllers and this node has only the broker role. Kafka refuses to start it: \"If process.roles contains just the 'broker' role, the node id %d must not be included in the set of voters controller.quorum.voters=...\".",
		[concat(", ", entries), node.id],
	)
	fix := sprintf("Give the broker an id no voter uses instead of %d (and keep the voter list the controllers' ids only), or add the controller role to process.roles if this node is meant to be a voter.", [node.id])
}
