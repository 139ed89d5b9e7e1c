# METADATA
# title: controlled.shutdown.enable is not set explicitly
# description: |
#   The broker relies on Kafka's default for controlled.shutdown.enable, so
#   nothing in the reviewed configuration records that rolling restarts depend
#   on it, and a template or override that turns it off goes unnoticed.
# related_resources:
#   - description: Kafka docs, graceful shutdown
#     ref: https://kafka.apache.org/documentation/#basic_ops_restarting
#   - description: Kafka docs, controlled.shutdown.enable
#     ref: https://kafka.apache.org/documentation/#brokerconfigs_controlled.shutdown.enable
# schemas:
#   - input: schema.cluster
# custom:
#   id: KFK4002
#   severity: warning
#   scope: production
#   applies_to: [broker]
#   keys: [controlled.shutdown.enable]
#   since: unreleased
#   fix: |
#     Add controlled.shutdown.enable=true to the broker's configuration.
package kafkalint.rules.operations["controlled-shutdown-not-explicit"]

import data.kafkalint.lib.result
import data.kafkalint.lib.settings

report contains result.missing(node, "controlled.shutdown.enable", message) if {
	some node in input.nodes
	node.is_broker
	not "controlled.shutdown.enable" in node.managed_keys # e.g. MSK: users cannot set it

	# Written with any value (a placeholder counts): an explicit false is
	# KFK4001's finding.
	not settings.explicit(node, "controlled.shutdown.enable")
	message := "controlled.shutdown.enable is not set, so the broker runs with Kafka's default (true)"
}
