# METADATA
# title: Nodes of one cluster list different static voter sets
# description: |
#   Two nodes of one cluster set controller.quorum.voters to different voter
#   sets (different ids, or a different host:port for an id). Kafka checks
#   nothing across nodes: every broker and controller uses its own list to
#   find the leader and, on controllers, to count votes, so nodes with
#   different lists can fail to elect or to reach the leader.
# related_resources:
#   - description: Kafka docs, controller.quorum.voters
#     ref: https://kafka.apache.org/documentation/#brokerconfigs_controller.quorum.voters
#   - description: Kafka docs, KRaft controllers
#     ref: https://kafka.apache.org/documentation/#kraft_voter
# schemas:
#   - input: schema.cluster
# custom:
#   id: KFK3010
#   severity: error
#   scope: all
#   applies_to: [broker, controller]
#   keys: [controller.quorum.voters]
#   since: unreleased
#   fix: |
#     Decide on the real voters and copy one voter list to every node of the
#     cluster.
package kafkalint.rules.kraft["voter-sets-disagree"]

import data.kafkalint.lib.cluster
import data.kafkalint.lib.result

# Every node that states a complete static voter set takes part, whatever its
# roles (but a ZooKeeper-mode node's leftover list, cluster.without_quorum:
# KFK3019); the set is compared as Kafka reads it (ids and endpoints, order and
# repeated entries do not matter, hosts compare case-insensitively). A node
# whose list is unknown (${provider:...}) or has a malformed entry (KFK3007)
# takes no part. Anchoring: lib/cluster.rego, odd one out.
_parties := [party |
	some node in input.nodes
	not cluster.without_quorum(node)
	setting := node.settings["controller.quorum.voters"]
	not setting.unknown
	voters := cluster.voter_map(node)
	party := {"value": voters, "location": setting.location, "key": setting.key, "raw": setting.raw}
]

# The parties are analysed once, and the majority's files named once.
_d := cluster.disagreement(_parties)

# The message says how the set differs, briefly; the why quotes it, the
# other set and the other files (the nearest are also the related
# locations).
report contains result.explain(result.fail_nearest(party, text.message, cluster.nearest(_d, i)), text.why, text.fix) if {
	cluster.disagree(_parties) # cheap, and most clusters agree
	some i in _d.odd
	party := _parties[i]
	text := _text(party, i)
}

_cross := "Kafka checks nothing across nodes: each broker and controller finds the leader and each controller counts votes with its own list"

_text(party, _) := {
	"message": sprintf("controller.quorum.voters differs from %s: it %s", [_majority_size, _short_difference(party.value, reference)]),
	"why": sprintf(
		"controller.quorum.voters=%s differs from the voter set %s that %s (%s) list: it %s. %s, so this node can fail to reach the leader or the controllers can fail to agree on a majority.",
		[party.raw, cluster.voter_text(reference), _majority_size, _majority_files, _difference(party.value, reference), _cross],
	),
	"fix": "Copy one voter list to every node of the cluster.",
} if {
	reference := _d.majority[0].value
}

_text(party, i) := {
	"message": sprintf("controller.quorum.voters is one of %d different voter sets, none listed by a majority of the nodes", [count(_d.groups)]),
	"why": sprintf(
		"controller.quorum.voters=%s is one of %d different voter sets listed by the nodes of this cluster (also in %s), and no set is listed by a majority of them. %s, so nodes can fail to reach the leader or the controllers can fail to agree on a majority.",
		[party.raw, count(_d.groups), cluster.other_files(_d, i), _cross],
	),
	"fix": "Decide on the real voters and copy one voter list to every node of the cluster.",
} if {
	count(_d.majority) == 0
}

_majority_indexes := {i | some i in _d.majority[0].indexes}

_majority_files := cluster.files(_parties, _majority_indexes)

_majority_size := "the other node" if count(_majority_indexes) == 1

_majority_size := sprintf("the other %d nodes", [count(_majority_indexes)]) if count(_majority_indexes) > 1

# _difference describes how a voter set differs from the reference set.
_difference(own, reference) := concat(", ", [d |
	some d in [
		_extra(own, reference),
		_missing(own, reference),
		_moved(own, reference),
	]
	d != ""
])

_extra(own, reference) := sprintf("lists voter %s", [_ids_text(ids)]) if {
	ids := {id | some id, _ in own; not reference[id]}
	count(ids) > 0
} else := ""

_missing(own, reference) := sprintf("omits voter %s", [_ids_text(ids)]) if {
	ids := {id | some id, _ in reference; not own[id]}
	count(ids) > 0
} else := ""

_moved(own, reference) := concat(", ", [sprintf("gives voter %d as %s:%d instead of %s:%d", [id, own[id].host, own[id].port, reference[id].host, reference[id].port]) |
	some id in sort(object.keys(own))
	reference[id]
	own[id] != reference[id]
])

_ids_text(ids) := concat(", ", [sprintf("%d", [id]) | some id in sort(ids)])

# _short_difference is _difference for the message: the ids that differ,
# a few of each kind (_ids_capped), or only their count when that is still too
# long for the message.
_short_difference(own, reference) := d if {
	d := concat(", ", [p |
		some p in [
			_kind("lists voter", {id | some id, _ in own; not reference[id]}),
			_kind("omits voter", {id | some id, _ in reference; not own[id]}),
			_kind("gives another endpoint to voter", {id | some id, v in own; reference[id]; v != reference[id]}),
		]
		p != ""
	])
	count(d) <= 55
} else := sprintf("disagrees on %d voters", [count(_differing_ids(own, reference))])

_differing_ids(own, reference) := {id | some id, v in own; object.get(reference, id, null) != v} | {id | some id, _ in reference; not own[id]}

_kind(_, ids) := "" if count(ids) == 0

_kind(what, ids) := sprintf("%s %s", [what, _ids_capped(sort(ids))]) if count(ids) > 0

# _ids_capped names up to four ids (a fourth costs no more than "and 1
# more"), else three and how many more.
_ids_capped(ids) := _ids_text(ids) if count(ids) <= 4

_ids_capped(ids) := sprintf("%s and %d more", [_ids_text(array.slice(ids, 0, 3)), count(ids) - 3]) if count(ids) > 4
