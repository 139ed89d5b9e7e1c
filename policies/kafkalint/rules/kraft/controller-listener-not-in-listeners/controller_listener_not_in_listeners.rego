# METADATA
# title: Controller listener name missing from listeners
# description: |
#   A node with the controller role names a listener in
#   controller.listener.names that its listeners do not define. Kafka
#   refuses to start it: a controller must bind every controller listener it
#   names.
# related_resources:
#   - description: Kafka docs, controller.listener.names
#     ref: https://kafka.apache.org/documentation/#brokerconfigs_controller.listener.names
#   - description: Kafka docs, listeners
#     ref: https://kafka.apache.org/documentation/#brokerconfigs_listeners
# schemas:
#   - input: schema.cluster
# custom:
#   id: KFK3015
#   severity: error
#   scope: all
#   applies_to: [controller]
#   keys: [controller.listener.names, listeners]
#   since: unreleased
#   fix: |
#     Add the named listener to listeners ({NAME}://{host}:{port}, and point
#     this controller's voter entry at it), or correct the name in
#     controller.listener.names.
package kafkalint.rules.kraft["controller-listener-not-in-listeners"]

import data.kafkalint.lib.cluster
import data.kafkalint.lib.result

# Names compare upper-cased, as Kafka upper-cases listener names (a
# lower-case controller.listener.names entry is a separate concern). Without
# a listeners key the node binds Kafka's default PLAINTEXT://:9092. An
# unknown value (${provider:...}) or a listeners entry that does not parse
# (it may be the controller listener) is silent; an absent
# controller.listener.names is another rule's concern.
# The message names the missing listeners; the why quotes both keys and
# Kafka's error, the fix the listener to add.
report contains result.explain(result.fail_related(names_setting, message, _related(node)), why, fix) if {
	some node in input.nodes
	node.is_controller
	names_setting := node.settings["controller.listener.names"]
	names_setting.source == "explicit"
	not names_setting.unknown
	bound := cluster.listener_names(node)
	missing := [name | some name in cluster.controller_names(node); not name in bound]
	count(missing) > 0
	message := sprintf("%s in controller.listener.names %s: Kafka refuses to start it", [concat(", ", missing), _verb(missing)])
	why := sprintf(
		"controller.listener.names=%s names %s, which %s (%s). Kafka refuses to start a controller with \"controller.listener.names must only contain values appearing in the 'listeners' configuration when running the KRaft controller role\": a controller must bind every controller listener it names.",
		[names_setting.raw, concat(", ", missing), _verb(missing), _bound_text(node)],
	)
	fix := sprintf("Add a listener %s://{host}:{port} to listeners (and point this controller's voter entry at it), or correct the name in controller.listener.names.", [missing[0]])
}

_verb(missing) := "is not a listener of this node" if count(missing) == 1

_verb(missing) := "are not listeners of this node" if count(missing) > 1

_bound_text(node) := sprintf("listeners=%s", [s.raw]) if {
	s := node.settings.listeners
	s.source == "explicit"
} else := "listeners is not set, so Kafka binds its default PLAINTEXT://:9092"

_related(node) := [s.location] if {
	s := node.settings.listeners
	s.source == "explicit"
} else := []
