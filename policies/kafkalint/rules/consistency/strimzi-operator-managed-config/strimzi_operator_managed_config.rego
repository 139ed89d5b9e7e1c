# METADATA
# title: Strimzi drops a spec.kafka.config key its operator manages
# description: |
#   A Strimzi Kafka resource sets, in spec.kafka.config, a key the cluster
#   operator owns (listeners, advertised.*, listener.*, node.id,
#   process.roles, controller.*, log.dirs, ssl.* and sasl.* apart from the
#   allowed few, authorizer.*, zookeeper.connect ...). The operator removes
#   every such key before it writes the broker configuration and only logs a
#   warning, so the value a reviewer sees in the resource never takes effect.
# related_resources:
#   - description: Strimzi docs, Kafka cluster configuration (forbidden config options)
#     ref: https://strimzi.io/docs/operators/latest/configuring.html#type-KafkaClusterSpec-reference
# schemas:
#   - input: schema.cluster
# custom:
#   id: KFK6002
#   severity: warning
#   scope: all
#   applies_to: [broker, controller]
#   keys: []
#   since: unreleased
#   fix: |
#     Remove the key from spec.kafka.config and use the resource field the
#     operator reads: spec.kafka.listeners, spec.kafka.authorization,
#     spec.kafka.rack, or the KafkaNodePool resources for storage, roles
#     and node ids.
package kafkalint.rules.consistency["strimzi-operator-managed-config"]

import data.kafkalint.lib.result

# The loader applies the operator's filter (KafkaClusterSpec.FORBIDDEN_PREFIXES
# minus FORBIDDEN_PREFIX_EXCEPTIONS, compared in lower case): a dropped key is
# in node.ignored_settings, not in node.settings, so no other rule treats it
# as effective. Every node pool repeats the resource's config, and identical
# findings collapse into one.
report contains result.explain(
	result.fail(setting, sprintf("%s in spec.kafka.config is dropped: the Strimzi operator manages it", [setting.key])),
	sprintf(
		"The Strimzi cluster operator sets %s itself and removes it from spec.kafka.config before it writes the broker configuration, with only a warning in the operator's log, so the value in the resource never reaches Kafka.",
		[setting.key],
	),
	_fix(setting.key, _instead(setting.key)),
) if {
	some node in input.nodes
	some setting in node.ignored_settings
	setting.origin == "spec.kafka.config"
}

# _fix removes the key and points at where the operator takes the setting
# from, or says why nothing replaces it.
_fix(key, instead) := sprintf("Remove %s from spec.kafka.config: %s.", [key, substring(instead, 9, -1)]) if {
	startswith(instead, "nothing: ")
} else := sprintf("Remove %s from spec.kafka.config and configure %s.", [key, instead])

# _instead names where Strimzi takes the setting from, by key prefix (the
# first match in this order).
_instead_by_prefix := [
	["broker.rack", "spec.kafka.rack"],
	["advertised.", "the listener's configuration (advertisedHost, advertisedPort) in spec.kafka.listeners"],
	["listener", "spec.kafka.listeners (name, port, type, tls, authentication)"],
	["inter.broker.listener.name", "nothing: the operator runs its own replication listener"],
	["security.", "spec.kafka.listeners (tls, authentication)"],
	["host.name", "spec.kafka.listeners"],
	["port", "spec.kafka.listeners"],
	["ssl.", "spec.kafka.listeners (tls, configuration.brokerCertChainAndKey); only ssl.cipher.suites, ssl.protocol, ssl.enabled.protocols and ssl.secure.random.implementation may be set in spec.kafka.config"],
	["sasl.", "the listeners' authentication in spec.kafka.listeners"],
	["authorizer.", "spec.kafka.authorization"],
	["super.user", "spec.kafka.authorization.superUsers"],
	["metadata.log.dir", "the node pools' storage (kraftMetadata: shared)"],
	["log.dir", "the node pools' storage"],
	["node.id", "node ids on the KafkaNodePool resources (strimzi.io/next-node-ids)"],
	["process.roles", "the roles of the KafkaNodePool resources"],
	["controller.", "nothing: the operator configures the controller quorum and listener from the node pools"],
	["broker.", "nothing: the operator sets broker ids and registration itself"],
	["zookeeper.", "spec.zookeeper"],
	["cruise.control.", "spec.cruiseControl"],
	["client.quota.callback.", "spec.kafka.quotas"],
	["prometheus.metrics.reporter.", "spec.kafka.metricsConfig"],
	["cordoned.log.dirs", "nothing: the operator cordons log directories itself when it removes brokers"],
	["password.", "nothing: the operator does not pass it through"],
]

_instead(key) := hints[0] if {
	hints := [hint |
		some entry in _instead_by_prefix
		startswith(lower(key), entry[0])
		hint := entry[1]
	]
	count(hints) > 0
}

_instead(key) := "the Kafka resource's own field for it" if {
	not _has_hint(key)
}

_has_hint(key) if {
	some entry in _instead_by_prefix
	startswith(lower(key), entry[0])
}
