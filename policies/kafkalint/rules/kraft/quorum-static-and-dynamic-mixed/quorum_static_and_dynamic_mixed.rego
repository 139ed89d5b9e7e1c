# METADATA
# title: Static and dynamic quorum configuration mixed
# description: |
#   The node sets both controller.quorum.voters (static quorum) and
#   controller.quorum.bootstrap.servers (dynamic quorum). Kafka accepts this
#   silently: it finds the leader through the bootstrap servers and uses the
#   voters only as the static voter set, which it ignores once the metadata log
#   holds a voter record (kraft.version=1).
# related_resources:
#   - description: Kafka docs, controller.quorum.bootstrap.servers
#     ref: https://kafka.apache.org/documentation/#brokerconfigs_controller.quorum.bootstrap.servers
#   - description: Kafka docs, controller.quorum.voters
#     ref: https://kafka.apache.org/documentation/#brokerconfigs_controller.quorum.voters
# schemas:
#   - input: schema.cluster
# custom:
#   id: KFK3003
#   severity: warning
#   scope: all
#   applies_to: [broker, controller]
#   keys: [controller.quorum.voters, controller.quorum.bootstrap.servers]
#   since: unreleased
#   fix: |
#     Pick one model on every node: keep only controller.quorum.voters for a
#     static quorum (kraft.version=0) or only
#     controller.quorum.bootstrap.servers for a dynamic one (check
#     kafka-features.sh describe before deleting either).
package kafkalint.rules.kraft["quorum-static-and-dynamic-mixed"]

import data.kafkalint.lib.cluster
import data.kafkalint.lib.result

# quorum.mode is "both" when both keys are set to a non-blank value, even a
# ${provider:...} placeholder; an unknown value never triggers the rule. A
# ZooKeeper-mode node uses neither key (cluster.without_quorum: KFK3019).
# The message names the keys; the why quotes their values.
report contains result.explain(result.fail_related(bootstrap, message, [voters.location]), why, _fix) if {
	some node in input.nodes
	node.quorum.mode == "both"
	not cluster.without_quorum(node)
	bootstrap := node.settings["controller.quorum.bootstrap.servers"]
	voters := node.settings["controller.quorum.voters"]
	not bootstrap.unknown
	not voters.unknown
	message := "controller.quorum.bootstrap.servers and controller.quorum.voters are both set: two quorum models in one file"
	why := sprintf(
		"controller.quorum.bootstrap.servers=%s and controller.quorum.voters=%s are both set. Kafka accepts both silently: it finds the leader through the bootstrap servers and uses the voters only as the static voter set, which it ignores once kraft.version=1, so the file can describe a voter set the cluster no longer uses.",
		[bootstrap.raw, voters.raw],
	)
}

_fix := "Pick one model on every node: keep only controller.quorum.voters for a static quorum (kraft.version=0) or only controller.quorum.bootstrap.servers for a dynamic one (check kafka-features.sh describe before deleting either)."
