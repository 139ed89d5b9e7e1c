# METADATA
# title: Two node configs of one cluster share a node.id
# description: |
#   Two broker or controller configurations of the same cluster use the same
#   node.id (or broker.id). Kafka identifies brokers and controllers by this
#   id alone, so the two processes claim one identity in broker
#   registration, partition replicas and the controller quorum.
# related_resources:
#   - description: Kafka docs, node.id
#     ref: https://kafka.apache.org/documentation/#brokerconfigs_node.id
#   - description: Kafka docs, broker.id
#     ref: https://kafka.apache.org/documentation/#brokerconfigs_broker.id
# schemas:
#   - input: schema.cluster
# custom:
#   id: KFK3011
#   severity: error
#   scope: all
#   applies_to: [broker, controller]
#   keys: [node.id, broker.id]
#   since: unreleased
#   fix: |
#     Give every broker and controller of the cluster its own id. A node's id
#     is also stored in its log directories' meta.properties, so change it
#     only together with them.
package kafkalint.rules.kraft["duplicate-node-id"]

import data.kafkalint.lib.cluster
import data.kafkalint.lib.result

# Every node whose id is known takes part, whatever its roles: node.id, else
# broker.id (Kafka copies one into the other). A negative id is not an id
# (a ZooKeeper-mode broker.id=-1 asks Kafka to generate one), and an id that
# is a ${provider:...} placeholder is unknown, so neither takes part. Every
# node sharing an id is reported, at its own id line, with the others'
# lines as related locations.
_parties := [party |
	some node in input.nodes
	cluster.has_id(node)
	setting := cluster.id_setting(node)
	party := {"value": node.id, "location": setting.location, "key": setting.key, "roles": _roles(node)}
]

# The parties are grouped by id once (cluster.groups), so only the nodes
# that share an id are visited per finding.
# The message counts the other nodes; the why names them (the nearest are
# also the related locations).
report contains result.explain(result.fail_nearest(party, message, cluster.near(index, party.location)), why, _fix) if {
	some g in cluster.groups(_parties)
	count(g.indexes) > 1
	members := [_parties[j] | some j in g.indexes]
	index := cluster.location_index({p.location | some p in members})
	labels := cluster.name_counts([_label(p) | some p in members])
	some party in members
	message := sprintf("%s=%d (%s) is also the id of %s", [party.key, party.value, party.roles, _others(count(members) - 1)])
	why := sprintf(
		"The same id is also set in %s. Kafka identifies brokers and controllers by this id alone (broker registration, partition replicas, the quorum's voters, meta.properties), so the processes claim one identity and cannot all run as themselves.",
		[cluster.names_except(labels, _label(party))],
	)
}

_others(1) := "another node"

_others(n) := sprintf("%d other nodes", [n]) if n > 1

_fix := "Give every broker and controller of the cluster its own id. A node's id is also stored in its log directories' meta.properties, so change it only together with them."

_label(party) := sprintf("%s (%s)", [party.location.file, party.roles])

_roles(node) := "controller" if cluster.dedicated_controller(node)

_roles(node) := "broker" if cluster.broker_only(node)

_roles(node) := "broker and controller" if cluster.role_class(node) == "combined"

_roles(node) := "ZooKeeper-mode broker" if node.mode == "zookeeper"

_roles(node) := "roles unknown" if node.mode == "unknown"
