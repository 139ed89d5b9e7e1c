# METADATA
# title: Unclean leader election enabled
# description: |
#   unclean.leader.election.enable=true lets a replica that is not in sync
#   become leader when no in-sync replica is left. Kafka then truncates the
#   other replicas to the new leader's log, so records that producers had
#   written with acks=all and were told were safe are lost; the replica
#   elected this way may be far behind.
# related_resources:
#   - description: Kafka docs, unclean leader election
#     ref: https://kafka.apache.org/documentation/#design_uncleanleader
#   - description: Kafka docs, unclean.leader.election.enable
#     ref: https://kafka.apache.org/documentation/#brokerconfigs_unclean.leader.election.enable
# schemas:
#   - input: schema.cluster
# custom:
#   id: KFK1007
#   severity: error
#   scope: production
#   applies_to: [broker, controller, topic]
#   keys: [unclean.leader.election.enable]
#   since: unreleased
#   fix: |
#     Remove the line or set unclean.leader.election.enable=false (Kafka's
#     default), with min.insync.replicas=2 and replication factor 3. If
#     availability must win for a partition with no in-sync replica left,
#     recover it deliberately with kafka-leader-election.sh --election-type
#     unclean.
package kafkalint.rules.durability["unclean-leader-election-enabled"]

import data.kafkalint.lib.result

# Every node that enables it is reported: in KRaft the controllers decide
# elections, and a broker-only value that disagrees with them is KFK4004's
# concern, but the line still states an intent to trade durability away.
# The default (false) never fires; a placeholder has no value.
report contains result.fail(s, _message(s, "the cluster default")) if {
	some node in input.nodes
	s := node.settings["unclean.leader.election.enable"]
	s.value == true
}

report contains result.fail(s, _message(s, sprintf("topic %s", [topic.name]))) if {
	some topic in input.topics
	s := topic.settings["unclean.leader.election.enable"]
	s.value == true
}

_message(s, scope) := sprintf("%s=true (%s): an out-of-sync leader can lose acks=all writes", [s.key, scope])
