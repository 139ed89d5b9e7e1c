# METADATA
# title: Controlled shutdown is disabled
# description: |
#   Without controlled shutdown a stopping broker does not hand over the
#   leadership of its partitions first, so every broker stop leaves them
#   without a leader until the controller notices that the broker is gone.
# related_resources:
#   - description: Kafka docs, graceful shutdown
#     ref: https://kafka.apache.org/documentation/#basic_ops_restarting
#   - description: Kafka docs, controlled.shutdown.enable
#     ref: https://kafka.apache.org/documentation/#brokerconfigs_controlled.shutdown.enable
# schemas:
#   - input: schema.cluster
# custom:
#   id: KFK4001
#   severity: error
#   scope: production
#   applies_to: [broker]
#   keys: [controlled.shutdown.enable, controlled.shutdown.max.retries]
#   since: unreleased
#   fix: |
#     Set controlled.shutdown.enable=true (the default), or remove the line.
package kafkalint.rules.operations["controlled-shutdown-disabled"]

import data.kafkalint.lib.result

report contains result.fail(setting, message) if {
	some node in input.nodes
	node.is_broker
	setting := node.settings["controlled.shutdown.enable"]
	setting.value == false
	message := "controlled.shutdown.enable=false: a stopping broker does not hand over its partition leadership"
}

# controlled.shutdown.max.retries is ZooKeeper-only (removed in Kafka 4.0 and
# ignored by KRaft nodes).
report contains result.explain(result.fail(setting, message), _retries_why, _retries_fix) if {
	some node in input.nodes
	node.mode == "zookeeper"
	setting := node.settings["controlled.shutdown.max.retries"]
	setting.source == "explicit"
	setting.value == 0
	message := "controlled.shutdown.max.retries=0: the ZooKeeper-mode broker never attempts a controlled shutdown"
}

_retries_why := "With no attempt allowed the broker shuts down uncleanly, so the partitions it leads have no leader until the controller notices that the broker is gone."

_retries_fix := "Remove the line (the default is 3)."
