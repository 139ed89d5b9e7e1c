# METADATA
# title: transaction.state.log.replication.factor is 1
# description: |
#   The __transaction_state topic is created with one replica, so losing the
#   broker that holds a partition of it stops the transactional producers
#   coordinated through that partition from starting, committing or aborting
#   transactions.
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
package kafkalint.rules.durability["transaction-state-log-replication-factor-one"]

import data.kafkalint.lib.result

report contains result.fail(setting, message) if {
	some node in input.nodes
	node.is_broker
	setting := node.settings["transaction.state.log.replication.factor"]
	setting.value == 1
	message := "transaction.state.log.replication.factor=1: __transaction_state gets a single replica, so one broker down leaves the transactional producers coordinated on its partitions unable to start, commit or abort transactions; set it to 3 (and keep transaction.state.log.min.isr at 2)"
}
