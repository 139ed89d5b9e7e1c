# METADATA
# title: Cross-node helpers
# description: |
#   Shared logic of the rules that compare the nodes of one cluster: the
#   anchoring policy for disagreements (the odd one out), the effective static
#   voter set of a node, listener and endpoint resolution as Kafka does it,
#   and host comparison. The functions take their data as arguments and never
#   read input, so rules decide which nodes take part.
package kafkalint.lib.cluster

import data.kafkalint.lib.result
import data.kafkalint.lib.settings

# --- Anchoring policy for disagreements ----------------------------------------
#
# A party is an object {"value": v, "location": l, ...}: one node's (or file's)
# value of the thing that must agree, and where that value is written.
#
#   - When the parties do not all hold one value and more than half of them
#     hold the same value (the majority), only the parties that differ from
#     it carry a finding: the odd one out, or the odd ones out.
#   - With no such majority (1 against 1, 2 against 2, 1 against 1 against 1)
#     every party carries a finding.
#   - A finding's related locations are where every other party writes its
#     value (file:line), so each file of the disagreement can be found from
#     any finding.
#
# Parties whose value is unknown (a ${provider:...} placeholder) must be left
# out by the rule: an unknown value neither agrees nor disagrees.

# disagreement analyses a list of parties once, in O(n log n): a rule
# computes it once per set of parties (a rule without arguments, or an
# assignment in the rule body before the findings are iterated) and asks it
# per finding, instead of recounting every party per finding (O(n^2) in the
# nodes of a cluster). Its fields:
#   - parties: the parties;
#   - groups: one {"value", "indexes"} per distinct value, sorted by value,
#     each with the ascending indexes of the parties holding it;
#   - majority: [the group more than half of the parties hold], or [] (a
#     list, since a majority value can be false);
#   - odd: the indexes of the parties that carry a finding (odd_ones);
#   - index: location_index of the parties' locations, for nearest;
#   - files: the parties' file names, sorted, without repeats, and
#     file_parties the number of parties in each, for other_files.
# The index and the file lists are only built when some party carries a
# finding (most sets of parties agree, and most clusters are small).
disagreement(parties) := object.union(
	{
		"parties": parties,
		"groups": groups,
		"majority": majority,
		"odd": odd,
	},
	_for_findings(parties, count(odd)),
) if {
	groups := _groups(parties)
	majority := [g | some g in groups; count(g.indexes) * 2 > count(parties)]
	odd := _odd(parties, groups, majority)
}

_for_findings(_, 0) := {"index": location_index([]), "files": [], "file_parties": {}}

_for_findings(parties, n) := {
	"index": location_index([p.location | some p in parties]),
	"files": [g.value | some g in file_groups],
	"file_parties": {g.value: count(g.indexes) | some g in file_groups},
} if {
	n > 0
	file_groups := _groups([{"value": p.location.file} | some p in parties])
}

# groups are the parties' indexes by value: one {"value", "indexes"} per
# distinct value, sorted by value, indexes ascending; O(n log n). Any list of
# objects with a value field will do.
groups(parties) := _groups(parties)

# _groups sorts [value, index] pairs, so that equal values are neighbours,
# and cuts the sorted list into runs of one value.
# (No helper function is called per element: in OPA 1.22 a call whose
# arguments include the list costs time in the list's size.)
_groups(parties) := [{"value": pairs[start][0], "indexes": [pair[1] | some pair in array.slice(pairs, start, ends[x])]} |
	some x, start in starts
] if {
	pairs := sort([[p.value, i] | some i, p in parties])
	starts := [k | some k, pair in pairs; not pairs[k - 1][0] == pair[0]]
	ends := array.concat(array.slice(starts, 1, count(starts)), [count(pairs)])
}

_odd(_, groups, _) := set() if count(groups) < 2

_odd(_, groups, majority) := {i |
	some g in groups
	g.value != majority[0].value
	some i in g.indexes
} if {
	count(groups) > 1
	count(majority) == 1
}

_odd(parties, groups, majority) := {i | some i, _ in parties} if {
	count(groups) > 1
	count(majority) == 0
}

# nearest is result.nearest for the i-th party of a disagreement, over the
# locations of every other party (without the i-th party's own): up to
# result.related_cap of them, same file first, then same directory, then
# path order, and the exact number left out. Constant time per finding.
nearest(d, i) := near(d.index, d.parties[i].location)

# location_index sorts locations (a set, or a list, repeats allowed) once
# for near: all of them by path order (file, line, column), without
# repeats, the same lists per file and per directory, and each file's
# directory.
location_index(locations) := {
	"all": all,
	"set": {l | some l in all},
	"by_file": {all[start].file: array.slice(all, start, ends[x]) | some x, start in starts},
	"by_dir": {g.value: [l | some x in g.indexes; some l in array.slice(all, starts[x], ends[x])] |
		some g in _groups([{"value": dirs[all[start].file]} | some start in starts])
	},
	"dirs": dirs,
} if {
	# A list, not a set, of sort keys (a set would hash each): a repeated
	# location is a run of equal keys, of which the first is kept. (The
	# parties of a disagreement are a list, and their locations, rarely
	# repeated, need no set of objects and no sort of them first.)
	keys := sort([[l.file, l.line, object.get(l, "column", 0), l] | some l in locations])
	all := [r[3] | some k, r in keys; not keys[k - 1] == r]

	# all is in path order, so each file's locations are one run of it,
	# [starts[x], ends[x]): the lists per file need no sort, and those per
	# directory group runs (a directory per file, not per location).
	starts := [k | some k, l in all; not all[k - 1].file == l.file]
	ends := array.concat(array.slice(starts, 1, count(starts)), [count(all)])
	dirs := {all[start].file: result.dir(all[start].file) | some start in starts}
}

# near selects, as result.nearest does, from an index's locations but own
# (own need not be one of them). Each step reads only the head of a sorted
# list: a step runs only when the one before found fewer than the cap,
# which bounds the lists it skips (own's file, own's directory) by the cap.
near(index, own) := {"related": picked, "omitted": total - count(picked)} if {
	c := result.related_cap
	total := count(index.all) - count({own} & index.set)
	own_dir := result.dir(own.file)
	same_file := object.get(index.by_file, own.file, [])
	same_dir := object.get(index.by_dir, own_dir, [])
	p1 := array.slice([l | some l in array.slice(same_file, 0, c + 1); l != own], 0, c)
	n2 := c - count(p1)
	p2 := array.slice([l | some l in array.slice(same_dir, 0, (n2 + count(same_file)) * to_number(n2 > 0)); l.file != own.file], 0, n2)
	n3 := n2 - count(p2)
	p3 := array.slice([l | some l in array.slice(index.all, 0, (n3 + count(same_dir)) * to_number(n3 > 0)); index.dirs[l.file] != own_dir], 0, n3)
	picked := array.concat(array.concat(p1, p2), p3)
}

# other_files names the files of every party but the i-th of a
# disagreement, for messages (result.names: capped, the count exact).
other_files(d, i) := names_except({"sorted": d.files, "counts": d.file_parties}, d.parties[i].location.file)

# name_counts prepares a list of names (repeats allowed) for names_except,
# once: the names sorted without repeats, and how often each occurs.
name_counts(names) := {"sorted": [g.value | some g in gs], "counts": {g.value: count(g.indexes) | some g in gs}} if {
	gs := _groups([{"value": n} | some n in names])
}

# names_except lists the names of name_counts but one occurrence of own, as
# result.names does (capped, the count exact), reading only the head of the
# sorted names.
names_except(nc, own) := result.names_text(shown, total) if {
	alone := to_number(object.get(nc.counts, own, 0) == 1)
	total := count(nc.sorted) - alone
	shown := array.slice([n | some n in array.slice(nc.sorted, 0, result.names_cap + 2); _kept(n, own, alone)], 0, result.names_cap + 1)
}

_kept(n, own, _) if n != own

_kept(n, n, 0) := true

# majority is the value more than half of the parties hold; undefined when no
# value does.
majority(parties) := disagreement(parties).majority[0].value

# has_majority holds when more than half of the parties hold one value.
# Use it, not `not majority(...)`: a majority value can be false.
has_majority(parties) if count(disagreement(parties).majority) > 0

# disagree holds when the parties do not all hold one value.
disagree(parties) if count({p.value | some p in parties}) > 1

# odd_ones are the indexes of the parties that carry a finding: none when the
# parties agree, the ones differing from the majority when there is one,
# every party otherwise.
odd_ones(parties) := disagreement(parties).odd

# files names the files of the parties whose indexes are given, for
# messages: result.names, so a long list is cut ("and N more").
files(parties, indexes) := result.names({parties[i].location.file | some i in indexes})

# other_indexes are the indexes of every party but the i-th.
other_indexes(parties, i) := {j | some j, _ in parties; j != i}

# --- Roles ---------------------------------------------------------------------

# broker_only holds for a KRaft node with only the broker role.
broker_only(node) if {
	node.mode == "kraft"
	node.is_broker
	not node.is_controller
}

# dedicated_controller holds for a KRaft node with only the controller role.
dedicated_controller(node) if {
	node.mode == "kraft"
	node.is_controller
	not node.is_broker
}

# role_class groups nodes whose role-specific settings must agree:
# broker-only, controller-only, combined, or a ZooKeeper-mode broker.
role_class(node) := "broker" if broker_only(node)

role_class(node) := "controller" if dedicated_controller(node)

role_class(node) := "combined" if {
	node.mode == "kraft"
	node.is_broker
	node.is_controller
}

role_class(node) := "zookeeper" if node.mode == "zookeeper"

# without_quorum holds for a ZooKeeper-mode node (no process.roles,
# zookeeper.connect written or set by the platform) that is not migrating to
# KRaft: it has no KRaft quorum. Kafka 3.x only parses its
# controller.quorum.voters and controller.quorum.bootstrap.servers (the
# QuorumConfig validators) and starts a raft client with them only when
# zookeeper.metadata.migration.enable is true (KafkaServer.startup), so a
# voter list left there describes no quorum (KFK3019 reports it). A
# migration flag that is a placeholder may be true: not without_quorum.
without_quorum(node) if {
	node.mode == "zookeeper"
	_zookeeper_connect(node)
	not _migrating(node)
}

_zookeeper_connect(node) if settings.explicit(node, "zookeeper.connect")

_zookeeper_connect(node) if "zookeeper.connect" in node.managed_keys

_migrating(node) if node.settings["zookeeper.metadata.migration.enable"].unknown

_migrating(node) if lower(trim_space(node.settings["zookeeper.metadata.migration.enable"].raw)) == "true"

# --- Identity ------------------------------------------------------------------

# id_setting is the setting a node's id comes from (node.id, else broker.id,
# as the loader reads it); a node whose id is not written in a key (a
# platform-assigned id) is anchored where its configuration starts. Undefined
# when the node has no id. Rules that use it list node.id and broker.id in
# custom.keys.
id_setting(node) := s if {
	s := node.settings["node.id"]
	s.source == "explicit"
	s.value == node.id
} else := s if {
	s := node.settings["broker.id"]
	s.source == "explicit"
	s.value == node.id
} else := {"key": "node.id", "location": node.location} if {
	node.id
}

# has_id holds for a node whose id is known and usable: negative ids are
# invalid in KRaft and mean "generate one" for a ZooKeeper-mode broker.id.
has_id(node) if node.id >= 0

# --- Static voter set ----------------------------------------------------------

# voter_map is the static voter set a node's controller.quorum.voters defines,
# {id: {"host", "port"}}, as Kafka reads it: a repeated id keeps its last
# entry (QuorumConfig.parseVoterConnections fills a HashMap). Undefined when
# the key is unset or unknown, or when any entry is malformed: Kafka refuses
# such a list (KFK3007), and the malformed entry may be any voter.
voter_map(node) := {id: endpoint_key(v.host, v.port) | some id, v in last_voters(node)} if {
	count(node.quorum.voters) > 0
	every v in node.quorum.voters {
		not v.error
	}
}

# last_voters are the entries of a node's controller.quorum.voters by id,
# the last entry of a repeated id: {id: entry}. Sorting [id, position] pairs
# puts each id's last entry just before the next id (linear in a long
# list, where looking for each id's last position is quadratic).
# (The conditions are written inline: a function called per element with
# the list as an argument costs time in the list's size, in OPA 1.22.)
last_voters(node) := {pair[0]: voters[pair[1]] |
	some k, pair in pairs
	not pairs[k + 1][0] == pair[0]
} if {
	voters := node.quorum.voters
	pairs := sort([[v.id, j] | some j, v in voters; not v.error])
}

# voter_ids are the ids of the entries of controller.quorum.voters that parse.
voter_ids(node) := {v.id | some v in node.quorum.voters; not v.error}

# voter_text renders a voter set {id: endpoint} as id@host:port, sorted by id.
voter_text(voters) := concat(",", [sprintf("%d@%s:%d", [id, voters[id].host, voters[id].port]) |
	some id in sort(object.keys(voters))
])

# quorum_anchors are the indexes of the nodes at whose controller.quorum.voters
# line a finding about the cluster's voter set is reported (the policy of
# KFK3001/KFK3002): every controller-role node that states a voter set, or,
# when no controller does (only broker files were given), every node that
# states one. A broker repeating a controller's voter line is not reported
# again, and a ZooKeeper-mode node's leftover list is no voter set
# (without_quorum).
quorum_anchors(nodes) := _controller_anchors(nodes) if {
	count(_controller_anchors(nodes)) > 0
} else := {i |
	some i, node in nodes
	count(voter_ids(node)) > 0
	not without_quorum(node)
}

_controller_anchors(nodes) := {i |
	some i, node in nodes
	node.is_controller
	count(voter_ids(node)) > 0
}

# --- Hosts ---------------------------------------------------------------------

_wildcard := {"", "0.0.0.0", "::"}

# wildcard_host holds for a host that binds every interface (or the default
# one): it names no particular machine.
wildcard_host(host) if lower(host) in _wildcard

# loopback_host holds for this machine's loopback names: Java's
# InetAddress.isLoopbackAddress, which Kafka's listeners resolve through,
# is true for all of 127.0.0.0/8 and ::1.
loopback_host(host) if lower(host) in {"localhost", "::1"}

loopback_host(host) if {
	startswith(host, "127.")
	_dotted_quad(host)
}

# host_key normalises a host for equality: case-insensitive (DNS), and every
# loopback spelling is the same host.
host_key(host) := "localhost" if loopback_host(host)

host_key(host) := lower(host) if not loopback_host(host)

# endpoint_key is a normalised host:port.
endpoint_key(host, port) := {"host": host_key(host), "port": port}

# ip_literal holds for an IPv4 or IPv6 address.
ip_literal(host) if _dotted_quad(host)

ip_literal(host) if contains(host, ":")

# _dotted_quad holds for four dot-separated runs of ASCII digits,
# ^[0-9]+(\.[0-9]+){3}$ without a regexp (every voter and listener host is
# compared, and a regexp's match cost more than these builtins).
_dotted_quad(host) if {
	parts := split(host, ".")
	count(parts) == 4
	every part in parts {
		part != ""
		trim_left(part, "0123456789") == ""
	}
}

# hosts_differ holds only when two hosts certainly name different machines:
# two different IP addresses, or two DNS names whose first labels differ
# ("controller-2" vs "controller-3.example.com"). A wildcard or loopback host,
# an address against a name, or names that differ only in their domain
# ("controller-1" vs "controller-1.prod.example.com") may be the same machine,
# so they never differ: a false alarm costs more than a missed one.
hosts_differ(a, b) if {
	_comparable(a)
	_comparable(b)
	ip_literal(a)
	ip_literal(b)
	host_key(a) != host_key(b)
}

hosts_differ(a, b) if {
	_comparable(a)
	_comparable(b)
	not ip_literal(a)
	not ip_literal(b)
	_first_label(a) != _first_label(b)
}

_comparable(host) if {
	not wildcard_host(host)
	not loopback_host(host)
}

_first_label(host) := split(lower(host), ".")[0]

# --- Listeners -----------------------------------------------------------------

# _default_listener_names are the names in Kafka's default
# listeners=PLAINTEXT://:9092 (every version; SocketServerConfigs.LISTENERS_DEFAULT).
_default_listener_names := {"PLAINTEXT"}

# listener_names are the (upper-cased) names of the listeners a node binds:
# the listeners it writes, or Kafka's default when the key is absent from a
# whole configuration (absent_means_default). Undefined when the value is
# unknown, when the platform sets listeners itself (managed_keys: what the
# source shows is then not the whole list), when the key is absent from
# another format (the rest of the configuration may come from elsewhere),
# or when an entry does not parse (it may be the one a rule looks for).
# Rules that use it list listeners in custom.keys.
listener_names(node) := _default_listener_names if {
	not settings.explicit(node, "listeners")
	absent_means_default(node, "listeners")
} else := {l.name | some l in node.listeners} if {
	settings.explicit(node, "listeners")
	not "listeners" in node.managed_keys
	not node.settings.listeners.unknown
	every l in node.listeners {
		not l.error
	}
}

# absent_means_default holds when a key missing from a node's file means
# Kafka's default applies: the file is a whole configuration (the loader's
# whole_configuration) and the platform does not set the key itself.
absent_means_default(node, key) if {
	node.whole_configuration
	not key in node.managed_keys
}

# controller_names are a node's controller.listener.names, upper-cased as
# Kafka upper-cases listener names (a lower-case entry is another rule's
# concern); empty when the key is unset or unknown.
controller_names(node) := [upper(n) | some n in node.controller_listener_names]

# controller_endpoints are the endpoints a controller-role node serves the
# quorum on: for each controller listener name, its advertised.listeners
# entry, else its listeners entry (KafkaConfig.effectiveAdvertisedControllerListeners).
controller_endpoints(node) := [l |
	some name in controller_names(node)
	some l in _endpoints_named(node, name)
]

_endpoints_named(node, name) := ls if {
	ls := [l | some l in node.advertised_listeners; l.name == name; not l.error]
	count(ls) > 0
} else := [l | some l in node.listeners; l.name == name; not l.error]

# controller_listeners are every advertised and bound listener of a node
# named in controller.listener.names: where a voter entry for the node may
# point.
controller_listeners(node) := array.concat(_controller_listeners(node.advertised_listeners, node), _controller_listeners(node.listeners, node))

_controller_listeners(listeners, node) := [l | some l in listeners; l.name in controller_names(node); not l.error]

# listeners_known holds when a node's listeners and advertised.listeners are
# fully known: neither is a ${provider:...} placeholder and every entry
# parses, and the platform does not set them (managed_keys). Rules that use
# it list both keys in custom.keys.
listeners_known(node) if {
	not "listeners" in node.managed_keys
	not "advertised.listeners" in node.managed_keys
	not node.settings.listeners.unknown
	not node.settings["advertised.listeners"].unknown
	every l in node.listeners {
		not l.error
	}
	every l in node.advertised_listeners {
		not l.error
	}
}

# endpoint_matches holds when a voter entry can reach a listener endpoint:
# same port, and hosts that may be the same machine (a wildcard listener host
# is advertised under the machine's own name).
endpoint_matches(voter, listener) if {
	voter.port == listener.port
	not hosts_differ(voter.host, listener.host)
}
