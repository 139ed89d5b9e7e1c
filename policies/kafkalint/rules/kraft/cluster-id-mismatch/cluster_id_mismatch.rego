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
#   fix: |
#     Format every log directory of the cluster with the cluster's one id
#     (kafka-storage format --cluster-id, the same value everywhere): reformat
#     an odd directory. Keep the node.id stored in meta.properties equal to
#     the node's configured id.
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
	party := {"value": trim_space(setting.value), "location": setting.location, "key": setting.key}
]

# The parties are analysed once, and the files and values of the parties
# that differ from each value are named once per value, not per finding.
_d := cluster.disagreement(_parties)

_differing := {v: {
	"files": cluster.files(_parties, others),
	"count": count({_parties[j].location.file | some j in others}),
	"values": result.names({_parties[j].value | some j in others}),
} |
	some g in _d.groups
	v := g.value
	others := {j | some h in _d.groups; h.value != v; some j in h.indexes}
}

# The message names the odd value; the why names the others and their
# files (the nearest are also the related locations).
report contains result.explain(result.fail_nearest(party, message, cluster.nearest(_d, i)), why, fix) if {
	cluster.disagree(_parties) # cheap, and most clusters agree
	some i in _d.odd
	party := _parties[i]
	differing := _differing[party.value]
	message := sprintf("cluster.id=%s differs from %s", [party.value, _other_metas(differing.count)])
	why := sprintf(
		"Every log directory of every node of a cluster must be formatted with one cluster id, but %s name cluster.id %s. A node whose directories disagree refuses to start (\"Invalid cluster.id in: ...\"), and a node formatted with another cluster's id is not a member of this cluster.",
		[differing.files, differing.values],
	)
	fix := "Reformat the odd directory with the cluster's id (kafka-storage format --cluster-id, the same value everywhere; it holds no data of this cluster), or check that these files really belong together."
}

# node.id (broker.id in a version 0 file) against the node config the
# meta.properties belongs to (node_file, set by the loader when certain).
report contains result.explain(result.fail_related(stored, message, [config_id.location]), why, fix) if {
	some meta in input.meta
	meta.node_file != ""
	some node in input.nodes
	node.file == meta.node_file
	cluster.has_id(node)
	stored := _stored_id(meta)
	stored.value != node.id
	config_id := cluster.id_setting(node)
	message := sprintf("%s=%d differs from the configured %s=%d: Kafka refuses to start the node", [stored.key, stored.value, config_id.key, node.id])
	why := sprintf(
		"This meta.properties stores %s=%d, and its node config %s sets %s=%d. Kafka compares the id stored in every log directory with the configured one and refuses to start the node (\"... If you moved your data, make sure your configured node id matches ...\").",
		[stored.key, stored.value, node.file, config_id.key, node.id],
	)
	fix := sprintf(
		"If the directory moved here from another node, give this node its old id %d back or reformat the directory; otherwise correct %s in %s.",
		[stored.value, config_id.key, node.file],
	)
}

_other_metas(1) := "another meta.properties"

_other_metas(n) := sprintf("%d other meta.properties", [n]) if n > 1

_stored_id(meta) := s if {
	s := meta.settings["node.id"]
	is_number(s.value)
} else := s if {
	s := meta.settings["broker.id"]
	is_number(s.value)
}
