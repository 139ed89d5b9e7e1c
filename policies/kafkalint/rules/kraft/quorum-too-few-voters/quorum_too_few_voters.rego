# METADATA
# title: Controller quorum has fewer than three voters
# description: |
#   The static controller quorum (controller.quorum.voters) has one or two
#   voters, or a platform that manages the quorum itself (Strimzi node pools,
#   the Bitnami chart) runs one or two controllers. An active controller needs
#   a majority of the voters, so one voter tolerates no failure and two voters
#   (majority 2) stop all metadata changes as soon as either controller is
#   down.
# related_resources:
#   - description: Kafka docs, KRaft controllers
#     ref: https://kafka.apache.org/documentation/#kraft_voter
#   - description: Kafka docs, controller.quorum.voters
#     ref: https://kafka.apache.org/documentation/#brokerconfigs_controller.quorum.voters
# schemas:
#   - input: schema.cluster
# custom:
#   id: KFK3001
#   severity: error
#   scope: production
#   applies_to: [broker, controller]
#   keys: [controller.quorum.voters]
#   since: unreleased
package kafkalint.rules.kraft["quorum-too-few-voters"]

import data.kafkalint.lib.cluster
import data.kafkalint.lib.result

# Anchoring policy (shared with KFK3002 quorum-even-voter-count):
#   - A cluster's voter set is stated by every node that sets
#     controller.quorum.voters. A node states a voter set when at least one of
#     its entries parses; the set is the distinct ids of those entries (a
#     ${provider:...} placeholder gives no entries: unknown, so silent).
#   - The rule reports once per node, at the controller.quorum.voters line of
#     each controller-role node (is_controller) whose voter set is faulty.
#     Brokers that repeat a controller's voter line are not reported again.
#   - Only when no controller-role node of the cluster states a voter set (for
#     example only broker files were given) is the finding reported at the
#     voters line of each node whose voter set is faulty.
#   - Managed quorum: when no node states a voter set and the platform
#     maintains the quorum (quorum.mode "managed"), every controller is a
#     voter, so the voter count is input.controller_count; the finding is
#     reported once, where that count is written (a KafkaNodePool's replicas
#     line, a chart's controller.replicaCount).

# _min_voters is the fewest voters a quorum may have (3 unless a --data file
# sets quorum.min_voters).
_min_voters := data.kafkalint.params.quorum.min_voters

# _anchors are the indexes of the nodes whose voters line carries findings
# (cluster.quorum_anchors: the policy above), computed once per evaluation.
_anchors := cluster.quorum_anchors(input.nodes)

report contains result.fail(setting, message) if {
	some i in _anchors
	node := input.nodes[i]
	ids := sort(cluster.voter_ids(node))
	count(ids) > 0
	count(ids) < _min_voters
	setting := node.settings["controller.quorum.voters"]
	not setting.unknown
	message := _message(setting.raw, ids)
}

report contains result.fail(subject, message) if {
	count(_anchors) == 0
	some node in input.nodes
	node.quorum.mode == "managed"
	c := input.controller_count
	c.value > 0
	c.value < _min_voters
	subject := {"key": "controller.quorum.voters", "location": c.location}
	message := _managed_message(c)
}

_managed_message(c) := sprintf(
	"the controller quorum has a single voter (%s: 1): the platform makes every controller a voter, so restarting, upgrading or losing that one controller stops all metadata changes and no failure is tolerated; run 3 or 5 controllers",
	[c.source],
) if c.value == 1

_managed_message(c) := sprintf(
	"the controller quorum has 2 voters (%s: 2): the platform makes every controller a voter, a majority of 2 is 2, so losing either controller stops all metadata changes and no failure is tolerated; run 3 or 5 controllers",
	[c.source],
) if c.value == 2

_managed_message(c) := sprintf(
	"the controller quorum has %d voters (%s: %d): fewer than the %d required (parameter quorum.min_voters); the platform makes every controller a voter and a majority of %d is %d, so it survives losing at most %d of them; run at least %d controllers",
	[c.value, c.source, c.value, _min_voters, c.value, _majority(c.value), c.value - _majority(c.value), _min_voters],
) if c.value >= 3

_majority(n) := floor(n / 2) + 1

_message(raw, ids) := sprintf(
	"controller.quorum.voters=%s defines a single voter (id %d): the quorum has no fault tolerance, so restarting, upgrading or losing that one controller stops all metadata changes; run 3 or 5 dedicated controllers and list all of them in controller.quorum.voters (or use a dynamic quorum)",
	[raw, ids[0]],
) if count(ids) == 1

_message(raw, ids) := sprintf(
	"controller.quorum.voters=%s defines 2 voters (ids %d and %d): a majority of 2 is 2, so losing either controller stops all metadata changes and no failure is tolerated; run 3 or 5 dedicated controllers and list all of them in controller.quorum.voters (or use a dynamic quorum)",
	[raw, ids[0], ids[1]],
) if count(ids) == 2

_message(raw, ids) := sprintf(
	"controller.quorum.voters=%s defines %d voters: fewer than the %d required (parameter quorum.min_voters); a majority of %d is %d, so it survives losing at most %d of them; list at least %d voters in controller.quorum.voters (or use a dynamic quorum)",
	[raw, count(ids), _min_voters, count(ids), _majority(count(ids)), count(ids) - _majority(count(ids)), _min_voters],
) if count(ids) >= 3
