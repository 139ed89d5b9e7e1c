package kafkalint.rules.kraft["voters-share-failure-domain_test"]

import data.kafkalint.lib.result
import data.kafkalint.lib.testing as t
import data.kafkalint.rules.kraft["voters-share-failure-domain"] as rule

_key := "controller.quorum.voters"

_controller(n, voters, rack) := t.with_settings(
	t.with_voters(t.with_id(t.node(sprintf("c%d.properties", [n]), ["controller"], []), n, 2), voters, 3),
	[["broker.rack", rack, 6]],
)

_plain(n, voters) := t.with_voters(t.with_id(t.node(sprintf("c%d.properties", [n]), ["controller"], []), n, 2), voters, 3)

_host_finding(file, raw, ids, host, k, n, impact) := result.explain(
	t.finding(file, 3, _key, sprintf("quorum voters %s share host %s: losing it removes %d of the %d voters", [ids, host, k, n])),
	sprintf("controller.quorum.voters=%s puts voters %s on one host (%s). %s.", [raw, ids, host, impact]),
	"Run each controller on its own machine (and, where you have them, in its own rack or availability zone).",
)

_rack_finding(file, raw, ids, rack, k, n, impact, related) := result.explain(
	t.finding_related(file, 3, _key, sprintf("quorum voters %s share broker.rack=%s: losing it removes %d of the %d voters", [ids, rack, k, n]), related),
	sprintf("controller.quorum.voters=%s has voters %s in one rack (broker.rack=%s in their configs). %s.", [raw, ids, rack, impact]),
	"Spread the controllers over racks or availability zones.",
)

test_fail_two_of_three_voters_on_one_host if {
	raw := "1@kafka-a.example.com:9093,2@KAFKA-A.example.com:9094,3@kafka-b.example.com:9093"
	finding := _host_finding("c1.properties", raw, "1, 2", "kafka-a.example.com", 2, 3, "Losing that machine removes 2 of the 3 voters, fewer than the majority of 2 remain, and all metadata changes stop")
	rule.report == {finding} with input as t.cluster([_plain(1, raw)], [])
}

test_fail_every_controller_states_it_brokers_do_not if {
	raw := "1@localhost:9093,2@127.0.0.1:9094,3@localhost:9095"
	broker := t.with_voters(t.with_id(t.node("b4.properties", ["broker"], []), 4, 2), raw, 3)
	impact := "Losing that machine removes 3 of the 3 voters, fewer than the majority of 2 remain, and all metadata changes stop"
	rule.report == {
		_host_finding("c1.properties", raw, "1, 2, 3", "localhost", 3, 3, impact),
		_host_finding("c2.properties", raw, "1, 2, 3", "localhost", 3, 3, impact),
	} with input as t.cluster([_plain(1, raw), _plain(2, raw), broker], [])
}

test_fail_five_voters_two_on_one_host if {
	raw := "1@a:9093,2@a:9094,3@c:9093,4@d:9093,5@e:9093"
	finding := _host_finding("c1.properties", raw, "1, 2", "a", 2, 5, "Losing that machine removes 2 of the 5 voters and leaves the quorum unable to survive any further controller failure")
	rule.report == {finding} with input as t.cluster([_plain(1, raw)], [])
}

test_fail_voters_in_one_rack if {
	raw := "1@c1:9093,2@c2:9093,3@c3:9093"
	nodes := [_controller(1, raw, "eu-west-1a"), _controller(2, raw, "eu-west-1a"), _controller(3, raw, "eu-west-1b")]
	impact := "Losing that rack removes 2 of the 3 voters, fewer than the majority of 2 remain, and all metadata changes stop"
	related := [["c1.properties", 6], ["c2.properties", 6]]
	rule.report == {
		_rack_finding("c1.properties", raw, "1, 2", "eu-west-1a", 2, 3, impact, related),
		_rack_finding("c2.properties", raw, "1, 2", "eu-west-1a", 2, 3, impact, related),
		_rack_finding("c3.properties", raw, "1, 2", "eu-west-1a", 2, 3, impact, related),
	} with input as t.cluster(nodes, [])
}

# Many voters on one long host name: the message names a few and cuts the
# host, the why names them all.
test_fail_many_voters_on_one_long_host_cut_in_the_message if {
	host := "kafka-shared.a-very-long-subdomain.example.com"
	raw := concat(",", [sprintf("%d@%s:%d", [id, host, 9090 + id]) | some id in numbers.range(1, 5)])
	findings := rule.report with input as t.cluster([_plain(1, raw)], [])
	{f.message | some f in findings} == {"quorum voters 1, 2, 3 and 2 more share host kafka-shared.a-very-long-subdomain.exam…: losing it removes 5 of the 5 voters"}
	{f.why | some f in findings} == {sprintf("controller.quorum.voters=%s puts voters 1, 2, 3, 4, 5 on one host (%s). Losing that machine removes 5 of the 5 voters, fewer than the majority of 3 remain, and all metadata changes stop.", [raw, host])}
}

test_success_separate_hosts_and_racks if {
	raw := "1@c1:9093,2@c2:9093,3@c3:9093"
	nodes := [_controller(1, raw, "a"), _controller(2, raw, "b"), _controller(3, raw, "c")]
	count(rule.report) == 0 with input as t.cluster(nodes, [])
}

test_success_repeated_id_is_one_voter if {
	count(rule.report) == 0 with input as t.cluster([_plain(1, "1@c1:9093,1@c1:9094,2@c2:9093,3@c3:9093")], [])
}

test_success_key_absent if {
	dynamic := t.with_bootstrap(t.node("c1.properties", ["controller"], []), "c1:9093,c1:9094", 3)
	count(rule.report) == 0 with input as t.cluster([dynamic, t.node("c2.properties", ["controller"], [])], [])
}

test_success_racks_unknown_or_absent if {
	raw := "1@c1:9093,2@c2:9093,3@c3:9093"
	unknown := object.union(_plain(2, raw), {"settings": {"broker.rack": t.unknown_setting("c2.properties", "broker.rack", "${env:RACK}", 6)}})
	nodes := [_controller(1, raw, "a"), unknown, _plain(3, raw)]
	count(rule.report) == 0 with input as t.cluster(nodes, [])
}

test_success_unknown_placeholder if {
	unknown := object.union(t.node("c1.properties", ["controller"], []), {
		"quorum": {"mode": "static", "voters": [], "bootstrap_servers": []},
		"settings": {_key: t.unknown_setting("c1.properties", _key, "${env:VOTERS}", 3)},
	})
	count(rule.report) == 0 with input as t.cluster([unknown], [])
}

# Built with the loader (kafkalint.parse), not fixtures: two voters on one host.
test_loader_voters_share_failure_domain if {
	reports := rule.report with input as kafkalint.parse("", "prod/kafka/controller.properties", `process.roles=controller
node.id=1
controller.quorum.voters=1@c1:9093,2@c1:9094,3@c3:9093
controller.listener.names=CONTROLLER
listeners=CONTROLLER://c1:9093
`)
	{[f.location.file, f.location.line, object.get(f, "key", "")] | some f in reports} == {["prod/kafka/controller.properties", 3, "controller.quorum.voters"]}
}

# A ZooKeeper-mode node that is not migrating has no KRaft quorum (KFK3019).
test_success_zookeeper_mode_leftover_voters if {
	node := t.with_voters(t.node("server.properties", [], [["zookeeper.connect", "zk-1:2181", 1]]), "1@localhost:9093,2@localhost:9094,3@localhost:9095", 4)
	count(rule.report) == 0 with input as t.cluster([node], [])
}

test_loader_zookeeper_mode_leftover_voters if {
	reports := rule.report with input as kafkalint.parse("", "prod/kafka/server.properties", `broker.id=1
zookeeper.connect=zk-1:2181,zk-2:2181,zk-3:2181
listeners=SSL://:9093
controller.quorum.voters=1@localhost:9093,2@localhost:9094,3@localhost:9095
`)
	count(reports) == 0
}
