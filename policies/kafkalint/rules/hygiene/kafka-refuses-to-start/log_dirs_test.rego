package kafkalint.rules.hygiene["kafka-refuses-to-start_test"]

import data.kafkalint.lib.testing as t

# Tests of log_dirs.rego.

test_fail_log_dirs_empty_on_4_1 if {
	node := t.with_setting(_broker, t.setting(_f, "log.dirs", "", 9))
	_refuses(_at("4.1", [node]), 9, "log.dirs", "log.dirs= names no directory", "Kafka 4.1 refuses to start (\"At least one log directory must be defined via log.dirs or log.dir.\")")
}

test_fail_log_dirs_empty_list_on_4_2 if {
	node := t.with_setting(_broker, _list("log.dirs", ",", [], 9))
	_refuses(_at("4.2", [node]), 9, "log.dirs", "log.dirs=, names no directory", "an empty list is rejected when the configuration is parsed, so Kafka 4.2 refuses to start")
}

test_success_log_dirs_absent if {
	_silent(_at("4.3", [_broker]))
}

# --- cordoned.log.dirs (4.3)

_cordon(raw) := _with(_quorum_broker, [["log.dirs", "/d/1,/d/2", 9], ["cordoned.log.dirs", raw, 10]])

test_fail_cordoned_not_in_log_dirs if {
	_refuses(_at("4.3", [_cordon("/d/3,/d/1")]), 10, "cordoned.log.dirs", "cordoned.log.dirs names /d/3, which log.dirs (line 9) does not list", "All entries in cordoned.log.dirs must be present in log.dirs or log.dir. Missing entries : /d/3")
}

test_fail_cordoned_star_with_dir if {
	_refuses(_at("4.3", [_cordon("/d/1,*")]), 10, "cordoned.log.dirs", "cordoned.log.dirs=/d/1,* mixes * with directories", "When cordoned.log.dirs is set to *, it must not contain other values")
}

test_fail_cordoned_against_log_dir_default if {
	_refuses(_at("4.3", [_with(_quorum_broker, [["cordoned.log.dirs", "/d/1", 10]])]), 10, "cordoned.log.dirs", "cordoned.log.dirs names /d/1, which log.dir's default /tmp/kafka-logs does not list", "Missing entries : /d/1")
}

test_success_cordoned_star if _silent(_at("4.3", [_cordon("*")]))

test_success_cordoned_listed if _silent(_at("4.3", [_cordon("/d/2")]))

test_success_cordoned_before_4_3 if _silent(_at("4.2", [_cordon("/d/3")]))

test_success_cordoned_log_dirs_placeholder if {
	_silent(_at("4.3", [_unknown(_cordon("/d/3"), "log.dirs", 9)]))
}

# --- meta.properties

_meta(entries) := t.at_version(t.full_cluster([], [], [t.meta("meta.properties", "", entries)], []), "4.3")

test_fail_meta_v1_without_cluster_id if {
	_refuses(_meta([["version", "1", 1], ["node.id", "1", 2]]), 1, "version", "meta.properties version=1 without cluster.id", "(\"cluster.id was not found.\")")
}

test_fail_meta_v1_without_node_id if {
	_refuses(_meta([["version", "1", 1], ["cluster.id", "abc", 2]]), 1, "version", "meta.properties version=1 without node.id", "(\"node.id was not found.\")")
}

test_success_meta_v1_complete if _silent(_meta([["version", "1", 1], ["cluster.id", "abc", 2], ["node.id", "1", 3]]))

test_success_meta_v0 if _silent(_meta([["version", "0", 1], ["cluster.id", "abc", 2]]))

test_success_meta_version_absent if _silent(_meta([["cluster.id", "abc", 2]]))
