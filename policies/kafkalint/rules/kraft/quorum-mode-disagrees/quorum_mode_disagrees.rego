# METADATA
# title: Nodes of one cluster mix static and dynamic quorum configuration
# description: |
#   Some nodes of the cluster set only controller.quorum.voters (a static
#   quorum, kraft.version=0) and others only
#   controller.quorum.bootstrap.servers (a dynamic quorum, kraft.version=1).
#   A cluster runs one of the two models; the files disagree about where the
#   voter set comes from, and kafka-storage format gives controllers without
#   controller.quorum.voters a dynamic quorum.
# related_resources:
#   - description: Kafka docs, static versus dynamic KRaft quorums
#     ref: https://kafka.apache.org/documentation/#static_versus_dynamic_kraft_quorums
#   - description: Kafka docs, controller.quorum.bootstrap.servers
#     ref: https://kafka.apache.org/documentation/#brokerconfigs_controller.quorum.bootstrap.servers
# schemas:
#   - input: schema.cluster
# custom:
#   id: KFK3004
#   severity: error
#   scope: all
#   applies_to: [broker, controller]
#   keys: [controller.quorum.voters, controller.quorum.bootstrap.servers]
#   since: unreleased
#   fix: |
#     Use one model on every node: controller.quorum.voters everywhere for a
#     static quorum, or only controller.quorum.bootstrap.servers for a dynamic
#     one (turning a static quorum dynamic is an upgrade, possible from Kafka
#     4.1).
package kafkalint.rules.kraft["quorum-mode-disagrees"]

import data.kafkalint.lib.cluster
import data.kafkalint.lib.result

# Nodes that set exactly one of the two keys take part (quorum.mode static or
# dynamic). A node that sets both is KFK3003's; a node whose key is a
# ${provider:...} placeholder is unknown and takes no part, and so does a
# ZooKeeper-mode node, which has no quorum (cluster.without_quorum: KFK3019
# reports its leftover key). Anchoring:
# lib/cluster.rego, odd one out.
_key := {"static": "controller.quorum.voters", "dynamic": "controller.quorum.bootstrap.servers"}

_parties := [party |
	some node in input.nodes
	not cluster.without_quorum(node)
	some mode, key in _key
	node.quorum.mode == mode
	setting := node.settings[key]
	not setting.unknown
	party := {"value": mode, "location": setting.location, "key": setting.key}
]

# The parties are analysed once, and the files of the other mode named once
# per mode, not per finding.
_d := cluster.disagreement(_parties)

_files_of := {g.value: cluster.files(_parties, {i | some i in g.indexes}) | some g in _d.groups}

_count_of := {g.value: count({_parties[i].location.file | some i in g.indexes}) | some g in _d.groups}

# The message counts the nodes of the other model; the why names their
# files (the nearest are also the related locations).
report contains result.explain(result.fail_nearest(party, message, cluster.nearest(_d, i)), why, _fix) if {
	cluster.disagree(_parties) # cheap, and most clusters agree
	some i in _d.odd
	party := _parties[i]
	other := _other[party.value]
	message := sprintf("%s alone (%s), but %s run %s", [party.key, _model[party.value], _nodes(_count_of[other]), _other_model[other]])
	why := sprintf(
		"This node sets only %s (%s), but %s set only %s (%s). A cluster runs one quorum model: its voter set comes from controller.quorum.voters (kraft.version=0) or from the metadata log (kraft.version=1), and kafka-storage format (3.9.2, 4.0.2, 4.1.1, 4.2+) gives kraft.version=1 to exactly the controllers without controller.quorum.voters, so these nodes disagree about who the voters are.",
		[party.key, _model[party.value], _files_of[other], _key[other], _model[other]],
	)
}

_fix := "Use one model on every node: controller.quorum.voters everywhere for a static quorum, or only controller.quorum.bootstrap.servers for a dynamic one (turning a static quorum dynamic is an upgrade, possible from Kafka 4.1)."

_nodes(1) := "another node"

_nodes(n) := sprintf("%d other nodes", [n]) if n > 1

_other_model := {"static": "a static one", "dynamic": "a dynamic one"}

_other := {"static": "dynamic", "dynamic": "static"}

_model := {"static": "a static quorum", "dynamic": "a dynamic quorum"}
