package kafkalint.lib.cluster_test

import data.kafkalint.lib.cluster
import data.kafkalint.lib.testing as t

_party(file, value) := {"value": value, "location": {"file": file, "line": 3, "column": 1}}

# --- odd one out -------------------------------------------------------------

test_odd_one_out_anchors_the_minority if {
	parties := [_party("a", 1), _party("b", 2), _party("c", 1)]
	cluster.odd_ones(parties) == {1}
	cluster.majority(parties) == 1
}

test_odd_ones_out_several_minorities if {
	parties := [_party("a", 1), _party("b", 2), _party("c", 1), _party("d", 3), _party("e", 1)]
	cluster.odd_ones(parties) == {1, 3}
}

test_no_majority_reports_each if {
	cluster.odd_ones([_party("a", 1), _party("b", 2)]) == {0, 1}
	cluster.odd_ones([_party("a", 1), _party("b", 2), _party("c", 1), _party("d", 2)]) == {0, 1, 2, 3}
	cluster.odd_ones([_party("a", 1), _party("b", 2), _party("c", 3)]) == {0, 1, 2}
}

test_agreement_reports_nothing if {
	cluster.odd_ones([_party("a", 1), _party("b", 1), _party("c", 1)]) == set()
	cluster.odd_ones([_party("a", 1)]) == set()
	cluster.odd_ones([]) == set()
}

test_false_is_a_value_like_any_other if {
	parties := [_party("a", false), _party("b", true), _party("c", false)]
	cluster.odd_ones(parties) == {1}
}

test_structured_values_compare_by_content if {
	parties := [_party("a", {1: "x", 2: "y"}), _party("b", {2: "y", 1: "x"}), _party("c", {1: "x"})]
	cluster.odd_ones(parties) == {2}
}

test_index_lists_every_location_once_in_path_order if {
	parties := [_party("c", 1), _party("a", 2), _party("b", 1), _party("c", 1)]
	d := cluster.disagreement(parties)
	d.index.all == [
		{"file": "a", "line": 3, "column": 1},
		{"file": "b", "line": 3, "column": 1},
		{"file": "c", "line": 3, "column": 1},
	]
}

# disagreement is what the functions above answer, computed once.
test_disagreement_groups_values_once if {
	parties := [_party("a", 2), _party("b", 1), _party("c", 2), _party("d", 3), _party("e", 2)]
	d := cluster.disagreement(parties)
	d.groups == [
		{"value": 1, "indexes": [1]},
		{"value": 2, "indexes": [0, 2, 4]},
		{"value": 3, "indexes": [3]},
	]
	d.majority == [{"value": 2, "indexes": [0, 2, 4]}]
	d.odd == {1, 3}
	cluster.nearest(d, 1) == {
		"related": [
			{"file": "a", "line": 3, "column": 1},
			{"file": "c", "line": 3, "column": 1},
			{"file": "d", "line": 3, "column": 1},
			{"file": "e", "line": 3, "column": 1},
		],
		"omitted": 0,
	}
}

test_disagreement_without_majority if {
	d := cluster.disagreement([_party("a", "x"), _party("b", "y")])
	d.majority == []
	d.odd == {0, 1}
	not cluster.has_majority(d.parties)
}

test_groups_of_an_empty_list if {
	cluster.groups([]) == []
	cluster.disagreement([]).odd == set()
}

# --- voter sets ----------------------------------------------------------------

test_last_voters_keep_the_last_entry_of_each_id if {
	node := t.with_voters(_controller("c.properties"), "3@x:1,1@A:9093,2@b:9093,1@c:9093,3@y:2", 4)
	lv := cluster.last_voters(node)
	{id: v.raw | some id, v in lv} == {1: "1@c:9093", 2: "2@b:9093", 3: "3@y:2"}
}

_controller(file) := t.node(file, ["controller"], [])

test_voter_map_last_entry_of_a_repeated_id_wins if {
	node := t.with_voters(_controller("c.properties"), "1@A:9093,2@b:9093,1@c:9093", 4)
	cluster.voter_map(node) == {1: {"host": "c", "port": 9093}, 2: {"host": "b", "port": 9093}}
}

test_voter_map_normalises_hosts if {
	a := t.with_voters(_controller("a.properties"), "1@Controller-1:9093,2@127.0.0.1:9094", 4)
	b := t.with_voters(_controller("b.properties"), "2@localhost:9094,1@controller-1:9093", 4)
	cluster.voter_map(a) == cluster.voter_map(b)
}

test_voter_map_undefined_with_a_malformed_entry if {
	node := object.union(_controller("c.properties"), {"quorum": {"mode": "static", "voters": [
		t.voter("c.properties", 4, "1@c1:9093"),
		t.malformed_voter("c.properties", 4, "c2:9093"),
	]}})
	not cluster.voter_map(node)
	cluster.voter_ids(node) == {1}
}

test_voter_map_undefined_without_voters if {
	not cluster.voter_map(_controller("c.properties"))
}

test_voter_text if {
	cluster.voter_text({2: {"host": "b", "port": 9093}, 1: {"host": "a", "port": 9093}}) == "1@a:9093,2@b:9093"
}

test_quorum_anchors_prefer_controllers if {
	nodes := [
		t.with_voters(t.node("b.properties", ["broker"], []), "1@c1:9093", 3),
		t.with_voters(_controller("c.properties"), "1@c1:9093", 3),
		t.node("c2.properties", ["controller"], []),
	]
	cluster.quorum_anchors(nodes) == {1}
	cluster.quorum_anchors([nodes[0], nodes[2]]) == {0}
}

# --- hosts ---------------------------------------------------------------------

test_hosts_differ if {
	cluster.hosts_differ("controller-2", "controller-3.example.com")
	cluster.hosts_differ("10.0.0.1", "10.0.0.2")
	cluster.hosts_differ("fe80::2", "fe80::1")
}

test_ip_literal_is_a_dotted_quad_or_ipv6 if {
	cluster.ip_literal("10.0.0.1")
	cluster.ip_literal("300.0.0.1") # four runs of digits, whatever their range
	cluster.ip_literal("fe80::1")
	not cluster.ip_literal("10.0.0")
	not cluster.ip_literal("10.0.0.1.2")
	not cluster.ip_literal("10..0.1")
	not cluster.ip_literal("1a.0.0.1")
	not cluster.ip_literal("10.0.0.1\n")
	not cluster.ip_literal("kafka-1")
}

test_hosts_that_may_be_one_machine if {
	not cluster.hosts_differ("controller-1", "controller-1.prod.example.com")
	not cluster.hosts_differ("CONTROLLER-1.example.com", "controller-1.example.com")
	not cluster.hosts_differ("", "controller-1")
	not cluster.hosts_differ("0.0.0.0", "controller-1")
	not cluster.hosts_differ("localhost", "controller-1")
	not cluster.hosts_differ("127.0.0.1", "::1")
	not cluster.hosts_differ("10.0.0.1", "controller-1")
}

# --- listeners -----------------------------------------------------------------

test_listener_names_default_when_absent if {
	node := _controller("c.properties")
	cluster.listener_names(node) == {"PLAINTEXT"}
}

test_listener_names_absent_from_another_format_or_managed if {
	node := _controller("c.properties")
	not cluster.listener_names(object.union(node, {"whole_configuration": false}))
	managed := object.union(node, {"managed_keys": ["listeners"]})
	not cluster.listener_names(managed)
	written := object.union(t.with_listeners(node, "PLAIN-9092://:9092", 5), {"managed_keys": ["listeners"], "whole_configuration": false})
	not cluster.listener_names(written)
}

# The loader decides what a whole configuration is; these read its answer.
test_listener_names_from_the_loader if {
	cluster.listener_names(kafkalint.parse("", "prod/server.properties", "process.roles=broker\nnode.id=1\n").nodes[0]) == {"PLAINTEXT"}
	template := "process.roles=broker\n{% if a %}\nnode.id=1\n{% else %}\nnode.id=2\n{% endif %}\n"
	not cluster.listener_names(kafkalint.parse("", "prod/server.properties.j2", template).nodes[0])
	compose := "services:\n  kafka:\n    image: apache/kafka:4.0.0\n    environment:\n      KAFKA_PROCESS_ROLES: broker\n      KAFKA_NODE_ID: 1\n"
	not cluster.listener_names(kafkalint.parse("", "prod/docker-compose.yml", compose).nodes[0])
}

test_listener_names_written if {
	node := t.with_listeners(_controller("c.properties"), "controller://c1:9093,SSL://c1:9094", 5)
	cluster.listener_names(node) == {"CONTROLLER", "SSL"}
}

test_listener_names_unknown if {
	node := object.union(_controller("c.properties"), {"settings": {"listeners": t.unknown_setting("c.properties", "listeners", "${env:L}", 5)}})
	not cluster.listener_names(node)
}

test_listener_names_unparsed_entry if {
	node := object.union(_controller("c.properties"), {
		"listeners": [{"name": "", "host": "", "port": 0, "protocol": "", "raw": "CONTROLLER//c1", "error": "bad", "location": {"file": "c.properties", "line": 5, "column": 1}}],
		"settings": {"listeners": t.list_setting("c.properties", "listeners", "CONTROLLER//c1", 5)},
	})
	not cluster.listener_names(node)
}

test_controller_endpoints_advertised_else_bound if {
	node := t.with_advertised(
		t.with_listeners(
			t.with_controller_names(_controller("c.properties"), "CONTROLLER,ctl2", 6),
			"CONTROLLER://:9093,CTL2://0.0.0.0:9095",
			5,
		),
		"CONTROLLER://c1.example.com:9093",
		7,
	)
	[[l.host, l.port] | some l in cluster.controller_endpoints(node)] == [["c1.example.com", 9093], ["0.0.0.0", 9095]]
}

test_endpoint_matches if {
	cluster.endpoint_matches({"host": "c1", "port": 9093}, {"host": "", "port": 9093})
	cluster.endpoint_matches({"host": "c1", "port": 9093}, {"host": "c1.example.com", "port": 9093})
	not cluster.endpoint_matches({"host": "c1", "port": 9094}, {"host": "c1", "port": 9093})
	not cluster.endpoint_matches({"host": "c2", "port": 9093}, {"host": "c1", "port": 9093})
}

# --- identity and roles --------------------------------------------------------

test_id_setting_prefers_node_id if {
	node := t.with_settings(t.with_id(t.node("b.properties", ["broker"], []), 4, 3), [["broker.id", 4, 5]])
	cluster.id_setting(node).location.line == 3
}

test_id_setting_broker_id if {
	node := object.union(t.node("b.properties", [], [["broker.id", 7, 2]]), {"id": 7})
	cluster.id_setting(node).location.line == 2
	cluster.has_id(node)
}

test_id_setting_platform_assigned if {
	node := object.union(t.node("b.properties", ["broker"], []), {"id": 3})
	cluster.id_setting(node) == {"key": "node.id", "location": {"file": "b.properties", "line": 1, "column": 1}}
}

test_negative_id_is_not_an_id if {
	node := object.union(t.node("b.properties", [], [["broker.id", -1, 2]]), {"id": -1})
	not cluster.has_id(node)
}

test_role_class if {
	cluster.role_class(t.node("a", ["broker"], [])) == "broker"
	cluster.role_class(t.node("a", ["controller"], [])) == "controller"
	cluster.role_class(t.node("a", ["broker", "controller"], [])) == "combined"
	cluster.role_class(t.node("a", [], [])) == "zookeeper"
}

test_has_majority_when_the_majority_value_is_false if {
	parties := [{"value": false}, {"value": false}, {"value": true}]
	cluster.has_majority(parties)
	cluster.majority(parties) == false
	not cluster.has_majority([{"value": false}, {"value": true}])
}

test_loopback_host_is_javas_loopback if {
	cluster.loopback_host("localhost")
	cluster.loopback_host("LOCALHOST")
	cluster.loopback_host("127.0.0.1")
	cluster.loopback_host("127.1.2.3")
	cluster.loopback_host("::1")
	not cluster.loopback_host("128.0.0.1")
	not cluster.loopback_host("127.0.0")
	not cluster.loopback_host("kafka-1.example.com")
	not cluster.loopback_host("127.0.0.1.5")
	not cluster.loopback_host("127.0..1")
	not cluster.loopback_host("127.0.0.1 ")
	not cluster.loopback_host("127.0.0.x")
	not cluster.loopback_host("127.0.0.٣")
	cluster.host_key("127.0.1.1") == cluster.host_key("localhost")
}

# --- ZooKeeper mode without a quorum -------------------------------------------

test_without_quorum if {
	zk := t.node("server.properties", [], [["zookeeper.connect", "zk-1:2181", 1]])
	cluster.without_quorum(zk)
	cluster.without_quorum(t.with_settings(zk, [["zookeeper.metadata.migration.enable", "false", 2]]))
	cluster.without_quorum(object.union(t.node("server.properties", [], []), {"managed_keys": ["zookeeper.connect"]}))
	not cluster.without_quorum(t.with_settings(zk, [["zookeeper.metadata.migration.enable", "TRUE", 2]]))
	not cluster.without_quorum(t.with_setting(zk, t.unknown_setting("server.properties", "zookeeper.metadata.migration.enable", "${env:M}", 2)))
	not cluster.without_quorum(t.node("server.properties", [], [])) # no zookeeper.connect: a fragment, not known to be ZooKeeper mode
	not cluster.without_quorum(t.node("server.properties", ["broker"], [["zookeeper.connect", "zk-1:2181", 1]]))
}
