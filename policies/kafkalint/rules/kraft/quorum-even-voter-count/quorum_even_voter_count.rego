# METADATA
# title: Controller quorum has an even number of voters
# description: |
#   The static controller quorum (controller.quorum.voters) has an even number
#   of voters, 4 or more, or a platform that manages the quorum itself runs an
#   even number of controllers, 4 or more. A majority of 4 is 3 and a majority of 6 is 4, so
#   they tolerate as few controller failures as 3 and 5 voters while adding a
#   machine that can fail.
# related_resources:
#   - description: Kafka docs, KRaft controllers
#     ref: https://kafka.apache.org/documentation/#kraft_voter
#   - description: Kafka docs, controller.quorum.voters
#     ref: https://kafka.apache.org/documentation/#brokerconfigs_controller.quorum.voters
# schemas:
#   - input: schema.cluster
# custom:
#   id: KFK3002
#   severity: warning
#   scope: production
#   applies_to: [broker, controller]
#   keys: [controller.quorum.voters]
#   since: unreleased
#   fix: |
#     Use an odd number of dedicated controllers, 3 or 5, and list all of them
#     in controller.quorum.voters (a platform that manages the quorum: run 3 or
#     5 controllers).
package kafkalint.rules.kraft["quorum-even-voter-count"]

import data.kafkalint.lib.cluster
import data.kafkalint.lib.result

# Anchoring policy (shared with KFK3001 quorum-too-few-voters):
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
#     reported once, where that count is written.

# _anchors are the indexes of the nodes whose voters line carries findings
# (cluster.quorum_anchors: the policy above), computed once per evaluation.
_anchors := cluster.quorum_anchors(input.nodes)

# The message gives the count; the why the value, the majority and the
# failures tolerated.
report contains result.explain(result.fail(setting, message), why, "Use an odd number of dedicated controllers, 3 or 5, and list all of them in controller.quorum.voters.") if {
	some i in _anchors
	node := input.nodes[i]
	n := count(cluster.voter_ids(node))
	n >= 4
	n % 2 == 0
	setting := node.settings["controller.quorum.voters"]
	not setting.unknown
	message := sprintf("controller.quorum.voters defines %d voters: an even count tolerates no more failures than %d", [n, n - 1])
	why := sprintf("controller.quorum.voters=%s defines %d voters. %s", [setting.raw, n, _tolerance(n)])
}

report contains result.explain(result.fail(subject, message), why, "Run an odd number of controllers, 3 or 5.") if {
	count(_anchors) == 0
	some node in input.nodes
	node.quorum.mode == "managed"
	c := input.controller_count
	n := c.value
	n >= 4
	n % 2 == 0
	subject := {"key": "controller.quorum.voters", "location": c.location}
	message := sprintf("the controller quorum has %d voters: an even count tolerates no more failures than %d", [n, n - 1])
	why := sprintf("The platform makes every controller a voter, and it runs %d controllers (%s). %s", [n, c.source, _tolerance(n)])
}

_tolerance(n) := sprintf(
	"A majority of %d is %d, so the quorum tolerates %s, no more than %d voters would, and the extra voter is one more machine that can fail.",
	[n, (n / 2) + 1, _failures((n / 2) - 1), n - 1],
)

_failures(1) := "1 controller failure"

_failures(k) := sprintf("%d controller failures", [k]) if k != 1
