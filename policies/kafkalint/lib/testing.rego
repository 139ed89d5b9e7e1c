# METADATA
# title: Test fixtures
# description: |
#   Builders for cluster-model fixtures used by the rule tests. They build
#   data only and derive no Kafka fact: what the loader derives (a protocol
#   map, a whole configuration, an origin kind) a fixture states, and every
#   rule also has tests built with the loader itself (kafkalint.parse).
package kafkalint.lib.testing

# setting builds an explicit setting written at line of file.
setting(file, key, value, line) := {
	"key": key,
	"raw": sprintf("%v", [value]),
	"value": value,
	"type": "string",
	"source": "explicit",
	"location": {"file": file, "line": line, "column": 1},
}

# default_setting builds a setting that takes Kafka's default.
default_setting(file, key, value) := {
	"key": key,
	"raw": sprintf("%v", [value]),
	"value": value,
	"type": "string",
	"source": "default",
	"location": {"file": file, "line": 1, "column": 1},
}

# unknown_setting builds a setting whose value is a ${provider:...} placeholder.
unknown_setting(file, key, raw, line) := {
	"key": key,
	"raw": raw,
	"type": "string",
	"unknown": true,
	"source": "explicit",
	"location": {"file": file, "line": line, "column": 1},
}

# settings turns [[key, value, line], ...] into a settings object; line 0
# means the value is Kafka's default (the key is absent from the file).
settings(file, entries) := {key: s |
	some entry in entries
	key := entry[0]
	s := _entry_setting(file, entry)
}

_entry_setting(file, entry) := default_setting(file, entry[0], entry[1]) if entry[2] == 0

_entry_setting(file, entry) := setting(file, entry[0], entry[1], entry[2]) if entry[2] != 0

# node builds a KRaft node (roles non-empty) or a ZooKeeper-mode node (roles empty).
node(file, roles, entries) := {
	"file": file,
	"environment": "production",
	"location": {"file": file, "line": 1, "column": 1},
	"managed_keys": [],
	"mode": _mode(roles),
	"roles": roles,
	"is_broker": _is_broker(roles),
	"is_controller": "controller" in roles,
	"quorum": {"mode": "none", "voters": [], "bootstrap_servers": []},
	"listeners": [],
	"advertised_listeners": [],
	"controller_listener_names": [],
	"whole_configuration": true,
	"settings": settings(file, entries),
}

_mode(roles) := "kraft" if count(roles) > 0

_mode(roles) := "zookeeper" if count(roles) == 0

default _is_broker(_) := false

_is_broker(roles) if "broker" in roles

_is_broker(roles) if count(roles) == 0

# client builds a client config of kind (producer, consumer, admin, client).
client(file, kind, entries) := {
	"file": file,
	"environment": "production",
	"location": {"file": file, "line": 1, "column": 1},
	"kind": kind,
	"bootstrap_servers": [],
	"settings": settings(file, entries),
}

# source_file describes a file of the cluster.
source_file(path, kind) := {
	"path": path,
	"kind": kind,
	"format": "properties",
	"environment": "production",
	"environment_source": "path",
	"duplicates": [],
	"whole_configuration": true,
}

# cluster wraps nodes and clients into a cluster model.
cluster(nodes, clients) := {
	"name": "test",
	"kafka_version": "4.3",
	"kafka_release": [4, 3],
	"kafka_version_source": "default",
	"grouped_by": [],
	"files": array.concat(
		[source_file(n.file, "node") | some n in nodes],
		[source_file(c.file, "client") | some c in clients],
	),
	"nodes": nodes,
	"clients": clients,
	"meta": [],
	"mirror_makers": [],
	"topics": [],
}

# finding is the expected finding at file:line about key.
finding(file, line, key, message) := {
	"message": message,
	"key": key,
	"location": {"file": file, "line": line, "column": 1},
	"related": [],
}

# --- Cross-node fixtures (nodes with identity, quorum and listeners) ----------

# voter parses a well-formed controller.quorum.voters entry {id}@{host}:{port}
# written at line of file, as the loader does.
voter(file, line, entry) := {
	"id": to_number(m[1]),
	"host": m[2],
	"port": to_number(m[3]),
	"raw": entry,
	"location": {"file": file, "line": line, "column": 1},
} if {
	m := regex.find_all_string_submatch_n(`^([0-9]+)@\[?([^\]]*)\]?:([0-9]+)$`, entry, 1)[0]
}

# malformed_voter is an entry that does not parse.
malformed_voter(file, line, entry) := {
	"id": 0,
	"host": "",
	"port": 0,
	"raw": entry,
	"error": "entry is not in the form {id}@{host}:{port}",
	"location": {"file": file, "line": line, "column": 1},
}

# endpoint parses host:port written at line of file.
endpoint(file, line, entry) := {
	"host": m[1],
	"port": to_number(m[2]),
	"raw": entry,
	"location": {"file": file, "line": line, "column": 1},
} if {
	m := regex.find_all_string_submatch_n(`^\[?([^\]]*)\]?:([0-9]+)$`, entry, 1)[0]
}

# listener parses NAME://host:port written at line of file, with protocol.
listener(file, line, entry, protocol) := {
	"name": upper(m[1]),
	"host": m[2],
	"port": to_number(m[3]),
	"protocol": protocol,
	"raw": entry,
	"location": {"file": file, "line": line, "column": 1},
} if {
	m := regex.find_all_string_submatch_n(`^(.*)://\[?([^\]]*)\]?:([0-9]+)$`, entry, 1)[0]
}

# _listeners are the entries of raw, each with the protocol node's
# protocol_map gives its name ("" when it maps none: see with_protocol_map).
_listeners(node, line, raw) := [listener(node.file, line, e, _protocol(node, upper(split(e, "://")[0]))) |
	some e in split(raw, ",")
]

_protocol(node, name) := object.get(object.get(node, "protocol_map", {}), name, "")

# list_setting builds an explicit list setting (value split on commas).
list_setting(file, key, raw, line) := {
	"key": key,
	"raw": raw,
	"value": split(raw, ","),
	"type": "list",
	"source": "explicit",
	"location": {"file": file, "line": line, "column": 1},
}

# with_id gives node node.id=id at line.
with_id(node, id, line) := object.union(node, {
	"id": id,
	"settings": {"node.id": object.union(setting(node.file, "node.id", id, line), {"type": "int"})},
})

# with_voters gives node controller.quorum.voters=raw (well-formed entries) at line.
with_voters(node, raw, line) := object.union(node, {
	"quorum": {
		"mode": _mode_with(node.quorum.mode, "static"),
		"voters": [voter(node.file, line, e) | some e in split(raw, ",")],
	},
	"settings": {"controller.quorum.voters": list_setting(node.file, "controller.quorum.voters", raw, line)},
})

# with_bootstrap gives node controller.quorum.bootstrap.servers=raw at line.
with_bootstrap(node, raw, line) := object.union(node, {
	"quorum": {
		"mode": _mode_with(node.quorum.mode, "dynamic"),
		"bootstrap_servers": [endpoint(node.file, line, e) | some e in split(raw, ",")],
	},
	"settings": {"controller.quorum.bootstrap.servers": list_setting(node.file, "controller.quorum.bootstrap.servers", raw, line)},
})

_mode_with("none", mode) := mode

_mode_with(current, mode) := current if current == mode

_mode_with(current, mode) := "both" if {
	not current in {"none", mode}
}

# with_listeners gives node listeners=raw at line (protocols from the
# node's protocol_map).
with_listeners(node, raw, line) := object.union(node, {
	"listeners": _listeners(node, line, raw),
	"settings": {"listeners": list_setting(node.file, "listeners", raw, line)},
})

# with_advertised gives node advertised.listeners=raw at line.
with_advertised(node, raw, line) := object.union(node, {
	"advertised_listeners": _listeners(node, line, raw),
	"settings": {"advertised.listeners": list_setting(node.file, "advertised.listeners", raw, line)},
})

# with_protocol_map gives node the effective protocol map m, {NAME: PROTOCOL}
# (the loader's protocol_map; a fixture states it, never derives it), and
# its listeners the protocols m gives them.
with_protocol_map(node, m) := object.union(object.remove(node, ["protocol_map"]), {
	"protocol_map": m,
	"listeners": [object.union(l, {"protocol": object.get(m, l.name, "")}) | some l in node.listeners],
	"advertised_listeners": [object.union(l, {"protocol": object.get(m, l.name, "")}) | some l in node.advertised_listeners],
})

# with_controller_names gives node controller.listener.names=raw at line.
with_controller_names(node, raw, line) := object.union(node, {
	"controller_listener_names": split(raw, ","),
	"settings": {"controller.listener.names": list_setting(node.file, "controller.listener.names", raw, line)},
})

# with_settings adds [[key, value, line], ...] to node's settings (line 0:
# Kafka's default).
with_settings(node, entries) := object.union(node, {"settings": settings(node.file, entries)})

# meta builds a meta.properties of node_file ("" when it belongs to no
# certain node config).
meta(file, node_file, entries) := {
	"file": file,
	"environment": "production",
	"node_file": node_file,
	"settings": settings(file, entries),
}

# with_bootstrap_servers gives client bootstrap.servers=raw at line.
with_bootstrap_servers(client, raw, line) := object.union(client, {
	"bootstrap_servers": [endpoint(client.file, line, e) | some e in split(raw, ",")],
	"settings": {"bootstrap.servers": list_setting(client.file, "bootstrap.servers", raw, line)},
})

# full_cluster wraps nodes, clients, meta.properties files and topics into a
# cluster model.
full_cluster(nodes, clients, metas, topics) := object.union(cluster(nodes, clients), {
	"files": array.concat(cluster(nodes, clients).files, [source_file(m.file, "meta") | some m in metas]),
	"meta": metas,
	"topics": topics,
})

# finding_related is the expected finding at file:line about key, with
# related locations given as [[file, line], ...].
finding_related(file, line, key, message, related) := object.union(finding(file, line, key, message), {"related": [
{"file": r[0], "line": r[1], "column": 1} |
	some r in related
]})

# with_setting replaces (or adds) one setting of a unit, e.g. an
# unknown_setting in place of a default (object.union would keep the old
# value), and states the unit's flagged_keys for its settings as the loader
# does (loader.flaggedKeys: an index of the settings the rules that look
# for these read, not a Kafka fact).
with_setting(unit, s) := object.union(object.remove(unit, ["settings", "flagged_keys"]), _with_flagged_keys(settings)) if {
	settings := object.union(object.remove(unit.settings, [s.key]), {s.key: s})
}

_with_flagged_keys(settings) := {"settings": settings, "flagged_keys": keys} if {
	keys := sort([key | some key, s in settings; _flagged(s)])
	count(keys) > 0
} else := {"settings": settings}

_flagged(s) if s.key_status in {"unknown", "removed"}

_flagged(s) if object.get(s, "invalid", "") != ""

_flagged(s) if s.secret_key

# --- Catalogue annotations, MirrorMaker 2 and topics ---------------------------

# annotated adds catalogue annotations (key_status, suggestion, known_for,
# added_in, removed_after, invalid, type) to a setting; an invalid setting
# has no value, as the loader leaves it.
annotated(s, fields) := object.union(object.remove(s, ["value"]), fields) if fields.invalid

annotated(s, fields) := object.union(s, fields) if not fields.invalid

# mirror_alias is a cluster alias of a MirrorMaker 2 config: declared in
# clusters or not, with its {alias}.bootstrap.servers line (0: not set).
mirror_alias(file, name, declared, bootstrap_line) := object.union(
	{"name": name, "declared": declared, "location": {"file": file, "line": 1, "column": 1}},
	_alias_bootstrap(file, name, bootstrap_line),
)

_alias_bootstrap(_, _, 0) := {}

_alias_bootstrap(file, name, line) := {"bootstrap_servers": setting(file, concat("", [name, ".bootstrap.servers"]), concat("", [lower(name), "-1:9092"]), line)} if line != 0

# mirror_flow is a flow source->target declared at line, enabled or not,
# whose effective settings are settings (a settings object, see settings
# and flow_override).
mirror_flow(file, source, target, enabled, line, flow_settings) := {
	"source": source,
	"target": target,
	"enabled": enabled,
	"location": {"file": file, "line": line, "column": 1},
	"settings": flow_settings,
}

# flow_override is a {source}->{target}.key setting at line, typed by key.
flow_override(file, source, target, key, value, line) := setting(file, sprintf("%s->%s.%s", [source, target, key]), value, line)

# mirror_maker builds a MirrorMaker 2 config.
mirror_maker(file, aliases, flows, entries) := {
	"file": file,
	"environment": "production",
	"location": {"file": file, "line": 1, "column": 1},
	"clusters": [a.name | some a in aliases; a.declared],
	"aliases": aliases,
	"flows": flows,
	"settings": settings(file, entries),
}

# mirror_cluster is the cluster model of MirrorMaker 2 configs evaluated on
# their own.
mirror_cluster(mms) := object.union(cluster([], []), {
	"name": mms[0].file,
	"files": [source_file(m.file, "mirrormaker") | some m in mms],
	"mirror_makers": mms,
})

# topic builds a topic declared at line of file with a replication factor
# setting at rf_line.
topic(file, name, line, rf, rf_line) := {
	"name": name,
	"file": file,
	"environment": "production",
	"location": {"file": file, "line": line, "column": 1},
	"replication_factor": object.union(setting(file, "replication_factor", rf, rf_line), {"type": "int"}),
	"settings": {},
}

# at_version sets a cluster's target Kafka version.
at_version(c, version) := object.union(c, {
	"kafka_version": version,
	"kafka_release": [to_number(p) | some p in array.slice(split(version, "."), 0, 2)],
})

# --- Topics and known cluster sizes ---------------------------------------------

# declared_topic builds a topic declared in file (its block at line 1) with
# replication factor rf written at rf_line (rf_line 0: no replication factor)
# and config entries [[key, value, line], ...].
declared_topic(file, name, rf, rf_line, entries) := object.union(
	{
		"name": name,
		"file": file,
		"environment": "production",
		"location": {"file": file, "line": 1, "column": 1},
		"settings": settings(file, entries),
	},
	_topic_rf(file, rf, rf_line),
)

_topic_rf(_, _, 0) := {}

_topic_rf(file, rf, line) := {"replication_factor": object.union(setting(file, "replication.factor", rf, line), {"type": "int"})} if line != 0

# with_broker_count gives a cluster a broker count stated at file:line.
with_broker_count(cluster, n, file, line) := object.union(cluster, {"broker_count": {
	"value": n,
	"text": sprintf("%v", [n]),
	"source": "aws_msk_cluster.number_of_broker_nodes",
	"location": {"file": file, "line": line, "column": 1},
}})

# with_managed_keys marks keys of node as set by the platform (Amazon MSK).
with_managed_keys(node, keys) := object.union(node, {"managed_keys": keys})
