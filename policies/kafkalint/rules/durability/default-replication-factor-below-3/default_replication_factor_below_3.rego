# METADATA
# title: Automatically created topics get fewer than 3 replicas
# description: |
#   A broker of a cluster with 3 or more brokers creates topics
#   automatically (auto.create.topics.enable, true by default) with a
#   default.replication.factor below 3 (1 by default): every topic a client
#   creates by naming it gets one or two replicas, so one broker failure
#   makes it unavailable or leaves it with no spare copy, although the
#   cluster could hold three.
# related_resources:
#   - description: Kafka docs, default.replication.factor
#     ref: https://kafka.apache.org/documentation/#brokerconfigs_default.replication.factor
#   - description: Kafka docs, auto.create.topics.enable
#     ref: https://kafka.apache.org/documentation/#brokerconfigs_auto.create.topics.enable
# schemas:
#   - input: schema.cluster
# custom:
#   id: KFK1011
#   severity: warning
#   scope: production
#   applies_to: [broker]
#   keys: [default.replication.factor, auto.create.topics.enable]
#   since: unreleased
#   fix: |
#     Set default.replication.factor=3 (with min.insync.replicas=2) on every
#     broker, or set auto.create.topics.enable=false and create topics
#     deliberately with replication factor 3. Topics already created keep
#     their replicas until reassigned (kafka-reassign-partitions.sh).
package kafkalint.rules.durability["default-replication-factor-below-3"]

import data.kafkalint.lib.result
import data.kafkalint.lib.settings

# The broker that answers a metadata request creates the missing topic with
# its own auto.create.topics.enable and default.replication.factor
# (KafkaApis, AutoTopicCreationManager), so each broker-role node is checked
# with its own values, written or Kafka's default; a placeholder, or a
# default the platform manages (MSK's own defaults differ from Kafka's), is
# unknown and silent. The cluster has 3 or more brokers when a source states
# it (input.broker_count) or when it has 3 broker configs with distinct ids
# (at least that many brokers exist). The finding sits at
# default.replication.factor (the file's start when it is not set); its
# why says where automatic creation is on and where the broker count comes
# from.
report contains result.explain(result.fail_related(rf, message, related), why, _fix) if {
	_brokers >= 3
	some node in input.nodes
	node.is_broker
	auto := node.settings["auto.create.topics.enable"]
	settings.known(node, auto)
	auto.value == true
	rf := node.settings["default.replication.factor"]
	settings.known(node, rf)
	is_number(rf.value)
	rf.value > 0
	rf.value < 3
	related := sort({l | some l in array.concat(_auto_location(auto), _count_location); l != rf.location})
	message := sprintf("%s on %s: auto-created topics get %s", [settings.shown(rf), _brokers_short, _replicas(rf.value)])
	why := sprintf(
		"With %s and %s on a cluster of %s, every topic a client creates by naming it (a producer's first send, a consumer's subscription) gets %s. %s.",
		[settings.shown_unset(rf), settings.shown_unset(auto), _brokers_text, _replicas(rf.value), _cost(rf.value)],
	)
}

_fix := "Set default.replication.factor=3 (with min.insync.replicas=2), or set auto.create.topics.enable=false and create topics deliberately with replication factor 3."

_replicas(1) := "1 replica"

_replicas(2) := "2 replicas"

_cost(1) := "Restarting or losing the one broker that holds a partition makes it unavailable, and a lost disk loses its data"

_cost(2) := "One broker down leaves its partitions without a spare copy (and with min.insync.replicas=2 stops their writes)"

# _brokers is the number of brokers the cluster has at least: the count a
# source states, else its broker configs with distinct ids.
_brokers := input.broker_count.value

_brokers := count(_broker_ids) if not input.broker_count

_broker_ids := {node.id | some node in input.nodes; node.is_broker; node.id >= 0}

_brokers_text := sprintf("%d brokers (%s)", [input.broker_count.value, input.broker_count.source]) if input.broker_count

_brokers_text := sprintf("at least %d brokers (%d broker configs with distinct ids)", [count(_broker_ids), count(_broker_ids)]) if not input.broker_count

# _brokers_short is _brokers_text without the source, for the message.
_brokers_short := sprintf("%d brokers", [input.broker_count.value]) if input.broker_count

_brokers_short := sprintf("at least %d brokers", [count(_broker_ids)]) if not input.broker_count

# The related locations: where automatic creation is turned on, and where
# the broker count is stated.
_auto_location(auto) := [auto.location] if auto.source == "explicit"

_auto_location(auto) := [] if auto.source != "explicit"

_count_location := [input.broker_count.location] if input.broker_count

_count_location := [] if not input.broker_count
