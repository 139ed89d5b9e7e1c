# METADATA
# title: Automatic leader rebalancing is disabled
# description: |
#   With auto.leader.rebalance.enable=false partition leadership stays wherever
#   failovers moved it and nothing moves it back to the preferred replicas:
#   after every rolling restart some brokers lead few partitions while the
#   others carry their produce and fetch traffic.
# related_resources:
#   - description: Kafka docs, balancing leadership
#     ref: https://kafka.apache.org/documentation/#basic_ops_leader_balancing
#   - description: Kafka docs, auto.leader.rebalance.enable
#     ref: https://kafka.apache.org/documentation/#brokerconfigs_auto.leader.rebalance.enable
# schemas:
#   - input: schema.cluster
# custom:
#   id: KFK4003
#   severity: warning
#   scope: production
#   applies_to: [broker, controller]
#   keys: [auto.leader.rebalance.enable]
#   since: unreleased
#   fix: |
#     Set auto.leader.rebalance.enable=true (the default), or run a preferred
#     leader election after every restart (kafka-leader-election.sh
#     --election-type preferred --all-topic-partitions).
package kafkalint.rules.operations["auto-leader-rebalance-disabled"]

import data.kafkalint.lib.result

# Every node: in KRaft mode the controllers' value takes effect, and a value on
# a broker-only node usually shows the intended cluster setting.
report contains result.fail(setting, message) if {
	some node in input.nodes
	setting := node.settings["auto.leader.rebalance.enable"]
	setting.value == false
	message := "auto.leader.rebalance.enable=false: leadership never returns to the preferred replicas"
}
