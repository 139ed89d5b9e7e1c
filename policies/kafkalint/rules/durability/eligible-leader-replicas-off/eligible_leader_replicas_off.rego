# METADATA
# title: min.insync.replicas set per broker while ELR takes the controllers' value
# description: |
#   With eligible leader replicas (ELR, on by default for clusters created on
#   Kafka 4.1 or later) the controllers create a cluster-level
#   min.insync.replicas from the active controller's own static value and
#   drop per-broker values. A min.insync.replicas written only in the
#   brokers' files then no longer applies, and the cluster may silently run
#   with the controllers' value (Kafka's default of 1 unless they set it), so
#   acks=all writes may be acknowledged by a single replica. No controller
#   configuration of the cluster was given to kafkalint to show that value.
# related_resources:
#   - description: Kafka docs, eligible leader replicas
#     ref: https://kafka.apache.org/documentation/#eligible_leader_replicas
#   - description: Kafka docs, min.insync.replicas
#     ref: https://kafka.apache.org/documentation/#brokerconfigs_min.insync.replicas
# schemas:
#   - input: schema.cluster
# custom:
#   id: KFK1010
#   severity: info
#   scope: production
#   applies_to: [broker]
#   keys: [min.insync.replicas]
#   since: unreleased
#   fix: |
#     Set the broker's min.insync.replicas in every controller's configuration
#     too (the value ELR uses), or set it once at cluster level with
#     kafka-configs.sh --entity-type brokers --entity-default --alter
#     --add-config min.insync.replicas=N.
package kafkalint.rules.durability["eligible-leader-replicas-off"]

import data.kafkalint.lib.result

# Fires only when none of the cluster's controller configurations were given:
# with them, a broker value that differs from the controllers' effective
# value is KFK4004's finding, and an equal one is right. A value of 1 gives
# nothing away even if the controllers keep the default.
report contains result.fail(s, message) if {
	_elr_default_on
	every n in input.nodes {
		not n.is_controller
	}
	some node in input.nodes
	node.mode == "kraft"
	node.is_broker
	not node.is_controller
	s := node.settings["min.insync.replicas"]
	s.source == "explicit"
	s.value > 1
	message := sprintf(
		"min.insync.replicas=%d on this broker: under ELR (on by default in Kafka %s) the controllers' value applies",
		[s.value, input.kafka_version],
	)
}

# ELR is on by default for clusters created on 4.1 or later.
_elr_default_on if {
	parts := split(input.kafka_version, ".")
	to_number(parts[0]) > 4
}

_elr_default_on if {
	parts := split(input.kafka_version, ".")
	to_number(parts[0]) == 4
	to_number(parts[1]) >= 1
}
