# METADATA
# title: Broker-only node misconfigures the controller listener
# description: |
#   A node with only the broker role binds a controller listener in
#   listeners, names no controller listener at all, or names one that its
#   explicit listener.security.protocol.map does not map. Kafka refuses to
#   start the broker in each case: a broker uses controller.listener.names
#   only to connect to the quorum, never to serve it.
# related_resources:
#   - description: Kafka docs, controller.listener.names
#     ref: https://kafka.apache.org/documentation/#brokerconfigs_controller.listener.names
#   - description: Kafka docs, listener.security.protocol.map
#     ref: https://kafka.apache.org/documentation/#brokerconfigs_listener.security.protocol.map
# schemas:
#   - input: schema.cluster
# custom:
#   id: KFK3016
#   severity: error
#   scope: all
#   applies_to: [broker]
#   keys: [controller.listener.names, listeners, listener.security.protocol.map]
#   since: unreleased
#   fix: |
#     Remove the controller listener from the broker's listeners (the
#     controllers bind it), set controller.listener.names to the controllers'
#     listener name, and when listener.security.protocol.map is set, add
#     NAME:PROTOCOL for that name with the protocol the controllers use.
package kafkalint.rules.kraft["broker-exposes-controller-listener"]

import data.kafkalint.lib.cluster
import data.kafkalint.lib.result

# Only KRaft nodes whose process.roles is exactly broker are checked (a
# combined node serves the quorum; a ZooKeeper-mode broker has no controller
# listener). Names compare upper-cased, as Kafka upper-cases listener names.
# Unknown values (${provider:...}) are silent.

# A controller listener bound in listeners. Without a listeners key the
# broker binds Kafka's default PLAINTEXT://:9092. Each of the three checks
# has its own Kafka error and remedy, so each finding has its own why and
# fix.
report contains result.explain(finding, why, fix) if {
	some node in input.nodes
	cluster.broker_only(node)
	_names_known(node)
	bound := cluster.listener_names(node)
	exposed := concat(", ", [name | some name in cluster.controller_names(node); name in bound])
	exposed != ""
	message := sprintf("%s binds the controller listener %s: Kafka refuses to start a broker-only node", [_listeners_subject(node), exposed])
	finding := _at_listeners(node, message)
	why := sprintf(
		"%s binds %s, which controller.listener.names=%s names as the controller listener. Kafka refuses to start the node: \"controller.listener.names must not contain a value appearing in the 'listeners' configuration when running KRaft with just the broker role\". A broker only connects to the controllers through that name; it never serves the quorum.",
		[_listeners_text(node), exposed, node.settings["controller.listener.names"].raw],
	)
	fix := sprintf("Remove %s from listeners (the controllers bind it) and keep it in controller.listener.names.", [exposed])
}

# No controller listener named: the key is blank, or absent from a whole
# .properties file (another format may take it from elsewhere, and a
# platform that manages it sets it itself).
report contains result.explain(finding, why, fix) if {
	some node in input.nodes
	cluster.broker_only(node)
	count(node.controller_listener_names) == 0
	not node.settings["controller.listener.names"].unknown
	_names_expected(node)
	message := sprintf("controller.listener.names %s on this broker-only node: Kafka refuses to start it", [_names_state(node)])
	finding := _at_names(node, message)
	why := "A broker needs controller.listener.names to know how to reach the controllers. Kafka refuses to start it without one: \"controller.listener.names must contain at least one value when running KRaft with just the broker role\" (from Kafka 4.2 the key is required)."
	fix := "Set it to the controllers' listener name (for example controller.listener.names=CONTROLLER), and map that name in listener.security.protocol.map if the map is set."
}

# A controller listener name the explicit protocol map does not map.
report contains result.explain(result.fail(map_setting, message), why, fix) if {
	some node in input.nodes
	cluster.broker_only(node)
	_names_known(node)
	map_setting := node.settings["listener.security.protocol.map"]
	map_setting.source == "explicit"
	not node.protocol_map_unknown
	unmapped := [name | some name in cluster.controller_names(node); not node.protocol_map[name]]
	count(unmapped) > 0
	message := sprintf("listener.security.protocol.map does not map the controller listener %s: Kafka refuses to start it", [concat(", ", unmapped)])
	why := sprintf(
		"listener.security.protocol.map=%s is written in the file, so it replaces the implicit map and every listener name needs an entry, including the controller listener %s named in controller.listener.names. Kafka refuses to start the broker: \"Controller listener with name %s defined in controller.listener.names not found in listener.security.protocol.map\".",
		[map_setting.raw, concat(", ", unmapped), unmapped[0]],
	)
	fix := sprintf("Add %s:{protocol} to listener.security.protocol.map, with the protocol the controllers use for that listener.", [unmapped[0]])
}

_names_state(node) := "is empty" if node.settings["controller.listener.names"].source == "explicit"

_names_state(node) := "is not set" if not node.settings["controller.listener.names"].source == "explicit"

_names_expected(node) if node.settings["controller.listener.names"].source == "explicit"

_names_expected(node) if cluster.absent_means_default(node, "controller.listener.names")

_names_known(node) if {
	setting := node.settings["controller.listener.names"]
	setting.source == "explicit"
	not setting.unknown
}

# _listeners_subject names the listeners in the message: the key, or the
# default it runs with (its value is short); _listeners_text quotes the
# value for the why.
_listeners_subject(node) := "listeners" if {
	node.settings.listeners.source == "explicit"
} else := "listeners (default PLAINTEXT://:9092)"

_listeners_text(node) := sprintf("listeners=%s", [s.raw]) if {
	s := node.settings.listeners
	s.source == "explicit"
} else := "Kafka's default listeners=PLAINTEXT://:9092 (listeners is not set)"

_at_listeners(node, message) := result.fail(s, message) if {
	s := node.settings.listeners
	s.source == "explicit"
} else := result.missing(node, "listeners", message)

_at_names(node, message) := result.fail(s, message) if {
	s := node.settings["controller.listener.names"]
	s.source == "explicit"
} else := result.missing(node, "controller.listener.names", message)
