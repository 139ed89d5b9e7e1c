# METADATA
# title: ZooKeeper-mode node carries KRaft quorum keys
# description: |
#   A ZooKeeper-mode node (zookeeper.connect, no process.roles) that is not
#   migrating to KRaft sets controller.quorum.voters or
#   controller.quorum.bootstrap.servers. Kafka 3.x only checks the entries'
#   syntax and never uses them: the node has no KRaft quorum, and the line
#   describes one that does not exist (usually a leftover of a KRaft
#   template, or half of a ZooKeeper-to-KRaft migration).
# related_resources:
#   - description: Kafka docs, ZooKeeper to KRaft migration
#     ref: https://kafka.apache.org/39/documentation/#kraft_zk_migration
#   - description: Kafka docs, controller.quorum.voters
#     ref: https://kafka.apache.org/39/documentation/#brokerconfigs_controller.quorum.voters
# schemas:
#   - input: schema.cluster
# custom:
#   id: KFK3019
#   severity: warning
#   scope: all
#   applies_to: [broker]
#   keys: [controller.quorum.voters, controller.quorum.bootstrap.servers]
#   since: unreleased
#   fix: |
#     Remove it (a leftover from a KRaft template), or, if the cluster is
#     being migrated to KRaft, set zookeeper.metadata.migration.enable=true
#     and controller.listener.names on every broker as the migration guide
#     says.
package kafkalint.rules.kraft["quorum-keys-in-zookeeper-mode"]

import data.kafkalint.lib.cluster
import data.kafkalint.lib.result
import data.kafkalint.lib.version

# Kafka 3.x only: 4.0 removed ZooKeeper mode, and such a file cannot start
# there at all (KFK9007 says so); its quorum keys become live once the node
# runs KRaft. The node is cluster.without_quorum (not migrating: the quorum
# rules KFK3001 and friends skip it). A key written with a placeholder value
# is unknown and silent; a blank key is no quorum setting (quorum.mode
# counts it unset) and is left to KFK9008 and KFK9007.
# The message names the key; the why quotes its value and the version.
report contains result.explain(result.fail(s, message), why, _fix) if {
	not version.at_least(4, 0)
	some node in input.nodes
	cluster.without_quorum(node)
	some key in ["controller.quorum.voters", "controller.quorum.bootstrap.servers"]
	s := node.settings[key]
	s.source == "explicit"
	not s.unknown
	trim_space(s.raw) != ""
	message := sprintf("%s is set on a ZooKeeper-mode node, which has no KRaft quorum", [key])
	why := sprintf(
		"%s=%s is set on a ZooKeeper-mode node (zookeeper.connect set, no process.roles). Kafka %s only checks the entries' syntax and never uses them unless zookeeper.metadata.migration.enable=true, so this node has no KRaft quorum and the line describes none.",
		[key, s.raw, input.kafka_version],
	)
}

_fix := "Remove it (a leftover from a KRaft template), or, if the cluster is being migrated to KRaft, set zookeeper.metadata.migration.enable=true and controller.listener.names on every broker as the migration guide says."
