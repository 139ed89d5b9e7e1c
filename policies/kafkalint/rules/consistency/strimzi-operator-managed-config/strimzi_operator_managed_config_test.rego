package kafkalint.rules.consistency["strimzi-operator-managed-config_test"]

import data.kafkalint.lib.testing as t
import data.kafkalint.rules.consistency["strimzi-operator-managed-config"] as rule

_file := "kafka.yaml"

# _ignored is a key the loader found dropped by the operator.
_ignored(key, value, line) := object.union(t.setting(_file, key, value, line), {"origin": "spec.kafka.config"})

_pool(roles, ignored, entries) := object.union(
	t.node(_file, roles, entries),
	{"ignored_settings": ignored, "quorum": {"mode": "managed", "voters": [], "bootstrap_servers": []}},
)

# _finding is the expected finding about a dropped key, with its fix.
_finding(line, key, fix) := object.union(
	t.finding(_file, line, key, sprintf("%s in spec.kafka.config is dropped: the Strimzi operator manages it", [key])),
	{
		"why": sprintf("The Strimzi cluster operator sets %s itself and removes it from spec.kafka.config before it writes the broker configuration, with only a warning in the operator's log, so the value in the resource never reaches Kafka.", [key]),
		"fix": fix,
	},
)

test_fail_listeners_in_config if {
	node := _pool(["broker"], [_ignored("listeners", "PLAINTEXT://:9092", 31)], [])
	rule.report == {_finding(31, "listeners", "Remove listeners from spec.kafka.config and configure spec.kafka.listeners (name, port, type, tls, authentication).")} with input as t.cluster([node], [])
}

test_fail_reported_once_for_every_pool if {
	ignored := [_ignored("log.dirs", "/data", 33), _ignored("controller.quorum.voters", "1@a:9093", 34)]
	nodes := [_pool(["controller"], ignored, []), _pool(["broker"], ignored, [])]
	rule.report == {
		_finding(33, "log.dirs", "Remove log.dirs from spec.kafka.config and configure the node pools' storage."),
		_finding(34, "controller.quorum.voters", "Remove controller.quorum.voters from spec.kafka.config: the operator configures the controller quorum and listener from the node pools."),
	} with input as t.cluster(nodes, [])
}

test_fail_unlisted_prefix_gets_generic_advice if {
	node := _pool(["broker"], [_ignored("password.encoder.secret", "x", 40)], [])
	rule.report == {_finding(40, "password.encoder.secret", "Remove password.encoder.secret from spec.kafka.config: the operator does not pass it through.")} with input as t.cluster([node], [])
}

test_fail_unknown_value_still_dropped if {
	# The operator drops the key whatever its value, a placeholder included.
	dropped := object.union(t.unknown_setting(_file, "sasl.enabled.mechanisms", "${env:MECHS}", 35), {"origin": "spec.kafka.config"})
	node := _pool(["broker"], [dropped], [])
	rule.report == {_finding(35, "sasl.enabled.mechanisms", "Remove sasl.enabled.mechanisms from spec.kafka.config and configure the listeners' authentication in spec.kafka.listeners.")} with input as t.cluster([node], [])
}

test_success_allowed_config if {
	node := _pool(["broker"], [], [["min.insync.replicas", 2, 30], ["ssl.cipher.suites", "TLS_AES_256_GCM_SHA384", 31]])
	count(rule.report) == 0 with input as t.cluster([node], [])
}

test_success_key_absent if {
	node := t.node("server.properties", ["broker"], [["listeners", "PLAINTEXT://:9092", 2]])
	count(rule.report) == 0 with input as t.cluster([node], [])
}

test_success_other_origin_ignored if {
	other := object.union(t.setting(_file, "listeners", "x", 3), {"origin": "elsewhere"})
	node := _pool(["broker"], [other], [])
	count(rule.report) == 0 with input as t.cluster([node], [])
}

test_instead_generic if {
	rule._instead("made.up.key") == "the Kafka resource's own field for it"
}

# Built with the loader (kafkalint.parse), not fixtures: a Kafka resource writes listeners, which the operator sets itself.
test_loader_strimzi_operator_managed_config if {
	reports := rule.report with input as kafkalint.parse("", "prod/kafka.yaml", `apiVersion: kafka.strimzi.io/v1beta2
kind: Kafka
metadata:
  name: orders
spec:
  kafka:
    version: 4.0.0
    listeners:
      - name: tls
        port: 9093
        type: internal
        tls: true
    config:
      listeners: PLAINTEXT://:9092
`)
	{[f.location.file, f.location.line, object.get(f, "key", "")] | some f in reports} == {["prod/kafka.yaml", 14, "listeners"]}
}
