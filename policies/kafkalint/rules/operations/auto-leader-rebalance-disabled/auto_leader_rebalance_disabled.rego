# METADATA
# title: Automatic leader rebalancing is disabled
# description: |
#   With auto.leader.rebalance.enable=false partition leadership stays wherever
#   failovers moved it, so after every rolling restart a few brokers carry the
#   produce and fetch traffic of partitions they do not prefer to lead.
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
package kafkalint.rules.operations["auto-leader-rebalance-disabled"]

import data.kafkalint.lib.result

# Every node: in KRaft mode the controllers' value takes effect, and a value on
# a broker-only node usually shows the intended cluster setting.
report contains result.fail(setting, message) if {
	some node in input.nodes
	setting := node.settings["auto.leader.rebalance.enable"]
	setting.value == false
	message := "auto.leader.rebalance.enable=false: partition leadership stays wherever failovers moved it, so after a rolling restart some brokers lead few partitions while the others carry their traffic; set it to true (the default), or run a preferred leader election after every restart"
}
