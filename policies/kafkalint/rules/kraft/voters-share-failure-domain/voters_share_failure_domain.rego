# METADATA
# title: Controller quorum voters share a host or rack
# description: |
#   Two or more voters of the static controller quorum run on the same host,
#   or their configs give the same broker.rack, so one machine or one rack
#   failing removes several voters at once and can cost the quorum its
#   majority, which stops all metadata changes.
# related_resources:
#   - description: Kafka docs, KRaft deployment considerations
#     ref: https://kafka.apache.org/documentation/#kraft_deployment
#   - description: Kafka docs, broker.rack
#     ref: https://kafka.apache.org/documentation/#brokerconfigs_broker.rack
# schemas:
#   - input: schema.cluster
# custom:
#   id: KFK3018
#   severity: warning
#   scope: production
#   applies_to: [controller]
#   keys: [controller.quorum.voters, broker.rack]
#   since: unreleased
#   fix: |
#     Run each controller on its own machine, and spread the controllers over
#     racks or availability zones where you have them.
package kafkalint.rules.kraft["voters-share-failure-domain"]

import data.kafkalint.lib.cluster
import data.kafkalint.lib.result

# Anchoring as KFK3001/KFK3002 (cluster.quorum_anchors): at the
# controller.quorum.voters line of every controller that states the voter
# set, or of every node when no controller does. Each anchor's own voter set
# (as Kafka reads it) is checked; an unknown or malformed list is silent.
# Hosts compare case-insensitively, every loopback spelling is one host, and
# a wildcard host (0.0.0.0, KFK3007) names no machine. A voter's rack is the
# explicit broker.rack of the one controller config with its id; voters
# without a config file have no known rack. Only static voter sets are
# checked: a dynamic quorum's voters are not in the files.

# The message names the voters (a few), the host or rack (cut to fit: a
# host is part of a value, which the engine does not cut) and how many
# voters losing it removes; the why quotes the value and says what that
# costs the quorum.

# Voters on one host.
report contains result.explain(result.fail(setting, message), why, fix) if {
	some i in cluster.quorum_anchors(input.nodes)
	node := input.nodes[i]
	setting := node.settings["controller.quorum.voters"]
	not setting.unknown
	voters := cluster.voter_map(node)
	host_list := [{"value": v.host, "id": id} | some id, v in voters; not cluster.wildcard_host(v.host)]
	some g in cluster.groups(host_list)
	count(g.indexes) > 1
	host := g.value
	ids := sort({host_list[k].id | some k in g.indexes})
	message := sprintf("quorum voters %s share host %s: losing it removes %d of the %d voters", [_ids_capped(ids), _cut(host, 40), count(ids), count(voters)])
	why := sprintf(
		"controller.quorum.voters=%s puts voters %s on one host (%s). %s.",
		[setting.raw, _ids_text(ids), host, _impact(count(ids), count(voters), "that machine")],
	)
	fix := "Run each controller on its own machine (and, where you have them, in its own rack or availability zone)."
}

# Voters whose configs give one broker.rack.
report contains result.explain(result.fail_related(setting, message, related), why, fix) if {
	some i in cluster.quorum_anchors(input.nodes)
	node := input.nodes[i]
	setting := node.settings["controller.quorum.voters"]
	not setting.unknown
	voters := cluster.voter_map(node)
	racks := {id: rack | some id, _ in voters; rack := _rack(id)}
	rack_list := [{"value": r.value, "id": id} | some id, r in racks]
	some g in cluster.groups(rack_list)
	count(g.indexes) > 1
	rack := g.value
	ids := sort({rack_list[k].id | some k in g.indexes})
	related := sort({racks[id].location | some id in ids})
	message := sprintf("quorum voters %s share broker.rack=%s: losing it removes %d of the %d voters", [_ids_capped(ids), _cut(rack, 40), count(ids), count(voters)])
	why := sprintf(
		"controller.quorum.voters=%s has voters %s in one rack (broker.rack=%s in their configs). %s.",
		[setting.raw, _ids_text(ids), rack, _impact(count(ids), count(voters), "that rack")],
	)
	fix := "Spread the controllers over racks or availability zones."
}

# _rack is the explicit broker.rack of the one controller config with id.
_rack(id) := s if {
	configs := _nodes_by_id[id]
	count(configs) == 1
	input.nodes[configs[0]].is_controller
	s := input.nodes[configs[0]].settings["broker.rack"]
	s.source == "explicit"
	is_string(s.value)
	s.value != ""
}

# _nodes_by_id are the indexes of the nodes of each id, built once (a voter
# set of many ids would otherwise visit every node per id). A complete rule:
# a partial one would be evaluated again for every id looked up.
_nodes_by_id := {g.value: g.indexes | some g in cluster.groups([{"value": object.get(n, "id", null)} | some n in input.nodes])}

_ids_text(ids) := concat(", ", [sprintf("%d", [id]) | some id in ids])

# _ids_capped names up to four ids (a fourth costs no more than "and 1
# more"), else three and how many more.
_ids_capped(ids) := _ids_text(ids) if count(ids) <= 4

_ids_capped(ids) := sprintf("%s and %d more", [_ids_text(array.slice(ids, 0, 3)), count(ids) - 3]) if count(ids) > 4

# _cut shortens text to at most n characters, with "…" where it is cut.
_cut(text, n) := text if count(text) <= n

_cut(text, n) := concat("", [substring(text, 0, n - 1), "…"]) if count(text) > n

# _majority is the number of voters a quorum of n needs.
_majority(n) := floor(n / 2) + 1

# _impact says what losing the shared domain does to a quorum of n voters.
_impact(k, n, domain) := sprintf("Losing %s removes %d of the %d voters, fewer than the majority of %d remain, and all metadata changes stop", [domain, k, n, _majority(n)]) if {
	n - k < _majority(n)
}

_impact(k, n, domain) := sprintf("Losing %s removes %d of the %d voters and leaves the quorum unable to survive any further controller failure", [domain, k, n]) if {
	n - k == _majority(n)
}

_impact(k, n, domain) := sprintf("Losing %s removes %d of the %d voters at once, more of the quorum's failure budget than one failure should take", [domain, k, n]) if {
	n - k > _majority(n)
}
