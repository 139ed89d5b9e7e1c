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
# placeholder (mode "unknown"), so those stay silent. A platform that sets
# process.roles from its own field (a KafkaNodePool's roles, the Bitnami
# chart's controller.controllerOnly) gives the setting an origin: the
# finding sits where that field is written (line 1 of the file when the
# chart's default applies) and the message names the field to change.
report contains result.fail(setting, message) if {
	some node in input.nodes
	"broker" in node.roles
	"controller" in node.roles
	setting := node.settings["process.roles"]
	message := _message(setting)
}

_why := "runs the broker and a KRaft controller in one process: the Kafka docs do not recommend combined mode for critical deployments, because broker load, GC pauses, crashes and restarts also hit the quorum voter and controllers cannot be rolled or scaled separately"

_message(setting) := sprintf(
	"process.roles=%s %s; run 3 or 5 dedicated nodes with process.roles=controller and give the brokers process.roles=broker (on a running cluster this is a quorum migration, not a one-line edit)",
	[setting.raw, _why],
) if not _platform(setting)

_message(setting) := sprintf(
	"process.roles=%s, from %s, %s; give the controllers and the brokers separate node groups, 3 or 5 controller-only nodes and broker-only nodes (Strimzi: a KafkaNodePool with roles [controller] and one with roles [broker]; Bitnami chart: controller.controllerOnly: true and broker.replicaCount) (on a running cluster this is a quorum migration, not a one-line edit)",
	[setting.raw, setting.origin, _why],
) if _platform(setting)

# _platform: the roles come from a platform field, not from process.roles
# itself or an environment variable that carries it (KAFKA_PROCESS_ROLES).
_platform(setting) if setting.origin_kind == "platform"
