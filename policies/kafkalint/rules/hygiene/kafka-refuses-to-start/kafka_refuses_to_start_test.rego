package kafkalint.rules.hygiene["kafka-refuses-to-start_test"]

import data.kafkalint.lib.testing as t
import data.kafkalint.rules.hygiene["kafka-refuses-to-start"] as rule

# Each test is one validation at the Kafka version it applies to; most also
# check the neighbouring version where Kafka behaves differently.

_f := "server.properties"

_reports(c) := r if {
	r := rule.report with input as c
}

# _fires: the only finding is at line about key and quotes fragment.
_fires(c, line, key, fragment) if {
	reports := _reports(c)
	count(reports) == 1
	some f in reports
	f.location.line == line
	f.key == key
	contains(f.message, fragment)
}

_silent(c) if count(_reports(c)) == 0

_at(version, nodes) := t.at_version(t.cluster(nodes, []), version)

# _listener is an entry of listeners or advertised.listeners at line.
_listener(line, name, host, port, protocol) := {
	"name": name,
	"host": host,
	"port": port,
	"protocol": protocol,
	"raw": sprintf("%s://%s:%d", [name, host, port]),
	"location": {"file": _f, "line": line, "column": 1},
}

_list(key, raw, values, line) := object.union(t.setting(_f, key, raw, line), {"type": "list", "value": values})

# _with_listeners gives a node listeners (and the setting) at line.
_with_listeners(node, ls, line) := object.union(node, {
	"listeners": ls,
	"settings": {"listeners": _list("listeners", concat(",", [l.raw | some l in ls]), [l.raw | some l in ls], line)},
})

_with_advertised(node, ls, line) := object.union(node, {
	"advertised_listeners": ls,
	"settings": {"advertised.listeners": _list("advertised.listeners", concat(",", [l.raw | some l in ls]), [l.raw | some l in ls], line)},
})

_with_controller_names(node, names, line) := object.union(node, {
	"controller_listener_names": names,
	"settings": {"controller.listener.names": _list("controller.listener.names", concat(",", names), names, line)},
})

# A KRaft broker that Kafka accepts: one PLAINTEXT listener, the default
# inter-broker protocol.
_broker := _with_listeners(
	t.with_setting(
		t.node(_f, ["broker"], [
			["node.id", 4, 2],
			["security.inter.broker.protocol", "PLAINTEXT", 0],
			["replica.fetch.wait.max.ms", 500, 0],
			["replica.lag.time.max.ms", 30000, 0],
			["replica.socket.timeout.ms", 30000, 0],
		]),
		_list("process.roles", "broker", ["broker"], 1),
	),
	[_listener(3, "PLAINTEXT", "broker-4.example.com", 9092, "PLAINTEXT")], 3,
)

_zookeeper_broker := t.node(_f, [], [["broker.id", 0, 1], ["zookeeper.connect", "zk-1:2181", 2]])

# --- process.roles --------------------------------------------------------------

test_fail_zookeeper_file_on_4_0 if {
	_fires(_at("4.0", [_zookeeper_broker]), 1, "process.roles", "this is a ZooKeeper-mode configuration (zookeeper.connect at line 2, no process.roles) and Kafka 4.0 removed ZooKeeper mode, so Kafka 4.0 refuses to start (\"Missing required configuration \\\"process.roles\\\" which has no default value.\")")
}

test_success_zookeeper_file_on_3_9 if {
	_silent(_at("3.9", [_zookeeper_broker]))
}

test_fail_process_roles_missing_on_4_1 if {
	node := t.node(_f, [], [["node.id", 1, 1], ["log.dirs", "/data", 2]])
	_fires(_at("4.1", [node]), 1, "process.roles", "process.roles is not set: Kafka 4.1 refuses to start")
}

test_success_process_roles_missing_from_a_template if {
	node := t.node(_f, [], [["node.id", 1, 1], ["log.dirs", "/data", 2]])
	c := _at("4.1", [node])
	_silent(object.union(c, {"files": [object.union(c.files[0], {"template": true})]}))
}

test_success_process_roles_managed_by_platform if {
	node := object.union(t.node(_f, [], [["node.id", 1, 1]]), {"managed_keys": ["process.roles"]})
	_silent(_at("4.3", [node]))
}

test_fail_process_roles_empty_on_4_2 if {
	node := t.with_setting(t.node(_f, [], [["node.id", 1, 2]]), _list("process.roles", "", [], 1))
	_fires(_at("4.2", [node]), 1, "process.roles", "(\"Configuration 'process.roles' must not be empty\")")
}

test_fail_process_roles_empty_on_4_0_cannot_be_formatted if {
	node := t.with_setting(t.node(_f, [], [["node.id", 1, 2]]), _list("process.roles", "", [], 1))
	_fires(_at("4.0", [node]), 1, "process.roles", "kafka-storage format refuses the node")
}

test_fail_duplicate_roles_on_4_1 if {
	node := t.with_setting(_broker, _list("process.roles", "broker,broker", ["broker", "broker"], 1))
	_fires(_at("4.1", [node]), 1, "process.roles", "(\"Duplicate role names found in `process.roles`.\")")
}

test_success_duplicate_roles_deduplicated_on_4_2 if {
	node := t.with_setting(_broker, _list("process.roles", "broker,broker", ["broker", "broker"], 1))
	_silent(_at("4.2", [node]))
}

test_success_process_roles_placeholder if {
	node := object.union(t.with_setting(t.node(_f, [], [["node.id", 1, 2]]), t.unknown_setting(_f, "process.roles", "${env:ROLES}", 1)), {"mode": "unknown", "is_broker": false})
	_silent(_at("4.3", [node]))
}

# --- ZooKeeper mode before 4.0 --------------------------------------------------

test_fail_no_process_roles_nor_zookeeper_on_3_9 if {
	node := t.node(_f, [], [["broker.id", 0, 1], ["log.dirs", "/data", 2]])
	_fires(_at("3.9", [node]), 1, "zookeeper.connect", "(\"Missing required configuration `zookeeper.connect` which has no default value.\")")
}

# --- node.id --------------------------------------------------------------------

_without(node, key) := object.union(object.remove(node, ["settings"]), {"settings": object.remove(node.settings, [key])})

test_fail_node_id_missing_on_4_3 if {
	node := _without(t.with_setting(_broker, t.default_setting(_f, "broker.id", -1)), "node.id")
	_fires(_at("4.3", [node]), 1, "node.id", "(\"Missing required configuration \\\"node.id\\\" which has no default value.\")")
}

test_fail_negative_broker_id_alone_on_4_0 if {
	node := t.with_setting(_without(_broker, "node.id"), t.setting(_f, "broker.id", -1, 2))
	_fires(_at("4.0", [node]), 2, "broker.id", "(\"Invalid value -1 for configuration node.id: Value must be at least 0\")")
}

test_fail_node_id_missing_in_kraft_on_3_9 if {
	node := _without(_broker, "node.id")
	_fires(_at("3.9", [node]), 1, "node.id", "(\"Missing configuration `node.id` which is required when `process.roles` is defined\")")
}

test_fail_negative_node_id_in_kraft_on_3_9 if {
	node := t.with_setting(_broker, t.setting(_f, "node.id", -1, 2))
	_fires(_at("3.9", [node]), 2, "node.id", "node.id=-1 on a KRaft node: Kafka 3.9 refuses to start")
}

test_fail_node_id_differs_from_broker_id if {
	node := t.with_setting(_broker, t.setting(_f, "broker.id", 5, 7))
	reports := _reports(_at("4.3", [node]))
	reports == {t.finding_related(_f, 2, "node.id", "node.id=4 and broker.id=5 (line 7) differ: Kafka 4.3 refuses to start (\"You must set `node.id` to the same value as `broker.id`.\"); remove broker.id and keep node.id", [[_f, 7]])}
}

test_success_node_id_placeholder if {
	node := t.with_setting(_broker, t.unknown_setting(_f, "node.id", "${env:NODE_ID}", 2))
	_silent(_at("4.3", [t.with_setting(node, t.setting(_f, "broker.id", 5, 7))]))
}

# --- authorizer -----------------------------------------------------------------

test_fail_acl_authorizer_on_4_0 if {
	node := t.with_setting(_broker, t.setting(_f, "authorizer.class.name", "kafka.security.authorizer.AclAuthorizer", 9))
	_fires(_at("4.0", [node]), 9, "authorizer.class.name", "which Kafka 4.0 removed: Kafka 4.0 cannot load the class and refuses to start")
}

test_success_acl_authorizer_on_3_9 if {
	node := t.with_setting(_broker, t.setting(_f, "authorizer.class.name", "kafka.security.authorizer.AclAuthorizer", 9))
	_silent(_at("3.9", [node]))
}

# --- listeners ------------------------------------------------------------------

test_fail_unparsable_listener if {
	bad := object.union(_listener(3, "", "", 0, ""), {"raw": "broker-4:9092", "error": "unable to parse \"broker-4:9092\" to a broker endpoint"})
	node := _with_listeners(_broker, [bad], 3)
	_fires(_at("4.3", [node]), 3, "listeners", "(\"Unable to parse broker-4:9092 to a broker endpoint\")")
}

test_fail_listener_without_protocol if {
	node := t.with_setting(
		_with_listeners(_broker, [_listener(3, "PLAINTEXT", "b", 9092, "PLAINTEXT"), _listener(3, "REPLICATION", "b", 9093, "")], 3),
		t.setting(_f, "listener.security.protocol.map", "PLAINTEXT:PLAINTEXT", 5),
	)
	_fires(_at("4.3", [node]), 3, "listeners", "listener REPLICATION has no security protocol: listener.security.protocol.map (line 5) does not map REPLICATION, so Kafka 4.3 refuses to start (\"No security protocol defined for listener REPLICATION\")")
}

test_success_protocol_map_placeholder if {
	node := t.with_setting(
		_with_listeners(_broker, [_listener(3, "PLAINTEXT", "b", 9092, "PLAINTEXT"), _listener(3, "REPLICATION", "b", 9093, "")], 3),
		t.unknown_setting(_f, "listener.security.protocol.map", "${env:MAP}", 5),
	)
	_silent(_at("4.3", [node]))
}

test_fail_protocol_map_entry_malformed if {
	node := t.with_setting(_broker, t.setting(_f, "listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER", 5))
	_fires(_at("4.3", [node]), 5, "listener.security.protocol.map", "(\"Error parsing configuration property 'listener.security.protocol.map'\")")
}

test_fail_protocol_map_unknown_protocol if {
	node := t.with_setting(_broker, t.setting(_f, "listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,EXTERNAL:TLS", 5))
	_fires(_at("4.3", [node]), 5, "listener.security.protocol.map", "(\"Invalid security protocol `TLS` defined in listener.security.protocol.map\")")
}

test_success_protocol_map_any_case if {
	node := t.with_setting(_broker, t.setting(_f, "listener.security.protocol.map", "PLAINTEXT:plaintext", 5))
	_silent(_at("4.3", [node]))
}

test_fail_duplicate_listener_names if {
	node := _with_listeners(_broker, [_listener(3, "PLAINTEXT", "a", 9092, "PLAINTEXT"), _listener(3, "PLAINTEXT", "b", 9093, "PLAINTEXT")], 3)
	_fires(_at("4.3", [node]), 3, "listeners", "(\"Each listener must have a different name\")")
}

test_fail_duplicate_listener_ports if {
	node := _with_listeners(_broker, [_listener(3, "PLAINTEXT", "a", 9092, "PLAINTEXT"), _listener(3, "SSL", "a", 9092, "SSL")], 3)
	_fires(_at("4.3", [node]), 3, "listeners", "(\"Each listener must have a different port\")")
}

test_success_ipv4_and_ipv6_share_a_port if {
	node := _with_listeners(_broker, [_listener(3, "PLAINTEXT", "10.0.0.4", 9092, "PLAINTEXT"), _listener(3, "SSL", "::1", 9092, "SSL")], 3)
	_silent(_at("4.3", [node]))
}

# --- controller-only nodes ------------------------------------------------------

_controller := _with_controller_names(
	_with_listeners(
		t.with_setting(t.node(_f, ["controller"], [["node.id", 1, 2]]), _list("process.roles", "controller", ["controller"], 1)),
		[_listener(3, "CONTROLLER", "c-1", 9093, "PLAINTEXT")], 3,
	),
	["CONTROLLER"], 4,
)

test_fail_controller_with_broker_listener if {
	node := _with_listeners(_controller, [_listener(3, "CONTROLLER", "c-1", 9093, "PLAINTEXT"), _listener(3, "PLAINTEXT", "c-1", 9092, "PLAINTEXT")], 3)
	_fires(_at("4.3", [node]), 3, "listeners", "(\"The listeners config must only contain KRaft controller listeners from controller.listener.names when process.roles=controller\")")
}

test_success_controller_with_controller_listener_only if {
	_silent(_at("4.3", [_controller]))
}

test_fail_controller_inter_broker_listener_on_4_0 if {
	node := t.with_setting(_controller, t.setting(_f, "inter.broker.listener.name", "CONTROLLER", 6))
	_fires(_at("4.0", [node]), 6, "inter.broker.listener.name", "(\"controller.listener.names must not contain an explicitly set inter.broker.listener.name configuration value when process.roles=controller\")")
}

test_success_controller_inter_broker_listener_on_3_9 if {
	node := t.with_setting(_controller, t.setting(_f, "inter.broker.listener.name", "CONTROLLER", 6))
	_silent(_at("3.9", [node]))
}

# --- inter-broker listener ------------------------------------------------------

test_fail_both_inter_broker_keys if {
	node := t.with_setting(
		t.with_setting(_broker, t.setting(_f, "inter.broker.listener.name", "PLAINTEXT", 6)),
		t.setting(_f, "security.inter.broker.protocol", "PLAINTEXT", 7),
	)
	_fires(_at("4.3", [node]), 6, "inter.broker.listener.name", "(\"Only one of inter.broker.listener.name and security.inter.broker.protocol should be set.\")")
}

test_fail_inter_broker_listener_unmapped if {
	node := t.with_setting(_broker, t.setting(_f, "inter.broker.listener.name", "REPLICATION", 6))
	_fires(_at("4.3", [node]), 6, "inter.broker.listener.name", "(\"Listener with name REPLICATION defined in inter.broker.listener.name not found in listener.security.protocol.map.\")")
}

_custom_names := t.with_setting(
	_with_listeners(_broker, [_listener(3, "INTERNAL", "b", 9092, "PLAINTEXT"), _listener(3, "EXTERNAL", "b", 9094, "SASL_SSL")], 3),
	t.setting(_f, "listener.security.protocol.map", "INTERNAL:PLAINTEXT,EXTERNAL:SASL_SSL", 5),
)

test_fail_custom_listener_names_without_inter_broker_listener if {
	_fires(_at("4.3", [_custom_names]), 3, "listeners", "inter.broker.listener.name is not set, so the inter-broker listener is the one named after security.inter.broker.protocol=PLAINTEXT, which this broker does not advertise (EXTERNAL, INTERNAL): Kafka 4.3 refuses to start (\"inter.broker.listener.name must be a listener name defined in advertised.listeners. The valid options based on currently configured listeners are EXTERNAL,INTERNAL\")")
}

test_success_custom_listener_names_with_inter_broker_listener if {
	node := t.with_setting(_custom_names, t.setting(_f, "inter.broker.listener.name", "INTERNAL", 6))
	_silent(_at("4.3", [node]))
}

test_fail_inter_broker_listener_not_advertised if {
	node := _with_advertised(
		t.with_setting(_custom_names, t.setting(_f, "inter.broker.listener.name", "INTERNAL", 6)),
		[_listener(4, "EXTERNAL", "kafka.example.com", 9094, "SASL_SSL")], 4,
	)
	_fires(_at("4.3", [node]), 6, "inter.broker.listener.name", "inter.broker.listener.name=INTERNAL names the inter-broker listener, which this broker does not advertise (EXTERNAL)")
}

# --- advertised listeners -------------------------------------------------------

test_fail_advertised_name_not_in_listeners if {
	node := _with_advertised(_broker, [_listener(4, "PLAINTEXT", "b", 9092, "PLAINTEXT"), _listener(4, "EXTERNAL", "b", 9094, "")], 4)
	_fires(_at("4.3", [node]), 4, "advertised.listeners", "(\"advertised.listeners listener names must be equal to or a subset of the ones defined in listeners\")")
}

test_fail_wildcard_listener_advertised_by_fallback if {
	node := _with_listeners(_broker, [_listener(3, "PLAINTEXT", "0.0.0.0", 9092, "PLAINTEXT")], 3)
	_fires(_at("4.3", [node]), 3, "listeners", "the broker advertises PLAINTEXT://0.0.0.0:9092 to clients (advertised.listeners is not set, so Kafka advertises listeners, which binds 0.0.0.0): Kafka 4.3 refuses to start (\"advertised.listeners cannot use the nonroutable meta-address 0.0.0.0\")")
}

test_success_wildcard_bind_with_advertised_host if {
	node := _with_advertised(
		_with_listeners(_broker, [_listener(3, "PLAINTEXT", "0.0.0.0", 9092, "PLAINTEXT")], 3),
		[_listener(4, "PLAINTEXT", "broker-4.example.com", 9092, "PLAINTEXT")], 4,
	)
	_silent(_at("4.3", [node]))
}

test_fail_combined_node_advertises_only_controller_listener if {
	node := _with_advertised(
		_with_controller_names(
			_with_listeners(
				t.with_setting(t.node(_f, ["broker", "controller"], [["node.id", 1, 2], ["security.inter.broker.protocol", "PLAINTEXT", 0]]), _list("process.roles", "broker,controller", ["broker", "controller"], 1)),
				[_listener(3, "CONTROLLER", "c", 9093, "PLAINTEXT")], 3,
			),
			["CONTROLLER"], 5,
		),
		[_listener(4, "CONTROLLER", "c", 9093, "PLAINTEXT")], 4,
	)
	_fires(_at("4.3", [node]), 4, "advertised.listeners", "(\"There must be at least one broker advertised listener. Perhaps all listeners appear in controller.listener.names?\")")
}

test_success_listeners_placeholder if {
	node := object.union(
		object.remove(_custom_names, ["listeners", "settings"]),
		{"listeners": [], "settings": object.union(object.remove(_custom_names.settings, ["listeners"]), {"listeners": t.unknown_setting(_f, "listeners", "${env:LISTENERS}", 3)})},
	)
	_silent(_at("4.3", [node]))
}

# --- replica fetch timing -------------------------------------------------------

test_fail_fetch_wait_above_lag_time if {
	node := t.with_setting(_broker, object.union(t.setting(_f, "replica.fetch.wait.max.ms", 40000, 8), {"type": "int"}))
	_fires(_at("4.3", [node]), 8, "replica.fetch.wait.max.ms", "replica.fetch.wait.max.ms=40000 is above replica.lag.time.max.ms=30000 (Kafka's default) and replica.socket.timeout.ms=30000 (Kafka's default): Kafka 4.3 refuses to start (\"replica.fetch.wait.max.ms should always be less than or equal to replica.lag.time.max.ms\"")
}

test_fail_lag_time_below_default_fetch_wait if {
	node := t.with_setting(_broker, t.setting(_f, "replica.lag.time.max.ms", 300, 8))
	_fires(_at("4.3", [node]), 8, "replica.lag.time.max.ms", "replica.fetch.wait.max.ms=500 is above replica.lag.time.max.ms=300")
}

test_success_fetch_timing_defaults if {
	_silent(_at("4.3", [_broker]))
}

# --- log directories ------------------------------------------------------------

test_fail_log_dirs_empty_on_4_1 if {
	node := t.with_setting(_broker, t.setting(_f, "log.dirs", "", 9))
	_fires(_at("4.1", [node]), 9, "log.dirs", "(\"At least one log directory must be defined via log.dirs or log.dir.\")")
}

test_fail_log_dirs_empty_list_on_4_2 if {
	node := t.with_setting(_broker, _list("log.dirs", ",", [], 9))
	_fires(_at("4.2", [node]), 9, "log.dirs", "an empty list is rejected when the configuration is parsed")
}

test_success_log_dirs_absent if {
	_silent(_at("4.3", [_broker]))
}

# --- producer -------------------------------------------------------------------

test_fail_delivery_timeout_below_linger_plus_request if {
	client := t.client("producer.properties", "producer", [["delivery.timeout.ms", 20000, 4], ["linger.ms", 5, 0], ["request.timeout.ms", 30000, 0]])
	reports := _reports(t.cluster([], [client]))
	reports == {t.finding("producer.properties", 4, "delivery.timeout.ms", "delivery.timeout.ms=20000 is below linger.ms=5 (Kafka's default) + request.timeout.ms=30000 (Kafka's default): the producer fails when it is created (\"delivery.timeout.ms should be equal to or larger than linger.ms + request.timeout.ms\"); raise delivery.timeout.ms to at least 30005 (the default is 120000)")}
}

test_success_delivery_timeout_default if {
	client := t.client("producer.properties", "producer", [["delivery.timeout.ms", 120000, 0], ["linger.ms", 5, 0], ["request.timeout.ms", 30000, 0]])
	_silent(t.cluster([], [client]))
}

test_success_delivery_timeout_placeholder if {
	client := t.with_setting(
		t.client("producer.properties", "producer", [["linger.ms", 5, 0], ["request.timeout.ms", 30000, 0]]),
		t.unknown_setting("producer.properties", "delivery.timeout.ms", "${env:TIMEOUT}", 4),
	)
	_silent(t.cluster([], [client]))
}

test_success_correct_broker if {
	_silent(_at("4.3", [_broker]))
}

# --- what the model cannot know ---------------------------------------------------

# In a compose file an absent listeners is not Kafka's default: the
# Confluent image derives it from advertised.listeners.
test_success_absent_key_outside_properties_files if {
	node := _with_advertised(
		object.union(_without(_broker, "listeners"), {"listeners": []}),
		[_listener(4, "INTERNAL", "kafka", 29092, ""), _listener(4, "EXTERNAL", "localhost", 9092, "")], 4,
	)
	c := _at("4.3", [node])
	compose := object.union(c, {"files": [object.union(c.files[0], {"format": "compose"})]})
	_silent(compose)
}

test_fail_same_node_in_properties_file if {
	node := _with_advertised(
		object.union(_without(_broker, "listeners"), {"listeners": []}),
		[_listener(4, "INTERNAL", "kafka", 29092, ""), _listener(4, "EXTERNAL", "localhost", 9092, "")], 4,
	)
	some f in _reports(_at("4.3", [node]))
	contains(f.message, "advertised.listeners listener names must be equal to or a subset of the ones defined in listeners")
}

# Strimzi writes the inter-broker listener and the protocol map itself.
test_success_keys_managed_by_platform if {
	node := object.union(_custom_names, {"managed_keys": ["inter.broker.listener.name", "listener.security.protocol.map"]})
	_silent(_at("4.3", [node]))
}
