package kafkalint.rules.hygiene["kafka-refuses-to-start"]

import data.kafkalint.lib.result
import data.kafkalint.lib.settings
import data.kafkalint.lib.version

# The controller quorum (QuorumConfig, KafkaConfig.validateValues): entries
# of controller.quorum.voters and controller.quorum.bootstrap.servers, and
# auto-join, which only a controller may enable.

# --- controller auto-join on a broker (4.2+: KafkaConfig.validateValues) ---------

report contains result.fail(s, message) if {
	version.at_least(4, 2)
	some node in input.nodes
	node.mode == "kraft"
	node.is_broker
	not node.is_controller
	s := node.settings["controller.quorum.auto.join.enable"]
	settings.explicit(node, "controller.quorum.auto.join.enable")
	s.value == true
	message := sprintf(
		"controller.quorum.auto.join.enable=true on a broker-only node: Kafka %s refuses to start (\"controller.quorum.auto.join.enable is only supported when process.roles contains the 'controller' role.\"); remove it from the broker (it belongs on controllers)",
		[input.kafka_version],
	)
}

# --- quorum entries (QuorumConfig.parseVoterConnections / parseBootstrapServer) ---

# ConfigDef splits a LIST keeping empty entries (split(trimmed, -1)), so a
# trailing, leading or doubled comma gives an entry "" that the voter
# parser refuses; the loader's voter list drops empty entries, so they are
# found here from the raw value.
report contains result.fail(s, message) if {
	some node in input.nodes
	s := node.settings["controller.quorum.voters"]
	settings.explicit(node, "controller.quorum.voters")
	not s.unknown
	trimmed := trim_space(s.raw)
	trimmed != ""
	count([e | some e in split(trimmed, ","); trim_space(e) == ""]) > 0
	message := sprintf(
		"controller.quorum.voters=%s has an empty entry (a leading, trailing or doubled comma): Kafka %s refuses to start (\"Invalid configuration value for controller.quorum.voters. Each entry should be in the form `{id}@{host}:{port}`.\"); remove the extra comma",
		[trimmed, input.kafka_version],
	)
}

# Utils.getHost: the whole entry must be host:port, else no host is parsed.
report contains result.fail(s, message) if {
	version.at_least(3, 9)
	some node in input.nodes
	s := node.settings["controller.quorum.bootstrap.servers"]
	settings.explicit(node, "controller.quorum.bootstrap.servers")
	not s.unknown
	trimmed := trim_space(s.raw)
	trimmed != ""
	some entry in split(trimmed, ",")
	not regex.match(`^(?:[0-9a-zA-Z\-%._]*://)?\[?[0-9a-zA-Z\-%._:]*\]?:[0-9]+$`, trim_space(entry))
	message := sprintf(
		"controller.quorum.bootstrap.servers entry %q is not host:port: Kafka %s refuses to start (\"Failed to parse host name from %s for the configuration controller.quorum.bootstrap.servers. Each entry should be in the form \\\"{host}:{port}\\\"\"); write every entry as host:port, for example controller-1:9093",
		[trim_space(entry), input.kafka_version, trim_space(entry)],
	)
}
