package kafkalint.rules.hygiene["kafka-refuses-to-start_crosskey_test"]

import data.kafkalint.lib.testing as t
import data.kafkalint.rules.hygiene["kafka-refuses-to-start"] as rule

# Tests of crosskey.rego: for each check a configuration Kafka refuses (the
# one finding, its line and Kafka's words), one it accepts, the key absent
# and the key a ${provider:...} placeholder. The fixture broker passes every
# other check of the rule, so any finding comes from the check under test.

_f := "server.properties"

_at(version, nodes) := t.at_version(t.cluster(nodes, []), version)

_reports(c) := r if {
	r := rule.report with input as c
}

_fires(c, line, key, fragment) if {
	reports := _reports(c)
	count(reports) == 1
	some f in reports
	f.location.line == line
	f.key == key
	contains(f.message, fragment)
}

_silent(c) if count(_reports(c)) == 0

_broker := t.with_controller_names(
	t.with_listeners(
		t.with_voters(t.with_id(t.node(_f, ["broker"], [["process.roles", "broker", 1]]), 0, 2), "2@localhost:9093", 3),
		"PLAINTEXT://localhost:9092", 4,
	),
	"CONTROLLER", 5,
)

_with(node, entries) := t.with_settings(node, entries)

_unknown(node, key, line) := object.union(node, {"settings": {key: t.unknown_setting(_f, key, "${env:X}", line)}})

_int(node, key, value, line) := object.union(node, {"settings": {key: object.union(t.setting(_f, key, value, line), {"type": "int"})}})

test_success_fixture_broker_starts if _silent(_at("4.3", [_broker]))

# --- log retention

test_fail_log_retention_ms_zero if {
	_fires(_at("4.3", [_int(_broker, "log.retention.ms", 0, 9)]), 9, "log.retention.ms", "log.retention.ms must be unlimited (-1) or, greater than or equal to 1")
}

test_fail_log_retention_hours_zero if {
	_fires(_at("3.8", [_int(_broker, "log.retention.hours", 0, 9)]), 9, "log.retention.hours", "log.retention.ms must be unlimited")
}

test_success_log_retention_ms_wins_over_zero_minutes if {
	_silent(_at("4.3", [_int(_int(_broker, "log.retention.ms", -1, 9), "log.retention.minutes", 0, 10)]))
}

test_fail_log_retention_ms_zero_wins_over_minutes if {
	_fires(_at("4.3", [_int(_int(_broker, "log.retention.ms", 0, 9), "log.retention.minutes", 30, 10)]), 9, "log.retention.ms", "must be unlimited")
}

test_success_log_retention_absent if _silent(_at("4.3", [_broker]))

test_success_log_retention_placeholder if _silent(_at("4.3", [_unknown(_int(_broker, "log.retention.minutes", 0, 10), "log.retention.ms", 9)]))

# --- max.connections.per.ip

test_fail_max_connections_zero_without_overrides if {
	_fires(_at("4.3", [_int(_broker, "max.connections.per.ip", 0, 9)]), 9, "max.connections.per.ip", "max.connections.per.ip can be set to zero only if max.connections.per.ip.overrides property is set.")
}

test_fail_max_connections_zero_with_empty_overrides if {
	_fires(_at("4.3", [_with(_int(_broker, "max.connections.per.ip", 0, 9), [["max.connections.per.ip.overrides", "", 10]])]), 9, "max.connections.per.ip", "can be set to zero only if")
}

test_success_max_connections_zero_with_overrides if {
	_silent(_at("4.3", [_with(_int(_broker, "max.connections.per.ip", 0, 9), [["max.connections.per.ip.overrides", "127.0.0.1:100", 10]])]))
}

test_success_max_connections_overrides_placeholder if {
	_silent(_at("4.3", [_unknown(_int(_broker, "max.connections.per.ip", 0, 9), "max.connections.per.ip.overrides", 10)]))
}

test_success_max_connections_positive if _silent(_at("4.3", [_int(_broker, "max.connections.per.ip", 10, 9)]))

# --- SASL inter-broker mechanism

_sasl_broker := object.union(
	_with(_broker, [["security.inter.broker.protocol", "SASL_SSL", 8]]),
	{"listeners": [t.listener(_f, 4, "SASL_SSL://localhost:9092", "SASL_SSL")]},
)

test_fail_sasl_mechanism_not_enabled if {
	c := _at("4.3", [_with(_sasl_broker, [["sasl.enabled.mechanisms", "PLAIN", 9], ["sasl.mechanism.inter.broker.protocol", "SCRAM-SHA-512", 10]])])
	_fires(c, 10, "sasl.mechanism.inter.broker.protocol", "sasl.mechanism.inter.broker.protocol must be included in sasl.enabled.mechanisms when SASL is used for inter-broker communication")
}

test_fail_sasl_default_gssapi_not_enabled if {
	_fires(_at("4.3", [_with(_sasl_broker, [["sasl.enabled.mechanisms", "PLAIN", 9]])]), 9, "sasl.enabled.mechanisms", "must be included in sasl.enabled.mechanisms")
}

test_fail_sasl_listener_override_wins if {
	c := _at("4.3", [_with(_sasl_broker, [
		["sasl.enabled.mechanisms", "PLAIN,SCRAM-SHA-512", 9],
		["listener.name.sasl_ssl.sasl.enabled.mechanisms", "PLAIN", 11],
		["sasl.mechanism.inter.broker.protocol", "SCRAM-SHA-512", 10],
	])])
	_fires(c, 10, "sasl.mechanism.inter.broker.protocol", "listener override at line 11")
}

test_success_sasl_mechanism_enabled if {
	_silent(_at("4.3", [_with(_sasl_broker, [["sasl.enabled.mechanisms", "PLAIN,SCRAM-SHA-512", 9], ["sasl.mechanism.inter.broker.protocol", "SCRAM-SHA-512", 10]])]))
}

test_success_sasl_keys_absent if _silent(_at("4.3", [_sasl_broker]))

test_success_sasl_placeholder if {
	_silent(_at("4.3", [_unknown(_with(_sasl_broker, [["sasl.mechanism.inter.broker.protocol", "SCRAM-SHA-512", 10]]), "sasl.enabled.mechanisms", 9)]))
}

test_success_sasl_not_used_between_brokers if {
	_silent(_at("4.3", [_with(_broker, [["sasl.enabled.mechanisms", "PLAIN", 9], ["sasl.mechanism.inter.broker.protocol", "SCRAM-SHA-512", 10]])]))
}

# --- cordoned.log.dirs (4.3)

_cordon(raw) := _with(_broker, [["log.dirs", "/d/1,/d/2", 9], ["cordoned.log.dirs", raw, 10]])

test_fail_cordoned_not_in_log_dirs if {
	_fires(_at("4.3", [_cordon("/d/3,/d/1")]), 10, "cordoned.log.dirs", "All entries in cordoned.log.dirs must be present in log.dirs or log.dir. Missing entries : /d/3")
}

test_fail_cordoned_star_with_dir if {
	_fires(_at("4.3", [_cordon("/d/1,*")]), 10, "cordoned.log.dirs", "When cordoned.log.dirs is set to *, it must not contain other values")
}

test_fail_cordoned_against_log_dir_default if {
	_fires(_at("4.3", [_with(_broker, [["cordoned.log.dirs", "/d/1", 10]])]), 10, "cordoned.log.dirs", "log.dir's default /tmp/kafka-logs")
}

test_success_cordoned_star if _silent(_at("4.3", [_cordon("*")]))

test_success_cordoned_listed if _silent(_at("4.3", [_cordon("/d/2")]))

test_success_cordoned_before_4_3 if _silent(_at("4.2", [_cordon("/d/3")]))

test_success_cordoned_log_dirs_placeholder if {
	_silent(_at("4.3", [_unknown(_cordon("/d/3"), "log.dirs", 9)]))
}

# --- consumer group coordinator limits

test_fail_group_max_session_below_min if {
	c := _at("4.3", [_int(_int(_broker, "group.consumer.min.session.timeout.ms", 20, 9), "group.consumer.max.session.timeout.ms", 10, 10)])
	some f in _reports(c)
	f.location.line == 10
	contains(f.message, "group.consumer.max.session.timeout.ms must be greater than or equal to group.consumer.min.session.timeout.ms")
}

test_fail_group_words_before_4_0 if {
	_fires(_at("3.9", [_int(_broker, "group.consumer.heartbeat.interval.ms", 20000, 9)]), 9, "group.consumer.heartbeat.interval.ms", "group.consumer.heartbeat.interval.ms must be less than or equals to group.consumer.max.heartbeat.interval.ms")
}

test_fail_group_heartbeat_not_below_session_4_0 if {
	c := _at("4.0", [_int(_int(_broker, "group.consumer.min.session.timeout.ms", 1000, 9), "group.consumer.session.timeout.ms", 5000, 10)])
	_fires(c, 10, "group.consumer.session.timeout.ms", "group.consumer.heartbeat.interval.ms must be less than group.consumer.session.timeout.ms")
}

test_success_group_heartbeat_equal_session_3_9 if {
	_silent(_at("3.9", [_int(_int(_broker, "group.consumer.min.session.timeout.ms", 1000, 9), "group.consumer.session.timeout.ms", 5000, 10)]))
}

test_fail_share_group_session_above_max_4_0 if {
	c := _at("4.0", [_int(_int(_broker, "group.share.max.session.timeout.ms", 20, 9), "group.share.session.timeout.ms", 25, 10)])
	some f in _reports(c)
	f.location.line == 10
	contains(f.message, "group.share.session.timeout.ms must be less than or equal to group.share.max.session.timeout.ms")
}

test_success_share_group_before_4_0 if {
	_silent(_at("3.9", [_int(_int(_broker, "group.share.max.session.timeout.ms", 20, 9), "group.share.session.timeout.ms", 25, 10)]))
}

test_fail_streams_group_heartbeat_not_below_session_4_1 if {
	c := _at("4.1", [_int(_int(_broker, "group.streams.min.session.timeout.ms", 1000, 9), "group.streams.session.timeout.ms", 5000, 10)])
	_fires(c, 10, "group.streams.session.timeout.ms", "group.streams.heartbeat.interval.ms must be less than group.streams.session.timeout.ms")
}

test_success_streams_group_before_4_1 if {
	_silent(_at("4.0", [_int(_int(_broker, "group.streams.min.session.timeout.ms", 1000, 9), "group.streams.session.timeout.ms", 5000, 10)]))
}

test_success_group_within_limits if _silent(_at("4.3", [_int(_broker, "group.consumer.session.timeout.ms", 50000, 9)]))

test_success_group_placeholder if {
	_silent(_at("4.3", [_unknown(_int(_broker, "group.consumer.session.timeout.ms", 90000, 9), "group.consumer.max.session.timeout.ms", 10)]))
}

# --- controller.quorum.auto.join.enable on a broker (4.2+)

_auto_join(node) := _with(node, [["controller.quorum.auto.join.enable", true, 9]])

test_fail_auto_join_on_broker if {
	_fires(_at("4.2", [_auto_join(_broker)]), 9, "controller.quorum.auto.join.enable", "controller.quorum.auto.join.enable is only supported when process.roles contains the 'controller' role.")
}

test_success_auto_join_before_4_2 if _silent(_at("4.1", [_auto_join(_broker)]))

test_success_auto_join_false if _silent(_at("4.3", [_with(_broker, [["controller.quorum.auto.join.enable", false, 9]])]))

test_success_auto_join_placeholder if _silent(_at("4.3", [_unknown(_broker, "controller.quorum.auto.join.enable", 9)]))

# --- quorum entries

_voters(raw) := object.union(_broker, {"settings": {"controller.quorum.voters": t.list_setting(_f, "controller.quorum.voters", raw, 3)}})

test_fail_voters_trailing_comma if {
	_fires(_at("4.1", [_voters("2@localhost:9093,")]), 3, "controller.quorum.voters", "Invalid configuration value for controller.quorum.voters. Each entry should be in the form `{id}@{host}:{port}`.")
}

test_fail_voters_doubled_comma_3_8 if {
	_fires(_at("3.8", [_voters("2@a:9093,,3@b:9093")]), 3, "controller.quorum.voters", "has an empty entry")
}

test_success_voters_blank_value if _silent(_at("4.3", [_voters("  ")]))

test_success_voters_placeholder if _silent(_at("4.3", [_unknown(_broker, "controller.quorum.voters", 3)]))

_bootstrap(raw) := object.union(_broker, {"settings": {"controller.quorum.bootstrap.servers": t.list_setting(_f, "controller.quorum.bootstrap.servers", raw, 6)}})

test_fail_bootstrap_without_port if {
	_fires(_at("3.9", [_bootstrap("kafka1:9092,kafka2")]), 6, "controller.quorum.bootstrap.servers", "Failed to parse host name from kafka2 for the configuration controller.quorum.bootstrap.servers")
}

test_success_bootstrap_with_scheme if _silent(_at("4.3", [_bootstrap("CONTROLLER://localhost:9092,[::1]:9093")]))

test_success_bootstrap_before_3_9 if _silent(_at("3.8", [_bootstrap("kafka2")]))

test_success_bootstrap_placeholder if _silent(_at("4.3", [_unknown(_broker, "controller.quorum.bootstrap.servers", 6)]))

# --- lower-case controller.listener.names

_combined(names) := t.with_controller_names(
	t.with_listeners(
		t.with_voters(t.with_id(t.node(_f, ["broker", "controller"], [["process.roles", "broker,controller", 1]]), 1, 2), "1@localhost:5000", 3),
		"PLAINTEXT://localhost:9092,CONTROLLER://localhost:5000", 4,
	),
	names, 5,
)

test_fail_lowercase_controller_names_combined if {
	_fires(_at("4.3", [_combined("controller")]), 5, "controller.listener.names", "controller.listener.names must contain at least one value appearing in the 'listeners' configuration when running the KRaft controller role")
}

test_success_uppercase_controller_names_combined if _silent(_at("4.3", [_combined("CONTROLLER")]))

test_success_lowercase_name_of_no_listener if {
	# a name no listener has is KFK3015's finding, not this one
	_silent(_at("4.3", [_combined("CONTROLLER,other")]))
}

test_success_controller_names_absent if {
	_silent(_at("4.3", [object.union(_combined("CONTROLLER"), {"controller_listener_names": [], "settings": {"controller.listener.names": null}})]))
}

# --- broker controller listener without an implicit mapping

_no_implicit(node) := object.union(node, {"protocol_map": {"PLAINTEXT": "PLAINTEXT", "SSL": "SSL", "SASL_PLAINTEXT": "SASL_PLAINTEXT", "SASL_SSL": "SASL_SSL"}})

test_fail_broker_controller_listener_unmapped if {
	_fires(_at("4.3", [_no_implicit(_broker)]), 5, "controller.listener.names", "Controller listener with name CONTROLLER defined in controller.listener.names not found in listener.security.protocol.map")
}

test_success_broker_controller_listener_mapped if {
	_silent(_at("4.3", [object.union(_broker, {"protocol_map": {"PLAINTEXT": "PLAINTEXT", "CONTROLLER": "PLAINTEXT"}})]))
}

test_success_broker_protocol_map_unknown if {
	# no protocol_map: the written map is a placeholder
	_silent(_at("4.3", [_unknown(_broker, "listener.security.protocol.map", 7)]))
}

test_success_broker_explicit_map_is_kfk3016s if {
	_silent(_at("4.3", [_with(_no_implicit(_broker), [["listener.security.protocol.map", "PLAINTEXT:PLAINTEXT", 7]])]))
}

# --- version-specific listener rules

_controller_only := t.with_advertised(
	t.with_controller_names(
		t.with_listeners(
			t.with_voters(t.with_id(t.node(_f, ["controller"], [["process.roles", "controller", 1]]), 2, 2), "2@A:9092", 3),
			"PLAINTEXT://A:9092", 4,
		),
		"PLAINTEXT", 5,
	),
	"PLAINTEXT://A:9092", 6,
)

test_fail_controller_advertised_3_8 if {
	_fires(_at("3.8", [_controller_only]), 6, "advertised.listeners", "The advertised.listeners config must be empty when process.roles=controller")
}

test_success_controller_advertised_3_9 if _silent(_at("3.9", [_controller_only]))

test_fail_broker_advertises_controller_listener_3_8 if {
	c := _at("3.8", [t.with_advertised(_combined("CONTROLLER"), "PLAINTEXT://localhost:9092,CONTROLLER://localhost:5000", 6)])
	_fires(c, 6, "advertised.listeners", "The advertised.listeners config must not contain KRaft controller listeners from controller.listener.names when process.roles contains the broker role")
}

test_success_broker_advertises_controller_listener_3_9 if {
	_silent(_at("3.9", [t.with_advertised(_combined("CONTROLLER"), "PLAINTEXT://localhost:9092,CONTROLLER://localhost:5000", 6)]))
}

test_fail_control_plane_listener_3_9 if {
	_fires(_at("3.9", [_with(_broker, [["control.plane.listener.name", "PLAINTEXT", 9]])]), 9, "control.plane.listener.name", "control.plane.listener.name is not supported in KRaft mode.")
}

test_success_control_plane_listener_4_0 if _silent(_at("4.0", [_with(_broker, [["control.plane.listener.name", "PLAINTEXT", 9]])]))

test_success_control_plane_listener_placeholder if _silent(_at("3.9", [_unknown(_broker, "control.plane.listener.name", 9)]))

# --- meta.properties

_meta(entries) := t.at_version(t.full_cluster([], [], [t.meta("meta.properties", "", entries)], []), "4.3")

test_fail_meta_v1_without_cluster_id if {
	_fires(_meta([["version", "1", 1], ["node.id", "1", 2]]), 1, "version", "cluster.id was not found.")
}

test_fail_meta_v1_without_node_id if {
	_fires(_meta([["version", "1", 1], ["cluster.id", "abc", 2]]), 1, "version", "node.id was not found.")
}

test_success_meta_v1_complete if _silent(_meta([["version", "1", 1], ["cluster.id", "abc", 2], ["node.id", "1", 3]]))

test_success_meta_v0 if _silent(_meta([["version", "0", 1], ["cluster.id", "abc", 2]]))

test_success_meta_version_absent if _silent(_meta([["cluster.id", "abc", 2]]))

# --- a controller advertising 0.0.0.0

_controller_advertising(host) := t.with_advertised(
	t.with_controller_names(
		t.with_listeners(
			t.with_voters(t.with_id(t.node(_f, ["controller"], [["process.roles", "controller", 1]]), 2, 2), "2@localhost:9093", 3),
			"CONTROLLER://0.0.0.0:9093", 4,
		),
		"CONTROLLER", 5,
	),
	sprintf("CONTROLLER://%s:9093", [host]), 6,
)

test_fail_controller_advertises_all_interfaces if {
	_fires(_at("4.3", [_controller_advertising("0.0.0.0")]), 6, "advertised.listeners", "advertised.listeners cannot use the nonroutable meta-address 0.0.0.0")
}

test_success_controller_advertises_host if _silent(_at("4.3", [_controller_advertising("ctl-2.example.com")]))

test_success_controller_listens_on_all_interfaces if {
	_silent(_at("4.3", [object.union(_controller_advertising("x"), {"advertised_listeners": [], "settings": {"advertised.listeners": null}})]))
}

test_success_controller_advertised_placeholder if {
	_silent(_at("4.3", [object.union(_unknown(_controller_advertising("x"), "advertised.listeners", 6), {"advertised_listeners": []})]))
}

# --- socket and cleaner sizing

test_fail_queued_bytes_below_request_size if {
	_fires(_at("4.3", [_int(_broker, "queued.max.request.bytes", 1000, 9)]), 9, "queued.max.request.bytes", "queued.max.request.bytes must be larger or equal to socket.request.max.bytes")
}

test_success_queued_bytes_unlimited if _silent(_at("4.3", [_int(_broker, "queued.max.request.bytes", -1, 9)]))

test_success_queued_bytes_placeholder if {
	_silent(_at("4.3", [_unknown(_int(_broker, "socket.request.max.bytes", 2000, 10), "queued.max.request.bytes", 9)]))
}

test_fail_auth_delay_not_below_idle if {
	_fires(_at("3.8", [_int(_broker, "connections.max.idle.ms", 100, 9)]), 9, "connections.max.idle.ms", "connection.failed.authentication.delay.ms=100 should always be less than connections.max.idle.ms=100")
}

test_success_auth_delay_idle_disabled if _silent(_at("4.3", [_int(_int(_broker, "connections.max.idle.ms", -1, 9), "connection.failed.authentication.delay.ms", 5000, 10)]))

test_success_auth_delay_absent if _silent(_at("4.3", [_broker]))

test_fail_dedupe_buffer_per_thread if {
	_fires(_at("4.3", [_int(_broker, "log.cleaner.threads", 128, 9)]), 9, "log.cleaner.threads", "log.cleaner.dedupe.buffer.size must be at least 1MB per cleaner thread.")
}

test_success_dedupe_buffer_enough if _silent(_at("4.3", [_int(_broker, "log.cleaner.threads", 8, 9)]))

test_success_dedupe_buffer_placeholder if _silent(_at("4.3", [_unknown(_int(_broker, "log.cleaner.threads", 128, 9), "log.cleaner.dedupe.buffer.size", 10)]))

# --- producer two-phase commit

_two_pc(entries) := t.client("producer.properties", "producer", entries)

_clients(version, clients) := t.at_version(t.cluster([], clients), version)

test_fail_two_phase_commit_with_transaction_timeout if {
	c := _clients("4.1", [_two_pc([["transaction.two.phase.commit.enable", true, 2], ["transaction.timeout.ms", 60000, 3]])])
	some f in _reports(c)
	f.location.line == 3
	f.key == "transaction.timeout.ms"
	contains(f.message, "Cannot set transaction.timeout.ms when transaction.two.phase.commit.enable is set to true.")
}

test_fail_two_phase_commit_with_transaction_timeout_placeholder if {
	base := _two_pc([["transaction.two.phase.commit.enable", true, 2]])
	c := _clients("4.3", [object.union(base, {"settings": {"transaction.timeout.ms": t.unknown_setting("producer.properties", "transaction.timeout.ms", "${env:T}", 3)}})])
	count(_reports(c)) == 1
}

test_success_two_phase_commit_without_timeout if _silent(_clients("4.3", [_two_pc([["transaction.two.phase.commit.enable", true, 2]])]))

test_success_two_phase_commit_off if {
	_silent(_clients("4.3", [_two_pc([["transaction.two.phase.commit.enable", false, 2], ["transaction.timeout.ms", 60000, 3]])]))
}

test_success_two_phase_commit_before_4_1 if {
	_silent(_clients("4.0", [_two_pc([["transaction.two.phase.commit.enable", true, 2], ["transaction.timeout.ms", 60000, 3]])]))
}
