# METADATA
# title: Voter entry does not point at the controller's listener
# description: |
#   A controller.quorum.voters entry gives a controller's id with a host:port
#   that is not where that controller's config serves the quorum (its
#   controller listener, advertised or bound). Kafka checks no voter entry
#   against a listener: the nodes that use the entry cannot reach that voter,
#   which only shows up as connection failures at runtime.
# related_resources:
#   - description: Kafka docs, controller.quorum.voters
#     ref: https://kafka.apache.org/documentation/#brokerconfigs_controller.quorum.voters
#   - description: Kafka docs, controller.listener.names
#     ref: https://kafka.apache.org/documentation/#brokerconfigs_controller.listener.names
# schemas:
#   - input: schema.cluster
# custom:
#   id: KFK3014
#   severity: warning
#   scope: all
#   applies_to: [controller]
#   keys: [node.id, broker.id, controller.quorum.voters, controller.listener.names, listeners, advertised.listeners]
#   since: unreleased
#   fix: |
#     Make every voter entry for the controller's id point at its controller
#     listener (its advertised host:port, else the bound one), with the same
#     voter list on every node.
package kafkalint.rules.kraft["voter-endpoint-mismatch"]

import data.kafkalint.lib.cluster
import data.kafkalint.lib.result

# For every controller-role config whose id is known and unique in the
# cluster, every node's static voter entry for that id (the effective one: a
# repeated id keeps its last entry) must reach one of the controller's
# controller listeners (_reaches): its advertised endpoint when it has one,
# else its bound endpoint. Hosts compare leniently (cluster.hosts_differ: a
# wildcard or loopback host, an address against a name, and names differing
# only in their domain may all be one machine). A voter without a config
# file is no concern, nor is a ZooKeeper-mode node's leftover voter list
# (cluster.without_quorum: it reaches no quorum), and unknown values (${provider:...}), platform-managed
# listeners, malformed voter lists (KFK3007) and controller listeners missing
# from listeners (KFK3015) are silent. One finding per controller, at its
# controller listener line (advertised, else bound), with every mismatching
# voter entry as related.
#
# The message names the id and one mismatching endpoint (a host is cut to
# fit: an entry is part of a value, which the engine does not cut); the why
# gives the controller's listeners and every mismatching entry with its
# files, the fix the endpoint to use.
report contains result.explain(result.fail_related(anchor, message, related), why, fix) if {
	some node in input.nodes
	node.is_controller
	cluster.has_id(node)
	_id_count[node.id] == 1
	cluster.listeners_known(node)
	endpoints := cluster.controller_endpoints(node)
	count(endpoints) > 0
	mismatches := _mismatches(node)
	count(mismatches) > 0
	anchor := _anchor(node, endpoints[0])
	related := sort({m.location | some m in mismatches})
	endpoints_wrong := sort({m.endpoint | some m in mismatches})
	message := sprintf("voter entry %d@%s%s does not reach controller %d's quorum listener", [node.id, _cut(endpoints_wrong[0], 50), _more(count(endpoints_wrong) - 1), node.id])
	why := sprintf(
		"Controller %d serves the quorum at %s (%s), but controller.quorum.voters gives voter %d as %s. Kafka starts (it checks no voter entry against a listener), but the quorum may not form: the nodes using that entry cannot reach this controller, votes and metadata fetches fail at runtime, and one more controller down costs the quorum its majority.",
		[node.id, concat(", ", [l.raw | some l in endpoints]), anchor.key, node.id, _mismatches_text(mismatches)],
	)
	fix := sprintf("Make every voter entry for %d point at %s (the same voter list on every node).", [node.id, _target(endpoints[0])])
}

_more(0) := ""

_more(1) := " (and 1 other endpoint)"

_more(n) := sprintf(" (and %d other endpoints)", [n]) if n > 1

# _cut shortens text to at most n characters, with "…" where it is cut.
_cut(text, n) := text if count(text) <= n

_cut(text, n) := concat("", [substring(text, 0, n - 1), "…"]) if count(text) > n

# _mismatches are the voter entries (one per node that lists the id) that
# match none of the controller's listeners.
_mismatches(controller) := {{"endpoint": sprintf("%s:%d", [e.voter.host, e.voter.port]), "file": e.file, "location": e.voter.location} |
	some e in _entries_by_id[controller.id]
	not _reaches(e.voter, controller)
}

# _id_count counts the nodes of each id, and _entries_by_id holds every
# node's effective voter entry for each id (a repeated id keeps its last
# entry, as Kafka reads it), with the node's file: both are built once
# (complete rules: a partial rule would be evaluated again per id looked
# up), so each controller visits only its own entries.
_id_count := {g.value: count(g.indexes) | some g in cluster.groups([{"value": n.id} | some n in input.nodes])}

_entries := [{"value": id, "voter": v, "file": other.file} |
	some other in input.nodes
	not cluster.without_quorum(other)
	not other.settings["controller.quorum.voters"].unknown
	cluster.voter_map(other)
	some id, v in cluster.last_voters(other)
]

_entries_by_id := {g.value: [_entries[k] | some k in g.indexes] | some g in cluster.groups(_entries)}

# _reaches holds when a voter entry can reach one of the controller's
# controller listeners: its advertised endpoint when it has one (the host
# must match it; the port may also be the bound one, as behind port
# forwarding), else its bound endpoint.
_reaches(voter, controller) if {
	some name in cluster.controller_names(controller)
	some a in controller.advertised_listeners
	a.name == name
	not cluster.hosts_differ(voter.host, a.host)
	voter.port in {l.port | some l in cluster.controller_listeners(controller); l.name == name}
}

_reaches(voter, controller) if {
	some name in cluster.controller_names(controller)
	not _advertises(controller, name)
	some l in controller.listeners
	l.name == name
	cluster.endpoint_matches(voter, l)
}

_advertises(controller, name) if {
	some a in controller.advertised_listeners
	a.name == name
}

_anchor(node, endpoint) := {"key": "advertised.listeners", "location": endpoint.location} if {
	endpoint in node.advertised_listeners
} else := {"key": "listeners", "location": endpoint.location}

# _target is where voter entries should point.
_target(l) := sprintf("port %d of this controller's host", [l.port]) if cluster.wildcard_host(l.host)

_target(l) := sprintf("%s:%d", [l.host, l.port]) if not cluster.wildcard_host(l.host)

_mismatches_text(mismatches) := concat("; ", [sprintf("%s in %s", [endpoint, result.names({m.file | some m in mismatches; m.endpoint == endpoint})]) |
	some endpoint in sort({m.endpoint | some m in mismatches})
])
