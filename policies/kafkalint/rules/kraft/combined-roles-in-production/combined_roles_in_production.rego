# METADATA
# title: Combined broker and controller roles in production
# description: |
#   The node runs as broker and KRaft controller in one process
#   (process.roles=broker,controller). The Kafka docs do not recommend
#   combined mode for critical deployments: the controller is not isolated
#   from the broker's load, failures and restarts, and controllers cannot be
#   rolled or scaled separately from the brokers.
# related_resources:
#   - description: Kafka docs, KRaft deployment considerations
#     ref: https://kafka.apache.org/documentation/#kraft_deployment
#   - description: Kafka docs, process.roles
#     ref: https://kafka.apache.org/documentation/#brokerconfigs_process.roles
# schemas:
#   - input: schema.cluster
# custom:
#   id: KFK3005
#   severity: error
#   scope: production
#   applies_to: [broker, controller]
#   keys: [process.roles]
#   since: unreleased
package kafkalint.rules.kraft["combined-roles-in-production"]

import data.kafkalint.lib.result

# node.roles is empty when process.roles is absent or a ${provider:...}
# placeholder (mode "unknown"), so those stay silent.
report contains result.fail(setting, message) if {
	some node in input.nodes
	"broker" in node.roles
	"controller" in node.roles
	setting := node.settings["process.roles"]
	message := sprintf(
		"process.roles=%s runs the broker and a KRaft controller in one process: the Kafka docs do not recommend combined mode for critical deployments, because broker load, GC pauses, crashes and restarts also hit the quorum voter and controllers cannot be rolled or scaled separately; run 3 or 5 dedicated nodes with process.roles=controller and give the brokers process.roles=broker (on a running cluster this is a quorum migration, not a one-line edit)",
		[setting.raw],
	)
}
