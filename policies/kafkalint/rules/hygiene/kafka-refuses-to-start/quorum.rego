package kafkalint.rules.hygiene["kafka-refuses-to-start"]

import data.kafkalint.lib.result
import data.kafkalint.lib.settings
import data.kafkalint.lib.version

# The controller quorum (QuorumConfig, KafkaConfig.validateValues): entries
# of controller.quorum.voters and controller.quorum.bootstrap.servers, and
# auto-join, which only a controller may enable.

# --- controller auto-join on a broker (4.2+: KafkaConfig.validateValues) ---------

report contains _refused(result.fail(s, message), context, words, fix) if {
	version.at_least(4, 2)
	some node in input.nodes
	node.mode == "kraft"
	node.is_broker
	not node.is_controller
	s := node.settings["controller.quorum.auto.join.enable"]
	settings.explicit(node, "controller.quorum.auto.join.enable")
	s.value == true
	message := "controller.quorum.auto.join.enable=true on a broker-only node"
	context := "Only a controller joins the controller quorum."
	words := "controller.quorum.auto.join.enable is only supported when process.roles contains the 'controller' role."
	fix := "Remove controller.quorum.auto.join.enable from the broker (it belongs on controllers)."
}

# --- quorum entries (QuorumConfig.parseVoterConnections / parseBootstrapServer) ---

# ConfigDef splits a LIST keeping empty entries (split(trimmed, -1)), so a
# trailing, leading or doubled comma gives an entry "" that the voter
# parser refuses; the loader's voter list drops empty entries, so they are
# found here from the raw value.
report contains _refused(result.fail(s, message), context, words, "Remove the extra comma.") if {
	some node in input.nodes
	s := node.settings["controller.quorum.voters"]
	settings.explicit(node, "controller.quorum.voters")
	not s.unknown
	trimmed := trim_space(s.raw)
	trimmed != ""
	count([e | some e in split(trimmed, ","); trim_space(e) == ""]) > 0
	message := sprintf("controller.quorum.voters=%s has an empty entry", [trimmed])
	context := "A leading, trailing or doubled comma leaves an empty entry, which Kafka keeps and cannot parse as a voter."
	words := "Invalid configuration value for controller.quorum.voters. Each entry should be in the form `{id}@{host}:{port}`."
}

# Utils.getHost: the whole entry must be host:port, else no host is parsed.
report contains _refused(result.fail(s, message), context, words, fix) if {
	version.at_least(3, 9)
	some node in input.nodes
	s := node.settings["controller.quorum.bootstrap.servers"]
	settings.explicit(node, "controller.quorum.bootstrap.servers")
	not s.unknown
	trimmed := trim_space(s.raw)
	trimmed != ""
	some entry in split(trimmed, ",")
	not regex.match(`^(?:[0-9a-zA-Z\-%._]*://)?\[?[0-9a-zA-Z\-%._:]*\]?:[0-9]+$`, trim_space(entry))
	message := sprintf("controller.quorum.bootstrap.servers entry %q is not host:port", [_cut(trim_space(entry))])
	context := "Kafka reads every entry of controller.quorum.bootstrap.servers as a host and a port."
	words := sprintf(
		"Failed to parse host name from %s for the configuration controller.quorum.bootstrap.servers. Each entry should be in the form \\\"{host}:{port}\\\"",
		[trim_space(entry)],
	)
	fix := "Write every entry as host:port, for example controller-1:9093."
}
