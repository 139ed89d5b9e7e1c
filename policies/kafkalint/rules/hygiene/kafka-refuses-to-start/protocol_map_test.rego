package kafkalint.rules.hygiene["kafka-refuses-to-start_test"]

import data.kafkalint.lib.testing as t

# Tests of protocol_map.rego.

test_fail_listener_without_protocol if {
	node := t.with_setting(
		_with_listeners(_broker, [_listener(3, "PLAINTEXT", "b", 9092, "PLAINTEXT"), _listener(3, "REPLICATION", "b", 9093, "")], 3),
		t.setting(_f, "listener.security.protocol.map", "PLAINTEXT:PLAINTEXT", 5),
	)
	_refuses(_at("4.3", [node]), 3, "listeners", "listener REPLICATION has no security protocol in listener.security.protocol.map", "listener.security.protocol.map (line 5) does not map REPLICATION, so Kafka cannot tell how to secure listener REPLICATION. Kafka 4.3 refuses to start (\"No security protocol defined for listener REPLICATION\").")
}

test_fail_listener_named_after_no_protocol if {
	node := _with_listeners(_broker, [_listener(3, "PLAINTEXT", "b", 9092, "PLAINTEXT"), _listener(3, "REPLICATION", "b", 9093, "")], 3)
	_refuses(_at("4.3", [node]), 3, "listeners", "listener REPLICATION has no security protocol (no listener.security.protocol.map)", "The name REPLICATION is not a security protocol and listener.security.protocol.map is not set")
}

test_success_protocol_map_placeholder if {
	node := t.with_setting(
		_with_listeners(_broker, [_listener(3, "PLAINTEXT", "b", 9092, ""), _listener(3, "REPLICATION", "b", 9093, "")], 3),
		t.unknown_setting(_f, "listener.security.protocol.map", "${env:MAP}", 5),
	)
	_silent(_at("4.3", [object.union(t.with_protocol_map(node, {}), {"protocol_map_unknown": true})]))
}

test_fail_protocol_map_entry_malformed if {
	node := t.with_setting(_broker, t.setting(_f, "listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER", 5))
	_refuses(_at("4.3", [node]), 5, "listener.security.protocol.map", "listener.security.protocol.map entry CONTROLLER is not NAME:PROTOCOL", "(\"Error parsing configuration property 'listener.security.protocol.map'\")")
}

test_fail_protocol_map_unknown_protocol if {
	node := t.with_setting(_broker, t.setting(_f, "listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,EXTERNAL:TLS", 5))
	_refuses(_at("4.3", [node]), 5, "listener.security.protocol.map", "listener.security.protocol.map maps EXTERNAL to TLS, which is not a security protocol", "(\"Invalid security protocol `TLS` defined in listener.security.protocol.map\")")
}

test_success_protocol_map_any_case if {
	node := t.with_setting(_broker, t.setting(_f, "listener.security.protocol.map", "PLAINTEXT:plaintext", 5))
	_silent(_at("4.3", [node]))
}

# --- broker controller listener without an implicit mapping

_no_implicit(node) := t.with_protocol_map(node, {"PLAINTEXT": "PLAINTEXT", "SSL": "SSL", "SASL_PLAINTEXT": "SASL_PLAINTEXT", "SASL_SSL": "SASL_SSL"})

test_fail_broker_controller_listener_unmapped if {
	_refuses(_at("4.3", [_no_implicit(_quorum_broker)]), 5, "controller.listener.names", "controller listener CONTROLLER has no security protocol (no listener.security.protocol.map)", "Controller listener with name CONTROLLER defined in controller.listener.names not found in listener.security.protocol.map")
}

test_success_broker_controller_listener_mapped if {
	_silent(_at("4.3", [object.union(_quorum_broker, {"protocol_map": {"PLAINTEXT": "PLAINTEXT", "CONTROLLER": "PLAINTEXT"}})]))
}

test_success_broker_protocol_map_unknown if {
	# no protocol_map: the written map is a placeholder
	_silent(_at("4.3", [_unknown(_quorum_broker, "listener.security.protocol.map", 7)]))
}

test_success_broker_explicit_map_is_kfk3016s if {
	_silent(_at("4.3", [_with(_no_implicit(_quorum_broker), [["listener.security.protocol.map", "PLAINTEXT:PLAINTEXT", 7]])]))
}
