package kafkalint.rules.kraft["quorum-voters-malformed_test"]

import data.kafkalint.lib.result
import data.kafkalint.lib.testing as t
import data.kafkalint.rules.kraft["quorum-voters-malformed"] as rule

_key := "controller.quorum.voters"

# _voter is an entry that parses.
_voter(file, line, id, host, port) := {
	"id": id,
	"host": host,
	"port": port,
	"raw": sprintf("%d@%s:%d", [id, host, port]),
	"location": {"file": file, "line": line, "column": 1},
}

# _bad is an entry that does not parse (id, host and port are zero values).
_bad(file, line, raw, error) := {
	"id": 0,
	"host": "",
	"port": 0,
	"raw": raw,
	"error": error,
	"location": {"file": file, "line": line, "column": 1},
}

# _with_voters gives node controller.quorum.voters at line with the given entries.
_with_voters(node, line, voters) := object.union(node, {
	"quorum": {"mode": "static", "voters": voters, "bootstrap_servers": []},
	"settings": {_key: t.setting(node.file, _key, concat(",", [v.raw | some v in voters]), line)},
})

_malformed_fix := "Write every entry as {id}@{host}:{port}, for example 1@controller-1:9093 (IPv6 hosts in brackets: 1@[::1]:9093)."

# _malformed is the finding at file:line about the entry raw that does not
# parse; short is the message's (cut) text of entry and error.
_malformed(file, line, raw, error, short) := result.explain(
	t.finding(file, line, _key, sprintf("controller.quorum.voters entry %s", [short])),
	sprintf("controller.quorum.voters entry %q is malformed (%s). Kafka parses the whole voter list when it loads the configuration and refuses to start the node.", [raw, error]),
	_malformed_fix,
)

_duplicate(file, line, id, entries, last) := result.explain(
	t.finding(file, line, _key, sprintf("controller.quorum.voters lists voter id %d in %d entries: Kafka keeps only the last", [id, count(entries)])),
	sprintf(
		"controller.quorum.voters lists voter id %d in %d entries (%s). Kafka raises no error and silently keeps only the last one (%s), so the quorum has fewer voters than the file shows and the other hosts are never used.",
		[id, count(entries), concat(", ", entries), last],
	),
	"Give every controller its own node.id and list each id once.",
)

test_fail_malformed_wildcard_and_duplicate if {
	file := "controller.properties"
	node := _with_voters(t.node(file, ["controller"], []), 4, [
		_voter(file, 4, 1, "controller-1", 9093),
		_bad(file, 4, "2@controller-2", "\"controller-2\" has no port"),
		_voter(file, 4, 1, "controller-3", 9093),
		_voter(file, 4, 3, "0.0.0.0", 9093),
		_bad(file, 4, "x@controller-4:9093", "voter id \"x\" is not an integer"),
	])
	rule.report == {
		_malformed(file, 4, "2@controller-2", "\"controller-2\" has no port", "\"2@controller-2\": \"controller-2\" has no port"),
		_malformed(file, 4, "x@controller-4:9093", "voter id \"x\" is not an integer", "\"x@controller-4:9093\": voter id \"x\" is not an integer"),
		result.explain(
			t.finding(file, 4, _key, "controller.quorum.voters entry \"3@0.0.0.0:9093\" uses host 0.0.0.0: Kafka refuses to start the node"),
			"controller.quorum.voters entry \"3@0.0.0.0:9093\" passes config parsing, but the node fails to start with \"Host string (0.0.0.0) is not routeable\": every broker and controller must connect to voter 3 at that address.",
			"Give voter 3 a host name or address of that controller that every node can reach.",
		),
		_duplicate(file, 4, 1, ["1@controller-1:9093", "1@controller-3:9093"], "1@controller-3:9093"),
	} with input as t.cluster([node], [])
}

test_fail_duplicate_reported_once_per_id if {
	file := "broker.properties"
	node := _with_voters(t.node(file, ["broker"], []), 7, [
		_voter(file, 7, 2, "controller-1", 9093),
		_voter(file, 7, 2, "controller-2", 9093),
		_voter(file, 7, 2, "controller-3", 9093),
	])
	rule.report == {_duplicate(file, 7, 2, ["2@controller-1:9093", "2@controller-2:9093", "2@controller-3:9093"], "2@controller-3:9093")} with input as t.cluster([node], [])
}

test_fail_on_zookeeper_mode_node_that_sets_the_key if {
	file := "server.properties"
	node := _with_voters(t.node(file, [], []), 2, [_bad(file, 2, "1@controller-1:99999", "port 99999 is out of range")])
	rule.report == {_malformed(file, 2, "1@controller-1:99999", "port 99999 is out of range", "\"1@controller-1:99999\": port 99999 is out of range")} with input as t.cluster([node], [])
}

test_fail_two_malformed_entries_are_not_a_duplicate_id if {
	file := "controller.properties"
	node := _with_voters(t.node(file, ["controller"], []), 3, [
		_bad(file, 3, "controller-1:9093", "entry is not in the form {id}@{host}:{port}"),
		_bad(file, 3, "controller-2:9093", "entry is not in the form {id}@{host}:{port}"),
	])
	rule.report == {
		_malformed(file, 3, "controller-1:9093", "entry is not in the form {id}@{host}:{port}", "\"controller-1:9093\": entry is not in the form {id}@{host}:{port}"),
		_malformed(file, 3, "controller-2:9093", "entry is not in the form {id}@{host}:{port}", "\"controller-2:9093\": entry is not in the form {id}@{host}:{port}"),
	} with input as t.cluster([node], [])
}

# A long entry and a long error are cut in the message, quoted whole in the why.
test_fail_long_entry_cut_in_the_message if {
	file := "controller.properties"
	host := "controller-1.a-very-long-subdomain.of-the-orders-team.example.com"
	raw := sprintf("1@%s", [host])
	error := sprintf("%q has no port", [host])
	node := _with_voters(t.node(file, ["controller"], []), 4, [_bad(file, 4, raw, error)])
	short := "\"1@controller-1.a-very-long-subdomain.of-…: \"controller-1.a-very-long-subdomain.of-the-o…"
	rule.report == {_malformed(file, 4, raw, error, short)} with input as t.cluster([node], [])
	some f in rule.report with input as t.cluster([node], [])
	count(f.message) <= 120
}

test_success_well_formed if {
	file := "controller.properties"
	node := _with_voters(t.node(file, ["controller"], []), 4, [
		_voter(file, 4, 1, "controller-1", 9093),
		_voter(file, 4, 2, "10.0.0.2", 9093),
		_voter(file, 4, 3, "::1", 9093),
	])
	count(rule.report) == 0 with input as t.cluster([node], [])
}

test_success_key_absent if {
	node := t.node("controller.properties", ["controller"], [[_key, [], 0]])
	count(rule.report) == 0 with input as t.cluster([node], [])
}

test_success_unknown_placeholder if {
	node := object.union(t.node("controller.properties", ["controller"], []), {
		"quorum": {"mode": "static", "voters": [], "bootstrap_servers": []},
		"settings": {_key: t.unknown_setting("controller.properties", _key, "${env:VOTERS}", 4)},
	})
	count(rule.report) == 0 with input as t.cluster([node], [])
}

# Built with the loader (kafkalint.parse), not fixtures: a voter entry without an id.
test_loader_quorum_voters_malformed if {
	reports := rule.report with input as kafkalint.parse("", "prod/kafka/server.properties", `process.roles=broker
node.id=4
controller.quorum.voters=1@c1:9093,2@c2:9093,c3:9093
controller.listener.names=CONTROLLER
listeners=SSL://:9093
`)
	{[f.location.file, f.location.line, object.get(f, "key", "")] | some f in reports} == {["prod/kafka/server.properties", 3, "controller.quorum.voters"]}
}

# The wildcard host and a repeated id only matter to a node that uses the
# list: not to a ZooKeeper-mode node that is not migrating (KFK3019).
test_success_zookeeper_mode_wildcard_and_duplicate if {
	file := "server.properties"
	node := _with_voters(t.node("server.properties", [], [["zookeeper.connect", "zk-1:2181", 1]]), 2, [_voter(file, 2, 1, "0.0.0.0", 9093), _voter(file, 2, 2, "c2", 9093), _voter(file, 2, 2, "c3", 9093)])
	count(rule.report) == 0 with input as t.cluster([node], [])
}

test_loader_zookeeper_mode_wildcard_and_duplicate if {
	reports := rule.report with input as kafkalint.parse("", "prod/kafka/server.properties", `broker.id=1
zookeeper.connect=zk-1:2181,zk-2:2181,zk-3:2181
listeners=SSL://:9093
controller.quorum.voters=1@0.0.0.0:9093,2@c2:9093,2@c3:9093
`)
	count(reports) == 0
}

# Kafka parses the list on every node: a malformed entry is still reported.
test_loader_zookeeper_mode_malformed_entry if {
	reports := rule.report with input as kafkalint.parse("", "prod/kafka/server.properties", `broker.id=1
zookeeper.connect=zk-1:2181,zk-2:2181,zk-3:2181
listeners=SSL://:9093
controller.quorum.voters=c1:9093
`)
	{[f.location.file, f.location.line, object.get(f, "key", "")] | some f in reports} == {["prod/kafka/server.properties", 4, "controller.quorum.voters"]}
}
