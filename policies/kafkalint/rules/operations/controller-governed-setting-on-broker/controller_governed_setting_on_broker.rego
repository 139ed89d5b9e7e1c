# METADATA
# title: Broker sets a value the KRaft controllers govern
# description: |
#   The cluster has dedicated KRaft controllers, and a broker-only node sets
#   a setting the active controller governs (unclean leader election, leader
#   rebalancing, min.insync.replicas, default.replication.factor) to a value
#   other than the controllers' own (written or Kafka's default). The
#   broker's value does not drive what the operator set it for.
# related_resources:
#   - description: Kafka docs, unclean.leader.election.enable
#     ref: https://kafka.apache.org/documentation/#brokerconfigs_unclean.leader.election.enable
#   - description: Kafka docs, eligible leader replicas
#     ref: https://kafka.apache.org/documentation/#eligible_leader_replicas
# schemas:
#   - input: schema.cluster
# custom:
#   id: KFK4004
#   severity: warning
#   scope: all
#   applies_to: [broker, controller]
#   keys:
#     - unclean.leader.election.enable
#     - auto.leader.rebalance.enable
#     - leader.imbalance.check.interval.seconds
#     - min.insync.replicas
#     - default.replication.factor
#   since: unreleased
#   fix: |
#     Set the value on the controllers, where the active controller reads it,
#     and give the brokers the same value or remove it from them.
package kafkalint.rules.operations["controller-governed-setting-on-broker"]

import data.kafkalint.lib.cluster
import data.kafkalint.lib.result

# The controllers' effective value is the one value every dedicated
# controller config of the cluster has, written or Kafka's default; when a
# controller's value is unknown (${provider:...}) or the controllers
# disagree (KFK6001), there is no such value and the rule is silent. Only a
# value the broker writes is reported: a broker that leaves the key alone
# has nothing to remove.
_governed := [
	"unclean.leader.election.enable",
	"auto.leader.rebalance.enable",
	"leader.imbalance.check.interval.seconds",
	"min.insync.replicas",
	"default.replication.factor",
]

# _controllers are the dedicated controllers' indexes in input.nodes (a list
# of the nodes themselves would copy each node whole for the compiled
# engine, policies/lazyinput.go).
_controllers := [i | some i, node in input.nodes; cluster.dedicated_controller(node)]

# The controllers' locations per key and their files are gathered once, not
# per broker: a cluster of copied configs can have hundreds of each.
_controller_index := {key: cluster.location_index({input.nodes[i].settings[key].location | some i in _controllers}) | some key in _governed}

_controller_files := result.names({input.nodes[i].file | some i in _controllers})

report contains result.explain(result.fail_nearest(setting, message, cluster.near(_controller_index[key], setting.location)), why, _fix(key)) if {
	count(_controllers) > 0
	some key in _governed
	not _managed(key)
	values := {v | some i in _controllers; v := _known(input.nodes[i].settings[key])}
	count(values) == 1
	every i in _controllers {
		_has_value(input.nodes[i].settings[key])
	}
	some controller_value in values
	some node in input.nodes
	cluster.broker_only(node)
	setting := node.settings[key]
	setting.source == "explicit"
	broker_value := _known(setting)
	broker_value != controller_value
	message := sprintf("%s=%v on this broker, but the controllers use %s", [key, broker_value, _controller_text(key, controller_value)])
	why := sprintf(
		"The controllers (%s) use %s. %s",
		[_controller_files, _controller_why(key, controller_value), _why(key, broker_value, controller_value)],
	)
}

# A key the platform sets itself (managed_keys) on any node is not what the
# files show.
_managed(key) if {
	some node in input.nodes
	key in node.managed_keys
}

_known(setting) := setting.value if _has_value(setting)

_has_value(setting) if not is_null(object.get(setting, "value", null))

_controller_text(key, value) := sprintf("%v (Kafka's default)", [value]) if {
	_controllers_default(key)
} else := sprintf("%v", [value])

_controller_why(key, value) := sprintf("%v (Kafka's default, not set in their files)", [value]) if {
	_controllers_default(key)
} else := sprintf("%v", [value])

_controllers_default(key) if {
	every i in _controllers {
		input.nodes[i].settings[key].source == "default"
	}
}

_why("unclean.leader.election.enable", _, _) := "In KRaft mode the active controller decides leader elections and resolves this setting from the topic, the dynamic configs and then its own static config, so the broker's value has no effect."

_why("auto.leader.rebalance.enable", _, _) := "In KRaft mode the controller runs the preferred-leader rebalance with its own settings, so the broker's value has no effect."

_why("leader.imbalance.check.interval.seconds", _, _) := "In KRaft mode the controller schedules the leader imbalance check with its own settings, so the broker's value has no effect."

_why("min.insync.replicas", _, _) := "The active controller resolves min.insync.replicas from its own static config, and with eligible leader replicas (ELR, on by default for clusters created on Kafka 4.1 or later) it creates the cluster-level value from it, which overrides the brokers' static values, so durability is not what the brokers' files say."

_why("default.replication.factor", broker_value, controller_value) := sprintf(
	"Topics created through the Admin API or kafka-topics.sh without a replication factor get the active controller's value, so they get %v replica(s), not %v (only auto-created topics use the broker's value).",
	[controller_value, broker_value],
)

_fix("unclean.leader.election.enable") := "Set it on the controllers (or as a dynamic cluster-wide config with kafka-configs.sh) and remove it from the brokers."

_fix("auto.leader.rebalance.enable") := "Set it on the controllers and remove it from the brokers."

_fix("leader.imbalance.check.interval.seconds") := "Set it on the controllers and remove it from the brokers."

_fix("min.insync.replicas") := "Set the same value on controllers and brokers."

_fix("default.replication.factor") := "Set the same value on the controllers."
