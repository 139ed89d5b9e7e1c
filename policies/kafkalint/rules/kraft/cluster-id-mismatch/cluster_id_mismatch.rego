# METADATA
# title: meta.properties disagree on cluster.id or node.id
# description: |
#   The meta.properties files of one cluster's log directories name different
#   cluster.id values, or a meta.properties names a node.id other than the
#   one its node config sets. Every directory of every node must be formatted
#   with the cluster's one id, and a node refuses to start when its stored
#   node.id differs from its configured one.
# related_resources:
#   - description: Kafka docs, KRaft provisioning (kafka-storage format)
#     ref: https://kafka.apache.org/documentation/#kraft_storage
#   - description: Kafka docs, node.id
#     ref: https://kafka.apache.org/documentation/#brokerconfigs_node.id
# schemas:
#   - input: schema.cluster
# custom:
#   id: KFK3017
#   severity: error
#   scope: all
#   applies_to: [meta]
#   keys: [cluster.id, node.id, broker.id]
#   since: unreleased
package kafkalint.rules.kraft["cluster-id-mismatch"]

import data.kafkalint.lib.cluster
import data.kafkalint.lib.result

# cluster.id: every meta.properties of the cluster that writes one takes
# part. Anchoring: lib/cluster.rego, odd one out.
_parties := [party |
	some meta in input.meta
	setting := meta.settings["cluster.id"]
	not setting.unknown
	is_string(setting.value)
	trim_space(setting.value) != ""
	party := {"value": trim_space(setting.value), "location": setting.location, "setting": setting}
]

# The parties are analysed once, and the files and values of the parties
# that differ from each value are named once per value, not per finding.
_d := cluster.disagreement(_parties)

_differing := {v: {"files": cluster.files(_parties, others), "values": result.names({_parties[j].value | some j in others})} |
	some g in _d.groups
	v := g.value
	others := {j | some h in _d.groups; h.value != v; some j in h.indexes}
}

report contains result.fail_nearest(party.setting, message, cluster.nearest(_d, i)) if {
	cluster.disagree(_parties) # cheap, and most clusters agree
	some i in _d.odd
	party := _parties[i]
	differing := _differing[party.value]
	message := sprintf(
		"cluster.id=%s differs from the cluster.id of %s (%s): every log directory of every node of a cluster must be formatted with one cluster id (kafka-storage format --cluster-id, the same value everywhere); a node whose directories disagree refuses to start (\"Invalid cluster.id in: ...\"), and a node formatted with another cluster's id is not a member of this cluster; reformat the odd directory with the cluster's id (it holds no data of this cluster) or check that these files really belong together",
		[party.value, differing.files, differing.values],
	)
}

# node.id (broker.id in a version 0 file) against the node config the
# meta.properties belongs to (node_file, set by the loader when certain).
report contains result.fail_related(stored, message, [cluster.id_setting(node).location]) if {
	some meta in input.meta
	meta.node_file != ""
	some node in input.nodes
	node.file == meta.node_file
	cluster.has_id(node)
	stored := _stored_id(meta)
	stored.value != node.id
	message := sprintf(
		"%s=%d in this meta.properties differs from the id %d that its node config %s sets: Kafka compares the id stored in every log directory with the configured one and refuses to start the node (\"... If you moved your data, make sure your configured node id matches ...\"); if the directory moved here from another node, give this node its old id back or reformat the directory, otherwise correct %s in the config",
		[stored.key, stored.value, node.id, node.file, cluster.id_setting(node).key],
	)
}

_stored_id(meta) := s if {
	s := meta.settings["node.id"]
	is_number(s.value)
} else := s if {
	s := meta.settings["broker.id"]
	is_number(s.value)
}
