package kafkalint.rules.hygiene["kafka-refuses-to-start"]

import data.kafkalint.lib.result
import data.kafkalint.lib.settings
import data.kafkalint.lib.version

# Log directories (KafkaConfig.validateValues): log.dirs or log.dir names one,
# cordoned.log.dirs (4.3) cordons only directories of it, and the
# meta.properties Kafka finds in it is complete.

report contains result.fail(dirs, message) if {
	some node in input.nodes
	_all_settled(node, ["log.dirs", "log.dir"])
	dirs := _log_dirs_setting(node)
	settings.explicit_value(dirs)
	count([d | some d in split(dirs.raw, ","); trim_space(d) != ""]) == 0
	message := sprintf(
		"%s=%s names no directory: Kafka %s refuses to start (%s); set log.dirs to this node's data directories",
		[dirs.key, trim_space(dirs.raw), input.kafka_version, _log_dirs_error],
	)
}

# --- cordoned log directories (4.3: KafkaConfig.validateCordonedLogDirs) --------

report contains result.fail(s, message) if {
	version.at_least(4, 3)
	some node in input.nodes
	node.is_broker
	s := node.settings["cordoned.log.dirs"]
	entries := _cordoned(node)
	"*" in entries
	count(entries) > 1
	message := sprintf(
		"cordoned.log.dirs=%s mixes * with directories: Kafka %s refuses to start (\"When cordoned.log.dirs is set to *, it must not contain other values\"); write * alone to cordon every directory, or list the directories",
		[trim_space(s.raw), input.kafka_version],
	)
}

report contains result.fail(s, message) if {
	version.at_least(4, 3)
	some node in input.nodes
	node.is_broker
	s := node.settings["cordoned.log.dirs"]
	entries := _cordoned(node)
	not "*" in entries
	dirs := _log_dir_list(node)
	missing := [e | some e in entries; not e in dirs.values]
	count(missing) > 0
	message := sprintf(
		"cordoned.log.dirs names %s, which %s does not list: Kafka %s refuses to start (\"All entries in cordoned.log.dirs must be present in log.dirs or log.dir. Missing entries : %s\"); cordon only directories of log.dirs, written exactly as there",
		[concat(", ", missing), dirs.why, input.kafka_version, concat(", ", missing)],
	)
}

# --- meta.properties (MetaProperties.Builder.build) -------------------------------

report contains result.fail(v, message) if {
	some meta in input.meta
	v := meta.settings.version
	trim_space(v.raw) == "1"
	some key in ["cluster.id", "node.id"]
	not settings.explicit(meta, key)
	message := sprintf(
		"meta.properties version=1 without %s: Kafka %s refuses to start with this log directory (\"%s was not found.\"); a KRaft meta.properties needs cluster.id and node.id, written by kafka-storage format",
		[key, input.kafka_version, key],
	)
}

# --- helpers ------------------------------------------------------------------

# log.dirs wins over log.dir whenever it is set, even empty.
_log_dirs_setting(node) := node.settings["log.dirs"] if settings.explicit(node, "log.dirs")

_log_dirs_setting(node) := node.settings["log.dir"] if {
	not settings.explicit(node, "log.dirs")
	settings.explicit(node, "log.dir")
}

_log_dirs_error := "an empty list is rejected when the configuration is parsed" if version.at_least(4, 2)

_log_dirs_error := "\"At least one log directory must be defined via log.dirs or log.dir.\"" if not version.at_least(4, 2)

_cordoned(node) := [trim_space(e) | some e in split(s.raw, ","); trim_space(e) != ""] if {
	s := node.settings["cordoned.log.dirs"]
	settings.explicit(node, "cordoned.log.dirs")
	not s.unknown
}

# _log_dir_list: log.dirs when written, else log.dir, else log.dir's default.
_log_dir_list(node) := {"values": _entries(s.raw), "why": sprintf("log.dirs (line %d)", [s.location.line])} if {
	s := node.settings["log.dirs"]
	settings.explicit(node, "log.dirs")
	not s.unknown
} else := {"values": _entries(s.raw), "why": sprintf("log.dir (line %d)", [s.location.line])} if {
	not settings.explicit(node, "log.dirs")
	_full_file(node, "log.dirs")
	s := node.settings["log.dir"]
	settings.explicit(node, "log.dir")
	not s.unknown
} else := {"values": ["/tmp/kafka-logs"], "why": "log.dir's default /tmp/kafka-logs"} if {
	not settings.explicit(node, "log.dirs")
	not settings.explicit(node, "log.dir")
	_full_file(node, "log.dirs")
	_full_file(node, "log.dir")
}
