package kafkalint.rules.hygiene["kafka-refuses-to-start_test"]

import data.kafkalint.lib.testing as t

# Tests of controller_listeners.rego.

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
	_refuses(_at("4.3", [node]), 3, "listeners", "process.roles=controller but listeners also has PLAINTEXT, not in controller.listener.names", "(\"The listeners config must only contain KRaft controller listeners from controller.listener.names when process.roles=controller\")")
}

test_success_controller_with_controller_listener_only if {
	_silent(_at("4.3", [_controller]))
}

test_fail_controller_inter_broker_listener_on_4_0 if {
	node := t.with_setting(_controller, t.setting(_f, "inter.broker.listener.name", "CONTROLLER", 6))
	_refuses(_at("4.0", [node]), 6, "inter.broker.listener.name", "inter.broker.listener.name=CONTROLLER names this controller's own listener", "(\"controller.listener.names must not contain an explicitly set inter.broker.listener.name configuration value when process.roles=controller\")")
}

test_success_controller_inter_broker_listener_on_3_9 if {
	node := t.with_setting(_controller, t.setting(_f, "inter.broker.listener.name", "CONTROLLER", 6))
	_silent(_at("3.9", [node]))
}

# --- lower-case controller.listener.names

# Built with the loader: Kafka maps the lower-case name as written, so the
# CONTROLLER listener has no protocol either (a second refusal).
test_fail_lowercase_controller_names_combined if {
	reports := _reports(kafkalint.parse("", "prod/server.properties", `process.roles=broker,controller
node.id=1
controller.quorum.voters=1@localhost:5000
listeners=PLAINTEXT://localhost:9092,CONTROLLER://localhost:5000
controller.listener.names=controller
`))
	{[f.location.line, f.key] | some f in reports} == {[4, "listeners"], [5, "controller.listener.names"]}
	every f in reports {
		_explained(f)
	}
	some f in reports
	f.key == "controller.listener.names"
	f.message == "controller.listener.names=controller is not upper-case: it never matches listener CONTROLLER"
	contains(f.why, "(\"controller.listener.names must contain at least one value appearing in the 'listeners' configuration when running the KRaft controller role\")")
	f.fix == "Write controller.listener.names in upper case: controller.listener.names=CONTROLLER."
}

test_success_uppercase_controller_names_combined if _silent(_at("4.3", [_combined("CONTROLLER")]))

test_success_lowercase_name_of_no_listener if {
	# a name no listener has is KFK3015's finding, not this one
	_silent(_at("4.3", [_combined("CONTROLLER,other")]))
}

test_success_controller_names_absent if {
	_silent(_at("4.3", [object.union(_combined("CONTROLLER"), {"controller_listener_names": [], "settings": {"controller.listener.names": null}})]))
}
