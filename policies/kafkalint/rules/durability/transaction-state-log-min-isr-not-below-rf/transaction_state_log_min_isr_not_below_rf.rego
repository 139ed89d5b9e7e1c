# METADATA
# title: transaction.state.log.min.isr is not below its replication factor
# description: |
#   __transaction_state is created with min.insync.replicas set to
#   transaction.state.log.min.isr and written with acks=all. When that is
#   not below transaction.state.log.replication.factor, a single broker down
#   (a rolling restart) stops every transactional producer and
#   exactly-once application from beginning or committing transactions.
# related_resources:
#   - description: Kafka docs, transaction.state.log.min.isr
#     ref: https://kafka.apache.org/documentation/#brokerconfigs_transaction.state.log.min.isr
#   - description: Kafka docs, transaction.state.log.replication.factor
#     ref: https://kafka.apache.org/documentation/#brokerconfigs_transaction.state.log.replication.factor
# schemas:
#   - input: schema.cluster
# custom:
#   id: KFK1009
#   severity: warning
#   scope: all
#   applies_to: [broker]
#   keys: [transaction.state.log.min.isr, transaction.state.log.replication.factor]
#   since: unreleased
#   fix: |
#     Set transaction.state.log.min.isr to the replication factor minus one
#     (2 with the default replication factor 3). An existing
#     __transaction_state keeps its min.insync.replicas: change it with
#     kafka-configs.sh --entity-type topics --entity-name __transaction_state.
package kafkalint.rules.durability["transaction-state-log-min-isr-not-below-rf"]

import data.kafkalint.lib.result
import data.kafkalint.lib.settings
import data.kafkalint.lib.version

# Brokers create __transaction_state (a controller-only node's values are
# never used for it). A replication factor of 1 has no fault tolerance to
# lose and is KFK1002's finding. Kafka's defaults (min ISR 2, RF 3) never
# fire; a placeholder has no value.
# The consequence depends on the values and the version, so each finding
# brings its own why, quoting both settings in full.
report contains result.explain(result.fail(anchor, message), why, fix) if {
	some node in input.nodes
	node.is_broker
	min_isr := node.settings["transaction.state.log.min.isr"]
	rf := node.settings["transaction.state.log.replication.factor"]
	rf.value > 1
	min_isr.value >= rf.value
	some anchor in _anchor(min_isr, rf)
	message := sprintf(
		"%s with replication factor %d%s: %s",
		[settings.shown(min_isr), rf.value, settings.default_note(rf), _effect(min_isr, rf)],
	)
	why := sprintf(
		"__transaction_state is created with min.insync.replicas set to transaction.state.log.min.isr and written with acks=all. With %s and %s, %s.",
		[settings.shown(min_isr), settings.shown(rf), _consequence(min_isr, rf)],
	)
	fix := sprintf(
		"Set transaction.state.log.min.isr to %d or less. An existing __transaction_state keeps its min.insync.replicas: change it with kafka-configs.sh --entity-type topics --entity-name __transaction_state.",
		[rf.value - 1],
	)
}

# Anchored at the min ISR when the file writes it, else at the RF.
_anchor(min_isr, _) := [min_isr] if min_isr.source == "explicit"

_anchor(min_isr, rf) := [rf] if {
	min_isr.source != "explicit"
	rf.source == "explicit"
}

# _effect is _consequence in a few words, for the message.
_effect(min_isr, rf) := "no transaction can commit" if {
	min_isr.value > rf.value
	not version.at_least(3, 7)
} else := "one broker down stops transactions"

_one_down := "so one broker down (a rolling restart) leaves transactional producers and exactly-once applications unable to begin or commit transactions until it is back"

_consequence(min_isr, rf) := sprintf("writes to __transaction_state need every replica in sync, %s", [_one_down]) if min_isr.value == rf.value

_consequence(min_isr, rf) := sprintf("writes to __transaction_state need more in-sync replicas than the %d that exist; Kafka %s caps the requirement at the replica count (since 3.7), %s", [rf.value, input.kafka_version, _one_down]) if {
	min_isr.value > rf.value
	version.at_least(3, 7)
}

_consequence(min_isr, rf) := sprintf("writes to __transaction_state need more in-sync replicas than the %d that exist, and Kafka %s (before 3.7) rejects every such write, so no transaction can ever commit", [rf.value, input.kafka_version]) if {
	min_isr.value > rf.value
	not version.at_least(3, 7)
}
