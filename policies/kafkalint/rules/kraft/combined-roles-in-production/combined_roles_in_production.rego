# METADATA
# title: Combined broker and controller roles in production
# description: |
#   The node runs as broker and KRaft controller in one process
#   (process.roles=broker,controller). The Kafka docs do not recommend
#   combined mode for critical deployments: broker load, GC pauses, crashes
#   and restarts also hit the quorum voter, and controllers cannot be rolled
#   or scaled separately from the brokers.
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
#   fix: |
#     Run 3 or 5 dedicated nodes with process.roles=controller and give the
#     brokers process.roles=broker. On a running cluster this is a quorum
#     migration, not a one-line edit.
package kafkalint.rules.kraft["combined-roles-in-production"]

import data.kafkalint.lib.result

# node.roles is empty when process.roles is absent or a ${provider:...}
# placeholder (mode "unknown"), so those stay silent. A platform that sets
# process.roles from its own field (a KafkaNodePool's roles, the Bitnami
# chart's controller.controllerOnly) gives the setting an origin: the
# finding sits where that field is written (line 1 of the file when the
# chart's default applies), the message names the field, the why says how
# it sets the roles and the fix is the platform's.
report contains finding if {
	some node in input.nodes
	"broker" in node.roles
	"controller" in node.roles
	setting := node.settings["process.roles"]
	finding := _finding(setting)
}

# _why is the rule's why (its METADATA description), which a platform's
# finding extends.
_why := "The node runs as broker and KRaft controller in one process (process.roles=broker,controller). The Kafka docs do not recommend combined mode for critical deployments: broker load, GC pauses, crashes and restarts also hit the quorum voter, and controllers cannot be rolled or scaled separately from the brokers."

_finding(setting) := result.fail(setting, sprintf("process.roles=%s: broker and KRaft controller in one process", [setting.raw])) if not _platform(setting)

# The field is the origin up to its explanation ("controller.controllerOnly
# (not set: the chart's default ...)"), which the why gives in full.
_finding(setting) := result.explain(
	result.fail(setting, sprintf("process.roles=%s from %s: broker and KRaft controller in one process", [setting.raw, split(setting.origin, " (")[0]])),
	sprintf("The roles come from %s. %s", [setting.origin, _why]),
	"Give the controllers and the brokers separate node groups, 3 or 5 controller-only nodes and broker-only nodes (Strimzi: a KafkaNodePool with roles [controller] and one with roles [broker]; Bitnami chart: controller.controllerOnly: true and broker.replicaCount). On a running cluster this is a quorum migration, not a one-line edit.",
) if _platform(setting)

# _platform: the roles come from a platform field, not from process.roles
# itself or an environment variable that carries it (KAFKA_PROCESS_ROLES).
_platform(setting) if setting.origin_kind == "platform"
