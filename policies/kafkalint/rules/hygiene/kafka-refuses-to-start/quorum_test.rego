package kafkalint.rules.hygiene["kafka-refuses-to-start_test"]

import data.kafkalint.lib.testing as t

# Tests of quorum.rego.

# --- controller.quorum.auto.join.enable on a broker (4.2+)

_auto_join(node) := _with(node, [["controller.quorum.auto.join.enable", true, 9]])

test_fail_auto_join_on_broker if {
	_refuses(_at("4.2", [_auto_join(_quorum_broker)]), 9, "controller.quorum.auto.join.enable", "controller.quorum.auto.join.enable=true on a broker-only node", "controller.quorum.auto.join.enable is only supported when process.roles contains the 'controller' role.")
}

test_success_auto_join_before_4_2 if _silent(_at("4.1", [_auto_join(_quorum_broker)]))

test_success_auto_join_false if _silent(_at("4.3", [_with(_quorum_broker, [["controller.quorum.auto.join.enable", false, 9]])]))

test_success_auto_join_placeholder if _silent(_at("4.3", [_unknown(_quorum_broker, "controller.quorum.auto.join.enable", 9)]))

# --- quorum entries

_voters(raw) := object.union(_quorum_broker, {"settings": {"controller.quorum.voters": t.list_setting(_f, "controller.quorum.voters", raw, 3)}})

test_fail_voters_trailing_comma if {
	_refuses(_at("4.1", [_voters("2@localhost:9093,")]), 3, "controller.quorum.voters", "controller.quorum.voters=2@localhost:9093, has an empty entry", "Invalid configuration value for controller.quorum.voters. Each entry should be in the form `{id}@{host}:{port}`.")
}

test_fail_voters_doubled_comma_3_8 if {
	_refuses(_at("3.8", [_voters("2@a:9093,,3@b:9093")]), 3, "controller.quorum.voters", "controller.quorum.voters=2@a:9093,,3@b:9093 has an empty entry", "Kafka 3.8 refuses to start")
}

test_success_voters_blank_value if _silent(_at("4.3", [_voters("  ")]))

test_success_voters_placeholder if _silent(_at("4.3", [_unknown(_quorum_broker, "controller.quorum.voters", 3)]))

_bootstrap(raw) := object.union(_quorum_broker, {"settings": {"controller.quorum.bootstrap.servers": t.list_setting(_f, "controller.quorum.bootstrap.servers", raw, 6)}})

test_fail_bootstrap_without_port if {
	_refuses(_at("3.9", [_bootstrap("kafka1:9092,kafka2")]), 6, "controller.quorum.bootstrap.servers", "controller.quorum.bootstrap.servers entry \"kafka2\" is not host:port", "(\"Failed to parse host name from kafka2 for the configuration controller.quorum.bootstrap.servers. Each entry should be in the form \\\"{host}:{port}\\\"\")")
}

test_success_bootstrap_with_scheme if _silent(_at("4.3", [_bootstrap("CONTROLLER://localhost:9092,[::1]:9093")]))

test_success_bootstrap_before_3_9 if _silent(_at("3.8", [_bootstrap("kafka2")]))

test_success_bootstrap_placeholder if _silent(_at("4.3", [_unknown(_quorum_broker, "controller.quorum.bootstrap.servers", 6)]))
