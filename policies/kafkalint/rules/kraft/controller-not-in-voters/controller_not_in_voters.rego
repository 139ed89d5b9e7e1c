# METADATA
# title: Controller's node.id is missing from controller.quorum.voters
# description: |
#   A node with the controller role sets a static voter set
#   (controller.quorum.voters) that does not contain its own node.id. Kafka
#   refuses to start it: a controller of a static quorum must be one of the
#   voters.
# related_resources:
#   - description: Kafka docs, controller.quorum.voters
#     ref: https://kafka.apache.org/documentation/#brokerconfigs_controller.quorum.voters
#   - description: Kafka docs, node.id
#     ref: https://kafka.apache.org/documentation/#brokerconfigs_node.id
# schemas:
#   - input: schema.cluster
# custom:
#   id: KFK3012
#   severity: error
#   scope: all
#   applies_to: [controller]
#   keys: [node.id, broker.id, controller.quorum.voters]
#   since: unreleased
#   fix: |
#     If this controller is a voter, add its entry {id}@{host}:{port} to
#     controller.quorum.voters (the same list on every node of the cluster);
#     otherwise give it the id of its voter entry.
package kafkalint.rules.kraft["controller-not-in-voters"]

import data.kafkalint.lib.cluster
import data.kafkalint.lib.result

# Kafka checks a node against its own controller.quorum.voters
# (KafkaConfig.validateValues), so the rule does too: a voter whose config
# file is not given is no concern here. A list with a malformed entry is
# silent (Kafka fails on the entry first, KFK3007 reports it, and the
# malformed entry may be this node's), and so is an unknown id or list.
# The message names the id; the why lists the voter ids and quotes Kafka's
# error, the fix gives the entry to add.
report contains result.explain(result.fail_related(id_setting, message, [voters.location]), why, fix) if {
	some node in input.nodes
	node.is_controller
	cluster.has_id(node)
	voters := node.settings["controller.quorum.voters"]
	not voters.unknown
	ids := object.keys(cluster.voter_map(node))
	not node.id in ids
	id_setting := cluster.id_setting(node)
	message := sprintf("%s=%d of this controller is not in controller.quorum.voters: Kafka refuses to start it", [id_setting.key, node.id])
	why := sprintf(
		"controller.quorum.voters lists voter ids %s, not this node's id %d, and a controller of a static quorum must be one of the voters. Kafka refuses to start it: \"If process.roles contains the 'controller' role, the node id %d must be included in the set of voters controller.quorum.voters=...\".",
		[concat(", ", [sprintf("%d", [id]) | some id in sort(ids)]), node.id, node.id],
	)
	fix := sprintf("If this controller is a voter, add its entry %d@{host}:{port} to controller.quorum.voters (the same list on every node of the cluster); otherwise give it the id of its voter entry.", [node.id])
}
