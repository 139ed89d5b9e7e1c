# METADATA
# title: Test fixtures
# description: Builders for cluster-model fixtures used by the rule tests.
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
}

# cluster wraps nodes and clients into a cluster model.
cluster(nodes, clients) := {
	"name": "test",
	"kafka_version": "4.3",
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
