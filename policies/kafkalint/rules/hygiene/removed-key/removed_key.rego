# METADATA
# title: Key removed from the cluster's Kafka version
# description: |
#   The key was defined by an older Kafka release and no longer is in the
#   cluster's version (ZooKeeper settings, controlled.shutdown.max.retries,
#   inter.broker.protocol.version and the other keys Kafka 4.0 dropped).
#   Kafka ignores it silently, so whatever it was meant to do does not happen.
# related_resources:
#   - description: Kafka docs, removed ZooKeeper-related configurations (zk2kraft)
#     ref: https://kafka.apache.org/documentation/#zk2kraft-config
#   - description: Kafka docs, upgrading to 4.0
#     ref: https://kafka.apache.org/documentation/#upgrade_4_0_0
# schemas:
#   - input: schema.cluster
# custom:
#   id: KFK9006
#   severity: warning
#   scope: all
#   applies_to: [broker, controller, producer, consumer, admin, client, topic, mirrormaker]
#   keys: []
#   since: unreleased
#   fix: |
#     Remove the line. If the key configured something that still matters, use
#     its replacement in the cluster's Kafka version (see the rule's page).
package kafkalint.rules.hygiene["removed-key"]

import data.kafkalint.lib.result

# A ZooKeeper-mode node (no process.roles) on 4.0+ cannot start at all: that
# one cause is reported by kafka-refuses-to-start, and its leftover
# ZooKeeper keys are not reported again one by one. A placeholder value
# does not matter: the key itself is gone. A unit's removed keys are among
# its flagged_keys: the rule reads those settings, not every one.
report contains _finding(s) if {
	some node in input.nodes
	not _zookeeper_node_on_4(node)
	some key in node.flagged_keys
	s := node.settings[key]
	s.key_status == "removed"
}

report contains _finding(s) if {
	some kind in ["clients", "mirror_makers", "topics"] # each list in place, not copied (policies/lazyinput.go)
	some unit in input[kind]
	some key in unit.flagged_keys
	s := unit.settings[key]
	s.key_status == "removed"
}

_zookeeper_node_on_4(node) if {
	node.mode == "zookeeper"
	to_number(split(input.kafka_version, ".")[0]) >= 4
}

_message(s) := sprintf("%s no longer exists in Kafka %s (last defined in %s)", [s.key, input.kafka_version, s.removed_after])

# A ZooKeeper key went with ZooKeeper mode: there is nothing to replace it
# with on a KRaft node, only the line to delete.
_finding(s) := result.explain(
	result.fail(s, _message(s)),
	"ZooKeeper mode was removed in Kafka 4.0, and with it every ZooKeeper setting: Kafka ignores the key silently, so whatever it was meant to do does not happen.",
	"Remove the line: a KRaft node reaches its controllers through the quorum settings.",
) if startswith(s.key, "zookeeper.")

_finding(s) := result.fail(s, _message(s)) if not startswith(s.key, "zookeeper.")
