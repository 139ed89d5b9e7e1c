# METADATA
# title: KRaft node without a controller quorum setting
# description: |
#   A KRaft node (process.roles set) sets neither controller.quorum.voters nor
#   controller.quorum.bootstrap.servers (or both are empty), so it cannot find
#   the controller quorum and Kafka refuses to start it: "If using
#   process.roles, either controller.quorum.bootstrap.servers must contain the
#   set of bootstrap controllers or controller.quorum.voters must contain a
#   parseable set of controllers."
# related_resources:
#   - description: Kafka docs, controller.quorum.bootstrap.servers
#     ref: https://kafka.apache.org/documentation/#brokerconfigs_controller.quorum.bootstrap.servers
#   - description: Kafka docs, controller.quorum.voters
#     ref: https://kafka.apache.org/documentation/#brokerconfigs_controller.quorum.voters
# schemas:
#   - input: schema.cluster
# custom:
#   id: KFK3006
#   severity: error
#   scope: all
#   applies_to: [broker, controller]
#   keys: [process.roles, controller.quorum.voters, controller.quorum.bootstrap.servers]
#   since: unreleased
#   fix: |
#     Add controller.quorum.bootstrap.servers=host:port,... (dynamic quorum,
#     3.9+) or controller.quorum.voters={id}@{host}:{port},... (static
#     quorum), with the same value on every broker and controller.
package kafkalint.rules.kraft["quorum-not-configured"]

import data.kafkalint.lib.result

# node.mode is "kraft" only when process.roles is set to a known value, and
# quorum.mode is "none" only when both quorum keys are absent or blank; a
# ${provider:...} placeholder in either key counts as set.
report contains result.fail(setting, message) if {
	some node in input.nodes
	node.mode == "kraft"
	node.quorum.mode == "none"
	setting := node.settings["process.roles"]
	message := sprintf("process.roles=%s without controller.quorum.voters or controller.quorum.bootstrap.servers", [setting.raw])
}
