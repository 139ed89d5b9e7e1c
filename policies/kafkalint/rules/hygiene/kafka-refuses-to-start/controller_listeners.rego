package kafkalint.rules.hygiene["kafka-refuses-to-start"]

import data.kafkalint.lib.cluster
import data.kafkalint.lib.result
import data.kafkalint.lib.settings
import data.kafkalint.lib.version

# The controller listeners of a KRaft node (KafkaConfig.validateValues,
# the controller listener checks): what a controller-only node may list, and how Kafka compares
# controller.listener.names with listeners.

# --- controller-only nodes ------------------------------------

report contains _refused(result.fail(node.settings.listeners, message), context, words, fix) if {
	some node in input.nodes
	cluster.dedicated_controller(node)
	_all_settled(node, ["listeners", "controller.listener.names"])
	cluster.listeners_known(node)
	settings.explicit(node, "listeners")
	count(cluster.controller_names(node)) > 0
	others := [l.name | some l in node.listeners; not l.name in cluster.controller_names(node)]
	count(others) > 0
	message := sprintf("process.roles=controller but listeners also has %s, not in controller.listener.names", [_cut(concat(", ", others))])
	context := sprintf("A controller-only node listens only on the listeners of controller.listener.names, which does not name %s.", [concat(", ", others)])
	words := "The listeners config must only contain KRaft controller listeners from controller.listener.names when process.roles=controller"
	fix := "Remove the broker listeners from this controller."
}

report contains _refused(result.fail(ibl, message), context, words, fix) if {
	version.at_least(4, 0)
	some node in input.nodes
	cluster.dedicated_controller(node)
	_all_settled(node, ["inter.broker.listener.name", "controller.listener.names"])
	ibl := node.settings["inter.broker.listener.name"]
	settings.explicit_value(ibl)
	upper(ibl.value) in cluster.controller_names(node)
	message := sprintf("inter.broker.listener.name=%s names this controller's own listener", [ibl.value])
	context := "A controller-only node has no inter-broker listener, and its controller listener cannot be one."
	words := "controller.listener.names must not contain an explicitly set inter.broker.listener.name configuration value when process.roles=controller"
	fix := "Remove inter.broker.listener.name from the controller."
}

# --- controller listener names (KafkaConfig.validateValues) ----------------------

# Kafka upper-cases listener names but compares controller.listener.names as
# written (KafkaConfigTest.testLowercaseControllerListenerNames), so a
# lower-case name never matches its listener on a node with the controller
# role. KFK3015 compares case-insensitively and stays silent on these.
report contains _refused(result.fail(s, message), context, _lowercase_words(node), fix) if {
	some node in input.nodes
	node.mode == "kraft"
	node.is_controller
	s := node.settings["controller.listener.names"]
	settings.explicit(node, "controller.listener.names")
	listener_names := {l.name | some l in node.listeners; not l.error}
	lowered := [n | some n in node.controller_listener_names; n != upper(n); upper(n) in listener_names]
	count(lowered) > 0
	uppered := concat(", ", [upper(n) | some n in lowered])
	message := sprintf("controller.listener.names=%s is not upper-case: it never matches listener %s", [trim_space(s.raw), _cut(uppered)])
	context := sprintf(
		"Kafka upper-cases listener names but compares controller.listener.names as written, so %s never matches listener %s.",
		[concat(", ", lowered), uppered],
	)
	fix := sprintf("Write controller.listener.names in upper case: controller.listener.names=%s.", [upper(trim_space(s.raw))])
}

# --- helpers ------------------------------------------------------------------

_lowercase_words(node) := "The listeners config must only contain KRaft controller listeners from controller.listener.names when process.roles=controller" if {
	not node.is_broker
} else := "controller.listener.names must contain at least one value appearing in the 'listeners' configuration when running the KRaft controller role" if {
	listener_names := {l.name | some l in node.listeners}
	every n in node.controller_listener_names {
		not n in listener_names
	}
} else := "controller.listener.names must only contain values appearing in the 'listeners' configuration when running the KRaft controller role"
