# METADATA
# title: Automatic topic creation on in production
# description: |
#   auto.create.topics.enable is true (Kafka's default): a producer or
#   consumer that names a topic that does not exist (a typo, a stale
#   service, a metadata request) creates it with the broker defaults
#   num.partitions and default.replication.factor, outside any review and
#   often with replication factor 1.
# related_resources:
#   - description: Kafka docs, auto.create.topics.enable
#     ref: https://kafka.apache.org/documentation/#brokerconfigs_auto.create.topics.enable
# schemas:
#   - input: schema.cluster
# custom:
#   id: KFK2004
#   severity: info
#   scope: production
#   applies_to: [broker]
#   keys: [auto.create.topics.enable]
#   since: unreleased
#   fix: |
#     Set auto.create.topics.enable=false and create topics deliberately
#     (kafka-topics.sh, Terraform, Strimzi KafkaTopic).
package kafkalint.rules.security["auto-create-topics-in-production"]

import data.kafkalint.lib.result

# Brokers create the topics (a controller-only node's value is unused).
# Kafka's default counts, unless the platform manages the key (MSK's own
# default is false). A placeholder has no value.
report contains result.fail(s, _message(s)) if {
	some node in input.nodes
	node.is_broker
	s := node.settings["auto.create.topics.enable"]
	s.value == true
	_not_platform_default(node, s)
}

_not_platform_default(_, s) if s.source == "explicit"

_not_platform_default(node, s) if {
	s.source == "default"
	not "auto.create.topics.enable" in node.managed_keys
}

_message(s) := "auto.create.topics.enable=true: clients create any missing topic they name" if s.source == "explicit"

_message(s) := "auto.create.topics.enable is not set: Kafka's default (true) lets clients create missing topics" if s.source != "explicit"
