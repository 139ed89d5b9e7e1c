package kafkalint.rules.hygiene["duplicate-key_test"]

import data.kafkalint.lib.testing as t
import data.kafkalint.rules.hygiene["duplicate-key"] as rule

_message(key, line, earlier) := sprintf("%s is set again at line %v (earlier at %s)", [key, line, earlier])

_loc(file, line) := {"file": file, "line": line, "column": 1}

# _duplicate is the loader's record of key repeated at line after earlier lines.
_duplicate(file, key, line, earlier) := {
	"key": key,
	"location": _loc(file, line),
	"previous": [_loc(file, l) | some l in earlier],
}

# _file is a source file of kind holding duplicates.
_file(path, kind, duplicates) := object.union(t.source_file(path, kind), {"duplicates": duplicates})

# _input is a cluster whose files are files.
_input(files) := object.union(t.cluster([], []), {"files": files})

_finding(file, line, key, message, earlier) := object.union(
	t.finding(file, line, key, message),
	{"related": [_loc(file, l) | some l in earlier]},
)

test_fail_key_repeated_once if {
	f := _file("server.properties", "node", [_duplicate("server.properties", "log.retention.hours", 9, [3])])
	rule.report == {_finding("server.properties", 9, "log.retention.hours", _message("log.retention.hours", 9, "line 3"), [3])} with input as _input([f])
}

test_fail_key_repeated_twice if {
	f := _file("server.properties", "node", [
		_duplicate("server.properties", "num.partitions", 7, [2]),
		_duplicate("server.properties", "num.partitions", 12, [2, 7]),
	])
	rule.report == {
		_finding("server.properties", 7, "num.partitions", _message("num.partitions", 7, "line 2"), [2]),
		_finding("server.properties", 12, "num.partitions", _message("num.partitions", 12, "lines 2, 7"), [2, 7]),
	} with input as _input([f])
}

test_fail_every_file_kind if {
	files := [
		_file("producer.properties", "client", [_duplicate("producer.properties", "acks", 4, [1])]),
		_file("mm2.properties", "mirrormaker", [_duplicate("mm2.properties", "clusters", 5, [1])]),
		_file("data/meta.properties", "meta", [_duplicate("data/meta.properties", "node.id", 3, [2])]),
	]
	rule.report == {
		_finding("producer.properties", 4, "acks", _message("acks", 4, "line 1"), [1]),
		_finding("mm2.properties", 5, "clusters", _message("clusters", 5, "line 1"), [1]),
		_finding("data/meta.properties", 3, "node.id", _message("node.id", 3, "line 2"), [2]),
	} with input as _input(files)
}

test_success_no_duplicates if {
	files := [
		_file("server.properties", "node", []),
		_file("producer.properties", "client", []),
	]
	count(rule.report) == 0 with input as _input(files)
}

test_success_settings_alone_never_fire if {
	# Defaults and placeholders are settings, not duplicates.
	node := object.union(
		t.node("server.properties", ["broker"], [["num.partitions", 1, 0], ["log.retention.hours", 24, 5]]),
		{"settings": {"log.dirs": t.unknown_setting("server.properties", "log.dirs", "${env:DIRS}", 6)}},
	)
	count(rule.report) == 0 with input as t.cluster([node], [])
}

test_fail_duplicate_of_placeholder_key if {
	# Keys only: a repeated key fires whatever its values, placeholders included.
	node := object.union(
		t.node("server.properties", ["broker"], []),
		{"settings": {"log.dirs": t.unknown_setting("server.properties", "log.dirs", "${env:DIRS}", 6)}},
	)
	f := _file("server.properties", "node", [_duplicate("server.properties", "log.dirs", 6, [2])])
	rule.report == {_finding("server.properties", 6, "log.dirs", _message("log.dirs", 6, "line 2"), [2])} with input as object.union(t.cluster([node], []), {"files": [f]})
}

test_fail_duplicate_in_yaml_has_a_format_neutral_why if {
	file := object.union(t.source_file("values.yaml", "node"), {"format": "helm", "duplicates": [{
		"key": "num.partitions",
		"location": {"file": "values.yaml", "line": 9, "column": 5},
		"previous": [{"file": "values.yaml", "line": 7, "column": 5}],
	}]})
	c := object.union(t.cluster([], []), {"files": [file]})
	rule.report == {{
		"message": "num.partitions is set again at line 9 (earlier at line 7)",
		"why": "Depending on the tool that reads the file, only one of the values takes effect or the file is rejected, so the value a reviewer sees may not be the one that runs.",
		"fix": "Keep exactly one entry for the key and delete the others.",
		"key": "num.partitions",
		"location": {"file": "values.yaml", "line": 9, "column": 5},
		"related": [{"file": "values.yaml", "line": 7, "column": 5}],
	}} with input as c
}

test_fail_many_earlier_lines_are_counted if {
	f := _file("server.properties", "node", [_duplicate("server.properties", "acks", 20, [2, 4, 6, 8, 10, 12, 14])])
	some finding in rule.report with input as _input([f])
	finding.message == "acks is set again at line 20 (earlier at lines 2, 4, 6, 8, 10 and 2 more)"
	count(finding.related) == 7
}

# Built with the loader (kafkalint.parse), not fixtures: a key written twice.
test_loader_duplicate_key if {
	reports := rule.report with input as kafkalint.parse("", "prod/kafka/server.properties", `process.roles=broker
node.id=4
controller.quorum.voters=1@c1:9093,2@c2:9093,3@c3:9093
controller.listener.names=CONTROLLER
listeners=SSL://:9093
num.partitions=3
num.partitions=6
`)
	{[f.location.file, f.location.line, object.get(f, "key", "")] | some f in reports} == {["prod/kafka/server.properties", 7, "num.partitions"]}
}
