# METADATA
# title: transaction.state.log.replication.factor is 1
# description: |
#   The __transaction_state topic is created with one replica, so losing the
#   broker that holds a partition of it stops the transactional producers
#   coordinated through that partition from starting, committing or aborting
#   transactions. A rolling restart is enough.
# related_resources:
#   - description: Kafka docs, transaction.state.log.replication.factor
#     ref: https://kafka.apache.org/documentation/#brokerconfigs_transaction.state.log.replication.factor
# schemas:
#   - input: schema.cluster
# custom:
#   id: KFK1002
#   severity: warning
#   scope: production
#   applies_to: [broker]
#   keys: [transaction.state.log.replication.factor]
#   since: unreleased
#   fix: |
#     Set transaction.state.log.replication.factor=3 (Kafka's default) and
#     keep transaction.state.log.min.isr at 2. An existing __transaction_state
#     keeps its replicas: add them with kafka-reassign-partitions.sh.
package kafkalint.rules.durability["transaction-state-log-replication-factor-one"]

import data.kafkalint.lib.result

report contains result.fail(setting, message) if {
	some node in input.nodes
	node.is_broker
	setting := node.settings["transaction.state.log.replication.factor"]
	setting.value == 1
	message := "transaction.state.log.replication.factor=1: __transaction_state has a single replica"
}
