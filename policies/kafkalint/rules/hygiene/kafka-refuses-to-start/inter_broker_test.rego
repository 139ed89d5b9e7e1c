package kafkalint.rules.hygiene["kafka-refuses-to-start_test"]

import data.kafkalint.lib.testing as t

# Tests of inter_broker.rego.

test_fail_both_inter_broker_keys if {
	node := t.with_setting(
		t.with_setting(_broker, t.setting(_f, "inter.broker.listener.name", "PLAINTEXT", 6)),
		t.setting(_f, "security.inter.broker.protocol", "PLAINTEXT", 7),
	)
	_refuses(_at("4.3", [node]), 6, "inter.broker.listener.name", "inter.broker.listener.name and security.inter.broker.protocol (line 7) are both set", "(\"Only one of inter.broker.listener.name and security.inter.broker.protocol should be set.\")")
}

test_fail_inter_broker_listener_unmapped if {
	node := t.with_setting(_broker, t.setting(_f, "inter.broker.listener.name", "REPLICATION", 6))
	_refuses(_at("4.3", [node]), 6, "inter.broker.listener.name", "inter.broker.listener.name=REPLICATION has no security protocol", "(\"Listener with name REPLICATION defined in inter.broker.listener.name not found in listener.security.protocol.map.\")")
}

test_fail_custom_listener_names_without_inter_broker_listener if {
	c := _at("4.3", [_custom_names])
	_refuses(c, 3, "listeners", "inter-broker listener PLAINTEXT (from security.inter.broker.protocol) is not advertised", "inter.broker.listener.name is not set, so the inter-broker listener is the one named after security.inter.broker.protocol=PLAINTEXT, which this broker does not advertise (it advertises EXTERNAL, INTERNAL). Kafka 4.3 refuses to start (\"inter.broker.listener.name must be a listener name defined in advertised.listeners. The valid options based on currently configured listeners are EXTERNAL,INTERNAL\").")
	some f in _reports(c)
	f.fix == "Set inter.broker.listener.name to one of EXTERNAL, INTERNAL."
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
	c := _at("4.3", [node])
	_refuses(c, 6, "inter.broker.listener.name", "inter.broker.listener.name=INTERNAL is not advertised by this broker", "inter.broker.listener.name=INTERNAL names the inter-broker listener, which this broker does not advertise (it advertises EXTERNAL)")
	some f in _reports(c)
	f.fix == "Set inter.broker.listener.name to EXTERNAL."
}

# --- SASL inter-broker mechanism

_sasl_broker := object.union(
	_with(_quorum_broker, [["security.inter.broker.protocol", "SASL_SSL", 8]]),
	{"listeners": [t.listener(_f, 4, "SASL_SSL://localhost:9092", "SASL_SSL")]},
)

test_fail_sasl_mechanism_not_enabled if {
	c := _at("4.3", [_with(_sasl_broker, [["sasl.enabled.mechanisms", "PLAIN", 9], ["sasl.mechanism.inter.broker.protocol", "SCRAM-SHA-512", 10]])])
	_refuses(c, 10, "sasl.mechanism.inter.broker.protocol", "sasl.mechanism.inter.broker.protocol=SCRAM-SHA-512 is not enabled on listener SASL_SSL", "The inter-broker listener SASL_SSL enables only PLAIN (sasl.enabled.mechanisms at line 9), and brokers authenticate to each other with SCRAM-SHA-512. Kafka 4.3 refuses to start (\"sasl.mechanism.inter.broker.protocol must be included in sasl.enabled.mechanisms when SASL is used for inter-broker communication\").")
	some f in _reports(c)
	f.fix == "Add SCRAM-SHA-512 to sasl.enabled.mechanisms, or set sasl.mechanism.inter.broker.protocol to a mechanism it enables."
}

test_fail_sasl_default_gssapi_not_enabled if {
	_refuses(_at("4.3", [_with(_sasl_broker, [["sasl.enabled.mechanisms", "PLAIN", 9]])]), 9, "sasl.enabled.mechanisms", "sasl.mechanism.inter.broker.protocol=GSSAPI (Kafka's default) is not enabled on listener SASL_SSL", "must be included in sasl.enabled.mechanisms")
}

test_fail_sasl_listener_override_wins if {
	c := _at("4.3", [_with(_sasl_broker, [
		["sasl.enabled.mechanisms", "PLAIN,SCRAM-SHA-512", 9],
		["listener.name.sasl_ssl.sasl.enabled.mechanisms", "PLAIN", 11],
		["sasl.mechanism.inter.broker.protocol", "SCRAM-SHA-512", 10],
	])])
	_refuses(c, 10, "sasl.mechanism.inter.broker.protocol", "is not enabled on listener SASL_SSL", "enables only PLAIN (listener override at line 11)")
	some f in _reports(c)
	f.fix == "Add SCRAM-SHA-512 to listener.name.sasl_ssl.sasl.enabled.mechanisms, or set sasl.mechanism.inter.broker.protocol to a mechanism it enables."
}

test_success_sasl_mechanism_enabled if {
	_silent(_at("4.3", [_with(_sasl_broker, [["sasl.enabled.mechanisms", "PLAIN,SCRAM-SHA-512", 9], ["sasl.mechanism.inter.broker.protocol", "SCRAM-SHA-512", 10]])]))
}

test_success_sasl_keys_absent if _silent(_at("4.3", [_sasl_broker]))

test_success_sasl_placeholder if {
	_silent(_at("4.3", [_unknown(_with(_sasl_broker, [["sasl.mechanism.inter.broker.protocol", "SCRAM-SHA-512", 10]]), "sasl.enabled.mechanisms", 9)]))
}

test_success_sasl_not_used_between_brokers if {
	_silent(_at("4.3", [_with(_quorum_broker, [["sasl.enabled.mechanisms", "PLAIN", 9], ["sasl.mechanism.inter.broker.protocol", "SCRAM-SHA-512", 10]])]))
}
