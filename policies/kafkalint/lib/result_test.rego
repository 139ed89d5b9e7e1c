package kafkalint.lib.result_test

import data.kafkalint.lib.cluster
import data.kafkalint.lib.result

_loc(file, line) := {"file": file, "line": line, "column": 1}

# 14 locations around a/x.properties: 2 more lines of its file, 3 files of
# its directory, 1 of a subdirectory and 8 elsewhere.
_spread := [
	_loc("z/9.properties", 1),
	_loc("a/x.properties", 30),
	_loc("b/1.properties", 4),
	_loc("a/w.properties", 2),
	_loc("a/sub/v.properties", 1),
	_loc("c/1.properties", 1),
	_loc("a/y.properties", 7),
	_loc("a/x.properties", 2),
	_loc("b/2.properties", 1),
	_loc("a/v.properties", 5),
	_loc("d/1.properties", 1),
	_loc("e/1.properties", 1),
	_loc("f/1.properties", 1),
	_loc("g/1.properties", 1),
]

# Same file, then same directory, then path order; the count left out is
# exact.
_expected := {
	"related": [
		_loc("a/x.properties", 2),
		_loc("a/x.properties", 30),
		_loc("a/v.properties", 5),
		_loc("a/w.properties", 2),
		_loc("a/y.properties", 7),
		_loc("a/sub/v.properties", 1),
		_loc("b/1.properties", 4),
		_loc("b/2.properties", 1),
		_loc("c/1.properties", 1),
		_loc("d/1.properties", 1),
	],
	"omitted": 4,
}

test_nearest_caps_at_the_nearest_locations if {
	near := result.nearest(_loc("a/x.properties", 10), _spread)
	near == _expected
}

test_near_over_an_index_selects_the_same if {
	own := _loc("a/x.properties", 10)
	index := cluster.location_index(_spread)
	cluster.near(index, own) == _expected

	# own is one of the indexed locations: it is never related to itself
	with_own := cluster.location_index(array.concat(_spread, [own]))
	cluster.near(with_own, own) == _expected
}

test_location_index_lists_per_file_and_directory if {
	# In path order a/b/ sorts between a/b.properties and a/c.properties:
	# a directory's files need not be neighbours.
	index := cluster.location_index({
		_loc("a/c.properties", 1), _loc("a/b/c.properties", 2), _loc("a/b.properties", 3),
		_loc("a/b.properties", 1), _loc("x.properties", 1),
	})
	index.all == [
		_loc("a/b.properties", 1), _loc("a/b.properties", 3), _loc("a/b/c.properties", 2),
		_loc("a/c.properties", 1), _loc("x.properties", 1),
	]
	index.by_file == {
		"a/b.properties": [_loc("a/b.properties", 1), _loc("a/b.properties", 3)],
		"a/b/c.properties": [_loc("a/b/c.properties", 2)],
		"a/c.properties": [_loc("a/c.properties", 1)],
		"x.properties": [_loc("x.properties", 1)],
	}
	index.by_dir == {
		"a": [_loc("a/b.properties", 1), _loc("a/b.properties", 3), _loc("a/c.properties", 1)],
		"a/b": [_loc("a/b/c.properties", 2)],
		"": [_loc("x.properties", 1)],
	}
	index.dirs == {"a/b.properties": "a", "a/b/c.properties": "a/b", "a/c.properties": "a", "x.properties": ""}
	cluster.location_index([]) == {"all": [], "set": set(), "by_file": {}, "by_dir": {}, "dirs": {}}
}

test_near_reads_past_a_crowded_file_and_directory if {
	# 12 others in own's file: the cap is filled from it alone.
	crowded := [_loc("a/x.properties", n) | some n in numbers.range(1, 13)]
	near := cluster.near(cluster.location_index(crowded), _loc("a/x.properties", 1))
	near.related == [_loc("a/x.properties", n) | some n in numbers.range(2, 11)]
	near.omitted == 2
}

test_nearest_keeps_a_short_list if {
	short := [_loc("b", 1), _loc("a", 1)]
	result.nearest(_loc("c", 1), short) == {"related": short, "omitted": 0}
	cluster.near(cluster.location_index(short), _loc("c", 1)) == {"related": [_loc("a", 1), _loc("b", 1)], "omitted": 0}
}

test_fail_related_writes_related_omitted_only_when_capped if {
	f := result.fail_related({"key": "k", "location": _loc("a/x.properties", 10)}, "m", _spread)
	f.related == _expected.related
	f.related_omitted == 4
	short := result.fail_related({"key": "k", "location": _loc("a", 1)}, "m", [_loc("b", 1)])
	not "related_omitted" in object.keys(short)
}

test_names_are_capped_with_an_exact_count if {
	result.names({"c", "a", "b"}) == "a, b, c"
	result.names({"a", "b", "c", "d", "e", "f"}) == "a, b, c, d, e, f"
	result.names({"g", "f", "e", "d", "c", "b", "a"}) == "a, b, c, d, e and 2 more"
}

test_names_except_leaves_out_one_occurrence if {
	nc := cluster.name_counts(["f", "a", "b", "a", "c", "d", "e", "g"])
	cluster.names_except(nc, "b") == "a, c, d, e, f, g"

	# a name that occurs twice stays: another party has it too
	cluster.names_except(nc, "a") == "a, b, c, d, e and 2 more"
	cluster.names_except(cluster.name_counts(["a", "b"]), "a") == "b"
}

test_dir_of_a_path if {
	result.dir("a/b/c.properties") == "a/b"
	result.dir("c.properties") == ""
	result.dir("/etc/kafka/server.properties") == "/etc/kafka"
	result.dir("a//b.properties") == "a/"
	result.dir("a/") == "a"
	result.dir("") == ""

	# rune positions, not bytes
	result.dir("dépôt/kafka/ü.properties") == "dépôt/kafka"
}

# explain keeps the finding and adds its own why and fix.
test_explain_adds_why_and_fix if {
	f := result.fail({"key": "k", "location": _loc("a.properties", 3)}, "k=1 is wrong")
	result.explain(f, "because", "set k=2") == object.union(f, {"why": "because", "fix": "set k=2"})
}
