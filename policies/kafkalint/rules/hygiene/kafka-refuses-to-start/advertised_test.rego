package kafkalint.rules.hygiene["kafka-refuses-to-start_test"]

import data.kafkalint.lib.testing as t

# Tests of advertised.rego.

test_fail_advertised_name_not_in_listeners if {
	node := _with_advertised(_broker, [_listener(4, "PLAINTEXT", "b", 9092, "PLAINTEXT"), _listener(4, "EXTERNAL", "b", 9094, "")], 4)
	_refuses(_at("4.3", [node]), 4, "advertised.listeners", "advertised.listeners names EXTERNAL, which listeners does not define", "listeners defines PLAINTEXT, not EXTERNAL. Kafka 4.3 refuses to start (\"advertised.listeners listener names must be equal to or a subset of the ones defined in listeners\")")
}

test_fail_wildcard_listener_advertised_by_fallback if {
	node := _with_listeners(_broker, [_listener(3, "PLAINTEXT", "0.0.0.0", 9092, "PLAINTEXT")], 3)
	c := _at("4.3", [node])
	_refuses(c, 3, "listeners", "listeners entry PLAINTEXT://0.0.0.0:9092 is advertised as is (advertised.listeners is not set)", "The broker advertises PLAINTEXT://0.0.0.0:9092 to clients (advertised.listeners is not set, so Kafka advertises listeners, which binds 0.0.0.0), and no client can connect to 0.0.0.0. Kafka 4.3 refuses to start (\"advertised.listeners cannot use the nonroutable meta-address 0.0.0.0\").")
	some f in _reports(c)
	f.fix == "Advertise this node's host name, e.g. advertised.listeners=PLAINTEXT://broker-1.example.com:9092."
}

test_fail_wildcard_listener_advertised if {
	node := _with_advertised(
		_with_listeners(_broker, [_listener(3, "PLAINTEXT", "0.0.0.0", 9092, "PLAINTEXT")], 3),
		[_listener(4, "PLAINTEXT", "0.0.0.0", 9092, "PLAINTEXT")], 4,
	)
	_refuses(_at("4.3", [node]), 4, "advertised.listeners", "advertised.listeners entry PLAINTEXT://0.0.0.0:9092 advertises the non-routable 0.0.0.0", "(\"advertised.listeners cannot use the nonroutable meta-address 0.0.0.0\")")
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
	_refuses(_at("4.3", [node]), 4, "advertised.listeners", "this broker advertises only controller listeners (CONTROLLER)", "(\"There must be at least one broker advertised listener. Perhaps all listeners appear in controller.listener.names?\")")
}

test_success_listeners_placeholder if {
	node := object.union(
		object.remove(_custom_names, ["listeners", "settings"]),
		{"listeners": [], "settings": object.union(object.remove(_custom_names.settings, ["listeners"]), {"listeners": t.unknown_setting(_f, "listeners", "${env:LISTENERS}", 3)})},
	)
	_silent(_at("4.3", [node]))
}

# --- controller listeners advertised up to 3.8

_controller_only := t.with_advertised(
	t.with_controller_names(
		t.with_listeners(
			t.with_voters(t.with_id(t.with_protocol_map(t.node(_f, ["controller"], [["process.roles", "controller", 1]]), _implicit([])), 2, 2), "2@A:9092", 3),
			"PLAINTEXT://A:9092", 4,
		),
		"PLAINTEXT", 5,
	),
	"PLAINTEXT://A:9092", 6,
)

test_fail_controller_advertised_3_8 if {
	_refuses(_at("3.8", [_controller_only]), 6, "advertised.listeners", "advertised.listeners is set on a controller-only node", "The advertised.listeners config must be empty when process.roles=controller")
}

test_success_controller_advertised_3_9 if _silent(_at("3.9", [_controller_only]))

test_fail_broker_advertises_controller_listener_3_8 if {
	c := _at("3.8", [t.with_advertised(_combined("CONTROLLER"), "PLAINTEXT://localhost:9092,CONTROLLER://localhost:5000", 6)])
	_refuses(c, 6, "advertised.listeners", "advertised.listeners advertises controller listener CONTROLLER on a node with the broker role", "The advertised.listeners config must not contain KRaft controller listeners from controller.listener.names when process.roles contains the broker role")
}

test_success_broker_advertises_controller_listener_3_9 if {
	_silent(_at("3.9", [t.with_advertised(_combined("CONTROLLER"), "PLAINTEXT://localhost:9092,CONTROLLER://localhost:5000", 6)]))
}

# --- a controller advertising 0.0.0.0

_controller_advertising(host) := t.with_advertised(
	t.with_controller_names(
		t.with_listeners(
			t.with_voters(t.with_id(t.with_protocol_map(t.node(_f, ["controller"], [["process.roles", "controller", 1]]), _implicit(["CONTROLLER"])), 2, 2), "2@localhost:9093", 3),
			"CONTROLLER://0.0.0.0:9093", 4,
		),
		"CONTROLLER", 5,
	),
	sprintf("CONTROLLER://%s:9093", [host]), 6,
)

test_fail_controller_advertises_all_interfaces if {
	_refuses(_at("4.3", [_controller_advertising("0.0.0.0")]), 6, "advertised.listeners", "advertised.listeners advertises controller listener CONTROLLER://0.0.0.0:9093 on 0.0.0.0", "advertised.listeners cannot use the nonroutable meta-address 0.0.0.0. Use a routable IP address.")
}

test_success_controller_advertises_host if _silent(_at("4.3", [_controller_advertising("ctl-2.example.com")]))

test_success_controller_listens_on_all_interfaces if {
	_silent(_at("4.3", [object.union(_controller_advertising("x"), {"advertised_listeners": [], "settings": {"advertised.listeners": null}})]))
}

test_success_controller_advertised_placeholder if {
	_silent(_at("4.3", [object.union(_unknown(_controller_advertising("x"), "advertised.listeners", 6), {"advertised_listeners": []})]))
}
