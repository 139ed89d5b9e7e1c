package kafkalint.rules.hygiene["kafka-refuses-to-start_test"]

# Tests of socket_server.rego.

# --- max.connections.per.ip

test_fail_max_connections_zero_without_overrides if {
	_refuses(_at("4.3", [_int(_quorum_broker, "max.connections.per.ip", 0, 9)]), 9, "max.connections.per.ip", "max.connections.per.ip=0 without max.connections.per.ip.overrides", "max.connections.per.ip can be set to zero only if max.connections.per.ip.overrides property is set.")
}

test_fail_max_connections_zero_with_empty_overrides if {
	_refuses(_at("4.3", [_with(_int(_quorum_broker, "max.connections.per.ip", 0, 9), [["max.connections.per.ip.overrides", "", 10]])]), 9, "max.connections.per.ip", "max.connections.per.ip=0 without", "can be set to zero only if")
}

test_success_max_connections_zero_with_overrides if {
	_silent(_at("4.3", [_with(_int(_quorum_broker, "max.connections.per.ip", 0, 9), [["max.connections.per.ip.overrides", "127.0.0.1:100", 10]])]))
}

test_success_max_connections_overrides_placeholder if {
	_silent(_at("4.3", [_unknown(_int(_quorum_broker, "max.connections.per.ip", 0, 9), "max.connections.per.ip.overrides", 10)]))
}

test_success_max_connections_positive if _silent(_at("4.3", [_int(_quorum_broker, "max.connections.per.ip", 10, 9)]))

# --- socket sizing and authentication delay

test_fail_queued_bytes_below_request_size if {
	c := _at("4.3", [_int(_quorum_broker, "queued.max.request.bytes", 1000, 9)])
	_refuses(c, 9, "queued.max.request.bytes", "queued.max.request.bytes=1000 is below socket.request.max.bytes=104857600", "largest size. socket.request.max.bytes=104857600 is Kafka's default. Kafka 4.3 refuses to start (\"queued.max.request.bytes must be larger or equal to socket.request.max.bytes\").")
	some f in _reports(c)
	f.fix == "Raise queued.max.request.bytes to at least 104857600, or set it to -1 (no limit, the default)."
}

test_success_queued_bytes_unlimited if _silent(_at("4.3", [_int(_quorum_broker, "queued.max.request.bytes", -1, 9)]))

test_success_queued_bytes_placeholder if {
	_silent(_at("4.3", [_unknown(_int(_quorum_broker, "socket.request.max.bytes", 2000, 10), "queued.max.request.bytes", 9)]))
}

test_fail_auth_delay_not_below_idle if {
	_refuses(_at("3.8", [_int(_quorum_broker, "connections.max.idle.ms", 100, 9)]), 9, "connections.max.idle.ms", "connection.failed.authentication.delay.ms=100 is not below connections.max.idle.ms=100", "connection.failed.authentication.delay.ms=100 is Kafka's default. Kafka 3.8 refuses to start (\"connection.failed.authentication.delay.ms=100 should always be less than connections.max.idle.ms=100")
}

test_success_auth_delay_idle_disabled if _silent(_at("4.3", [_int(_int(_quorum_broker, "connections.max.idle.ms", -1, 9), "connection.failed.authentication.delay.ms", 5000, 10)]))

test_success_auth_delay_absent if _silent(_at("4.3", [_quorum_broker]))

# --- max.connections.per.ip.overrides hosts

test_fail_max_connections_overrides_invalid_host if {
	_refuses(_at("3.8", [_with(_quorum_broker, [["max.connections.per.ip.overrides", "127.0.0.1:100, 127.0.0.0#:100", 9]])]), 9, "max.connections.per.ip.overrides", "max.connections.per.ip.overrides names 127.0.0.0#, not a host name or IP address", "max.connections.per.ip.overrides contains invalid addresses : 127.0.0.0#")
}

test_success_max_connections_overrides_valid_hosts if {
	_silent(_at("4.3", [_with(_quorum_broker, [["max.connections.per.ip.overrides", "broker-1.example.com:5, ::1:3, fe80::1%eth0:2,", 9]])]))
}

test_success_max_connections_overrides_unparsable if {
	_silent(_at("4.3", [_with(_quorum_broker, [["max.connections.per.ip.overrides", "127.0.0.0#", 9]])]))
}

test_success_max_connections_overrides_absent if _silent(_at("4.3", [_quorum_broker]))

test_success_max_connections_overrides_invalid_placeholder if _silent(_at("4.3", [_unknown(_quorum_broker, "max.connections.per.ip.overrides", 9)]))
