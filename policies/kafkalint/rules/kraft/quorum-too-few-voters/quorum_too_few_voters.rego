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
#   fix: |
#     Run 3 or 5 dedicated controllers and list all of them in
#     controller.quorum.voters, or use a dynamic quorum
#     (controller.quorum.bootstrap.servers, Kafka 3.9+).
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

# Each count has its own message, why and fix (_static, _managed): the
# message gives the count, the why the value or where the platform's count
# is written.
report contains result.explain(result.fail(setting, text.message), text.why, text.fix) if {
	some i in _anchors
	node := input.nodes[i]
	ids := sort(cluster.voter_ids(node))
	count(ids) > 0
	count(ids) < _min_voters
	setting := node.settings["controller.quorum.voters"]
	not setting.unknown
	text := _static(setting.raw, ids)
}

report contains result.explain(result.fail(subject, text.message), text.why, text.fix) if {
	count(_anchors) == 0
	some node in input.nodes
	node.quorum.mode == "managed"
	c := input.controller_count
	c.value > 0
	c.value < _min_voters
	subject := {"key": "controller.quorum.voters", "location": c.location}
	text := _managed(c)
}

_managed(c) := {
	"message": "the controller quorum has a single voter: no controller failure is tolerated",
	"why": sprintf("The platform makes every controller a voter, and it runs 1 controller (%s): restarting, upgrading or losing that one controller stops all metadata changes.", [c.source]),
	"fix": "Run 3 or 5 controllers.",
} if c.value == 1

_managed(c) := {
	"message": "the controller quorum has 2 voters: no controller failure is tolerated",
	"why": sprintf("The platform makes every controller a voter, and it runs 2 controllers (%s). A majority of 2 is 2, so losing either controller stops all metadata changes.", [c.source]),
	"fix": "Run 3 or 5 controllers.",
} if c.value == 2

_managed(c) := {
	"message": sprintf("the controller quorum has %d voters: fewer than the %d required (quorum.min_voters)", [c.value, _min_voters]),
	"why": sprintf(
		"The platform makes every controller a voter, and it runs %d controllers (%s), fewer than the %d the parameter quorum.min_voters requires. %s",
		[c.value, c.source, _min_voters, _survives(c.value)],
	),
	"fix": sprintf("Run at least %d controllers.", [_min_voters]),
} if c.value >= 3

_survives(n) := sprintf("A majority of %d is %d, so the quorum survives losing at most %d of them.", [n, _majority(n), n - _majority(n)])

_majority(n) := floor(n / 2) + 1

_static_fix := "Run 3 or 5 dedicated controllers and list all of them in controller.quorum.voters (or use a dynamic quorum)."

_static(raw, ids) := {
	"message": sprintf("controller.quorum.voters defines a single voter (id %d): no controller failure is tolerated", [ids[0]]),
	"why": sprintf("controller.quorum.voters=%s defines a single voter, so the quorum has no fault tolerance: restarting, upgrading or losing that one controller stops all metadata changes.", [raw]),
	"fix": _static_fix,
} if count(ids) == 1

_static(raw, ids) := {
	"message": sprintf("controller.quorum.voters defines 2 voters (ids %d and %d): no controller failure is tolerated", [ids[0], ids[1]]),
	"why": sprintf("controller.quorum.voters=%s defines 2 voters. A majority of 2 is 2, so losing either controller stops all metadata changes.", [raw]),
	"fix": _static_fix,
} if count(ids) == 2

_static(raw, ids) := {
	"message": sprintf("controller.quorum.voters defines %d voters: fewer than the %d required (quorum.min_voters)", [count(ids), _min_voters]),
	"why": sprintf(
		"controller.quorum.voters=%s defines %d voters, fewer than the %d the parameter quorum.min_voters requires. %s",
		[raw, count(ids), _min_voters, _survives(count(ids))],
	),
	"fix": sprintf("List at least %d voters in controller.quorum.voters (or use a dynamic quorum).", [_min_voters]),
} if count(ids) >= 3
