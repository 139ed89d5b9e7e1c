# METADATA
# title: Producer acks bypasses the cluster's min.insync.replicas
# description: |
#   A producer linked to a cluster sends with acks=0 or acks=1 while the
#   cluster (or one of its topics) sets min.insync.replicas above 1. Only
#   acks=all writes are checked against min.insync.replicas, so this
#   producer's writes are acknowledged by the leader alone (or not at all)
#   and are lost if the leader fails before its followers copy them.
# related_resources:
#   - description: Kafka docs, acks
#     ref: https://kafka.apache.org/documentation/#producerconfigs_acks
#   - description: Kafka docs, min.insync.replicas
#     ref: https://kafka.apache.org/documentation/#brokerconfigs_min.insync.replicas
# schemas:
#   - input: schema.cluster
# custom:
#   id: KFK1005
#   severity: warning
#   scope: all
#   applies_to: [producer]
#   keys: [acks, min.insync.replicas]
#   since: unreleased
#   fix: |
#     Use acks=all (the default since Kafka 3.0) for data that must survive a
#     broker failure; keep acks=0 or acks=1 only where losing records is
#     acceptable, and say so in the file.
package kafkalint.rules.durability["acks-bypasses-min-insync-replicas"]

import data.kafkalint.lib.cluster
import data.kafkalint.lib.result

# A producer is linked to a cluster when the loader groups it there (its
# bootstrap.servers names a broker of the cluster, or it shares the
# cluster's directory); a producer evaluated on its own has no nodes and no
# topics, so the rule is silent. Only an acks the file writes is checked
# (the default is all since Kafka 3.0; older clients defaulted to 1, which
# this rule cannot see). The cluster requires more than one in-sync replica
# when any of its node configs or topics sets min.insync.replicas above 1;
# unknown values (${provider:...}) never count.

# Producer files, and generic client files that may hold producer keys.
_producer_kinds := {"producer", "client"}

# _requirements are the settings that require more than one in-sync replica.
_requirements := [{"where": where, "setting": s} |
	some node in input.nodes
	s := node.settings["min.insync.replicas"]
	is_number(s.value)
	s.value > 1
	where := node.file
]

_topic_requirements := [{"where": sprintf("topic %s", [topic.name]), "setting": s} |
	some topic in input.topics
	s := topic.settings["min.insync.replicas"]
	is_number(s.value)
	s.value > 1
]

# The requirements, their locations and their text are gathered once, not
# per producer.
_all_requirements := array.concat(_requirements, _topic_requirements)

_requirement_index := cluster.location_index({r.setting.location | some r in _all_requirements})

_all_requirements_text := _requirements_text(_all_requirements)

# The message names the values only; the why says where each is set.
_all_values_text := concat(", ", [sprintf("%v", [v]) | some v in sort({r.setting.value | some r in _all_requirements})])

report contains result.explain(result.fail_nearest(acks, message, cluster.near(_requirement_index, acks.location)), why, fix) if {
	count(_all_requirements) > 0
	some client in input.clients
	client.kind in _producer_kinds
	acks := client.settings.acks
	acks.source == "explicit"
	is_string(acks.value)
	value := trim_space(acks.value)
	value in {"0", "1"}
	message := sprintf("acks=%s bypasses the cluster's min.insync.replicas=%s: %s", [value, _all_values_text, _effect[value]])
	why := sprintf(
		"Only acks=all writes are checked against min.insync.replicas, which the cluster this producer writes to sets to %s. %s, and its writes are lost if the leader fails before its followers copy them, whatever min.insync.replicas says.",
		[_all_requirements_text, _consequence[value]],
	)
	fix := sprintf(
		"Use acks=all (the default since Kafka 3.0) for data that must survive a broker failure; keep acks=%s only where losing records is acceptable, and say so in the file.",
		[value],
	)
}

_effect := {
	"0": "writes are not acknowledged at all",
	"1": "the leader alone acknowledges writes",
}

_consequence := {
	"0": "This producer does not wait for any acknowledgement (a failed write is not even reported)",
	"1": "This producer's writes are acknowledged by the partition leader alone",
}

_requirements_text(requirements) := concat("; ", [sprintf("%v (%s)", [value, result.names({r.where | some r in requirements; r.setting.value == value})]) |
	some value in sort({r.setting.value | some r in requirements})
])
