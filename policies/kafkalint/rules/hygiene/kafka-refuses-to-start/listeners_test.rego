package kafkalint.rules.hygiene["kafka-refuses-to-start_test"]

# Tests of listeners.rego.

test_fail_unparsable_listener if {
	bad := object.union(_listener(3, "", "", 0, ""), {"raw": "broker-4:9092", "error": "unable to parse \"broker-4:9092\" to a broker endpoint"})
	node := _with_listeners(_broker, [bad], 3)
	_refuses(_at("4.3", [node]), 3, "listeners", "listeners entry broker-4:9092 is not NAME://host:port", "(\"Unable to parse broker-4:9092 to a broker endpoint\")")
}

test_fail_long_unparsable_listener_cut_in_message if {
	raw := "broker-4.a-very-long-internal-domain-name.example.com:9092"
	bad := object.union(_listener(3, "", "", 0, ""), {"raw": raw, "error": "unable to parse"})
	_refuses(
		_at("4.3", [_with_listeners(_broker, [bad], 3)]), 3, "listeners",
		"listeners entry broker-4.a-very-long-internal-domain-nam… is not NAME://host:port",
		sprintf("(\"Unable to parse %s to a broker endpoint\")", [raw]),
	)
}

test_fail_duplicate_listener_names if {
	node := _with_listeners(_broker, [_listener(3, "PLAINTEXT", "a", 9092, "PLAINTEXT"), _listener(3, "PLAINTEXT", "b", 9093, "PLAINTEXT")], 3)
	_refuses(_at("4.3", [node]), 3, "listeners", "listeners names PLAINTEXT more than once", "(\"Each listener must have a different name\")")
}

test_fail_duplicate_listener_ports if {
	node := _with_listeners(_broker, [_listener(3, "PLAINTEXT", "a", 9092, "PLAINTEXT"), _listener(3, "SSL", "a", 9092, "SSL")], 3)
	_refuses(_at("4.3", [node]), 3, "listeners", "listeners use port 9092 more than once (PLAINTEXT://a:9092, SSL://a:9092)", "(\"Each listener must have a different port\")")
}

test_success_ipv4_and_ipv6_share_a_port if {
	node := _with_listeners(_broker, [_listener(3, "PLAINTEXT", "10.0.0.4", 9092, "PLAINTEXT"), _listener(3, "SSL", "::1", 9092, "SSL")], 3)
	_silent(_at("4.3", [node]))
}

# --- control.plane.listener.name

test_fail_control_plane_listener_3_9 if {
	_refuses(_at("3.9", [_with(_quorum_broker, [["control.plane.listener.name", "PLAINTEXT", 9]])]), 9, "control.plane.listener.name", "control.plane.listener.name=PLAINTEXT on a KRaft node", "control.plane.listener.name is not supported in KRaft mode.")
}

test_success_control_plane_listener_4_0 if _silent(_at("4.0", [_with(_quorum_broker, [["control.plane.listener.name", "PLAINTEXT", 9]])]))

test_success_control_plane_listener_placeholder if _silent(_at("3.9", [_unknown(_quorum_broker, "control.plane.listener.name", 9)]))
