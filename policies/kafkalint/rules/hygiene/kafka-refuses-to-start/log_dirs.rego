package kafkalint.rules.hygiene["kafka-refuses-to-start"]

import data.kafkalint.lib.result
import data.kafkalint.lib.settings
import data.kafkalint.lib.version

# Log directories (KafkaConfig.validateValues): log.dirs or log.dir names one,
# cordoned.log.dirs (4.3) cordons only directories of it, and the
# meta.properties Kafka finds in it is complete.

report contains result.explain(result.fail(dirs, message), why, "Set log.dirs to this node's data directories.") if {
	some node in input.nodes
	_all_settled(node, ["log.dirs", "log.dir"])
	dirs := _log_dirs_setting(node)
	settings.explicit_value(dirs)
	count([d | some d in split(dirs.raw, ","); trim_space(d) != ""]) == 0
	message := sprintf("%s=%s names no directory", [dirs.key, trim_space(dirs.raw)])
	why := sprintf("A node keeps its partitions in at least one log directory (log.dirs wins over log.dir). %s", [_log_dirs_refused])
}

# --- cordoned log directories (4.3: KafkaConfig.validateCordonedLogDirs) --------

report contains _refused(result.fail(s, message), context, words, fix) if {
	version.at_least(4, 3)
	some node in input.nodes
	node.is_broker
	s := node.settings["cordoned.log.dirs"]
	entries := _cordoned(node)
	"*" in entries
	count(entries) > 1
	message := sprintf("cordoned.log.dirs=%s mixes * with directories", [trim_space(s.raw)])
	context := "* cordons every log directory, so it stands alone."
	words := "When cordoned.log.dirs is set to *, it must not contain other values"
	fix := "Write * alone to cordon every directory, or list the directories."
}

report contains _refused(result.fail(s, message), context, words, fix) if {
	version.at_least(4, 3)
	some node in input.nodes
	node.is_broker
	s := node.settings["cordoned.log.dirs"]
	entries := _cordoned(node)
	not "*" in entries
	dirs := _log_dir_list(node)
	missing := [e | some e in entries; not e in dirs.values]
	count(missing) > 0
	message := sprintf("cordoned.log.dirs names %s, which %s does not list", [_cut(concat(", ", missing)), dirs.why])
	context := sprintf("A broker cordons only log directories it uses, compared as written, and %s does not list %s.", [dirs.why, concat(", ", missing)])
	words := sprintf("All entries in cordoned.log.dirs must be present in log.dirs or log.dir. Missing entries : %s", [concat(", ", missing)])
	fix := "Cordon only directories of log.dirs, written exactly as there."
}

# --- meta.properties (MetaProperties.Builder.build) -------------------------------

report contains result.explain(result.fail(v, message), why, fix) if {
	some meta in input.meta
	v := meta.settings.version
	trim_space(v.raw) == "1"
	some key in ["cluster.id", "node.id"]
	not settings.explicit(meta, key)
	message := sprintf("meta.properties version=1 without %s", [key])
	why := sprintf(
		"A KRaft (version 1) meta.properties needs cluster.id and node.id, which kafka-storage format writes. Kafka %s refuses to start with this log directory (\"%s was not found.\").",
		[input.kafka_version, key],
	)
	fix := sprintf("Restore %s in this meta.properties as kafka-storage format wrote it.", [key])
}

# --- helpers ------------------------------------------------------------------

# log.dirs wins over log.dir whenever it is set, even empty.
_log_dirs_setting(node) := node.settings["log.dirs"] if settings.explicit(node, "log.dirs")

_log_dirs_setting(node) := node.settings["log.dir"] if {
	not settings.explicit(node, "log.dirs")
	settings.explicit(node, "log.dir")
}

_log_dirs_refused := sprintf("From 4.2 an empty list is rejected when the configuration is parsed, so Kafka %s refuses to start.", [input.kafka_version]) if {
	version.at_least(4, 2)
} else := sprintf("Kafka %s refuses to start (\"At least one log directory must be defined via log.dirs or log.dir.\").", [input.kafka_version])

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
