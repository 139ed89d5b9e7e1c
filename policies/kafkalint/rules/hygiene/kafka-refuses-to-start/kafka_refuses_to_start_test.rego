package kafkalint.rules.hygiene["kafka-refuses-to-start_test"]

import data.kafkalint.lib.testing as t
import data.kafkalint.rules.hygiene["kafka-refuses-to-start"] as rule

# The rule's tests are in one file per file of the rule (roles_test.rego for
# roles.rego, ...); this one holds the fixtures they share and the tests of
# the shared helpers (what an absent key means, keys the platform manages).
# Each test is one validation at the Kafka version it applies to; most also
# check the neighbouring version where Kafka behaves differently. For each
# check: a configuration Kafka refuses (the one finding, its line and
# Kafka's words), one it accepts, and where it matters the key absent and
# the key a ${provider:...} placeholder. The fixture brokers pass every other
# check of the rule, so any finding comes from the check under test.

_f := "server.properties"

_reports(c) := r if {
	r := rule.report with input as c
}

# _fires: the only finding is at line about key, and its message (short,
# _explained) says fragment.
_fires(c, line, key, fragment) if {
	reports := _reports(c)
	count(reports) == 1
	some f in reports
	f.location.line == line
	f.key == key
	contains(f.message, fragment)
	_explained(f)
}

# _refuses is _fires whose why quotes Kafka's words.
_refuses(c, line, key, fragment, words) if {
	_fires(c, line, key, fragment)
	some f in _reports(c)
	contains(f.why, words)
}

# _explained: a finding of this rule has a message of one line of at most
# 120 characters (TestMessagesAreShort) and its own why and fix.
_explained(f) if {
	count(f.message) <= 120
	not contains(f.message, "\n")
	f.why != ""
	f.fix != ""
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

# _implicit is the effective protocol map the loader gives a KRaft node
# without listener.security.protocol.map whose listeners are not secure,
# with controller listener names names (stated here, as a fixture states
# every fact the loader derives; the loader's own tests pin how it is
# derived).
_implicit(names) := object.union(
	{"PLAINTEXT": "PLAINTEXT", "SSL": "SSL", "SASL_PLAINTEXT": "SASL_PLAINTEXT", "SASL_SSL": "SASL_SSL"},
	{n: "PLAINTEXT" | some n in names},
)

# A KRaft broker that Kafka accepts: one PLAINTEXT listener, the default
# inter-broker protocol.
_broker := t.with_protocol_map(_broker_listeners, _implicit([]))

_broker_listeners := _with_listeners(
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

# A KRaft broker built with the lib/testing helpers: node.id 0, a static
# voter set, a PLAINTEXT listener and the CONTROLLER controller listener.
_quorum_broker := t.with_controller_names(
	t.with_listeners(
		t.with_voters(t.with_id(t.with_protocol_map(t.node(_f, ["broker"], [["process.roles", "broker", 1]]), _implicit(["CONTROLLER"])), 0, 2), "2@localhost:9093", 3),
		"PLAINTEXT://localhost:9092", 4,
	),
	"CONTROLLER", 5,
)

_with(node, entries) := t.with_settings(node, entries)

_unknown(node, key, line) := object.union(node, {"settings": {key: t.unknown_setting(_f, key, "${env:X}", line)}})

_int(node, key, value, line) := object.union(node, {"settings": {key: object.union(t.setting(_f, key, value, line), {"type": "int"})}})

_without(node, key) := object.union(object.remove(node, ["settings"]), {"settings": object.remove(node.settings, [key])})

_custom_names := t.with_protocol_map(
	t.with_setting(
		_with_listeners(_broker, [_listener(3, "INTERNAL", "b", 9092, "PLAINTEXT"), _listener(3, "EXTERNAL", "b", 9094, "SASL_SSL")], 3),
		t.setting(_f, "listener.security.protocol.map", "INTERNAL:PLAINTEXT,EXTERNAL:SASL_SSL", 5),
	),
	{"INTERNAL": "PLAINTEXT", "EXTERNAL": "SASL_SSL"},
)

_combined(names) := t.with_controller_names(
	t.with_listeners(
		t.with_voters(t.with_id(t.with_protocol_map(t.node(_f, ["broker", "controller"], [["process.roles", "broker,controller", 1]]), _implicit(split(names, ","))), 1, 2), "1@localhost:5000", 3),
		"PLAINTEXT://localhost:9092,CONTROLLER://localhost:5000", 4,
	),
	names, 5,
)

test_success_fixture_broker_starts if _silent(_at("4.3", [_quorum_broker]))

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
	_silent(_at("4.3", [object.union(node, {"whole_configuration": false})]))
}

test_fail_same_node_in_properties_file if {
	node := _with_advertised(
		object.union(_without(_broker, "listeners"), {"listeners": []}),
		[_listener(4, "INTERNAL", "kafka", 29092, ""), _listener(4, "EXTERNAL", "localhost", 9092, "")], 4,
	)
	some f in _reports(_at("4.3", [node]))
	contains(f.why, "advertised.listeners listener names must be equal to or a subset of the ones defined in listeners")
	_explained(f)
}

# Strimzi writes the inter-broker listener and the protocol map itself.
test_success_keys_managed_by_platform if {
	node := object.union(_custom_names, {"managed_keys": ["inter.broker.listener.name", "listener.security.protocol.map"]})
	_silent(_at("4.3", [node]))
}

# --- shared helpers ----------------------------------------------------------------

test_success_cut_keeps_a_short_part if rule._cut("PLAINTEXT://broker-1:9092") == "PLAINTEXT://broker-1:9092"

test_success_cut_shortens_a_long_part if {
	rule._cut(concat("", ["a" | some _ in numbers.range(1, 50)])) == concat("", [concat("", ["a" | some _ in numbers.range(1, 40)]), "…"])
}

test_success_defaults_sentence if {
	rule._defaults_sentence([]) == ""
	rule._defaults_sentence(["linger.ms=5"]) == " linger.ms=5 is Kafka's default."
	rule._defaults_sentence(["linger.ms=5", "request.timeout.ms=30000"]) == " linger.ms=5 and request.timeout.ms=30000 are Kafka's defaults."
}
