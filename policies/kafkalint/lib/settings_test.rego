package kafkalint.lib.settings_test

import data.kafkalint.lib.settings
import data.kafkalint.lib.testing as t

_f := "server.properties"

_written := t.setting(_f, "min.insync.replicas", 2, 4)

_default := t.default_setting(_f, "min.insync.replicas", 1)

_placeholder := t.unknown_setting(_f, "min.insync.replicas", "${env:MIN_ISR}", 4)

_invalid := object.remove(object.union(_written, {"invalid": "Value must be at least 1"}), ["value"])

_platform := object.union(_written, {"source": "platform"})

_node(s) := object.union(t.node(_f, ["broker"], []), {"settings": {s.key: s}})

test_explicit if {
	settings.explicit(_node(_written), "min.insync.replicas")
	settings.explicit(_node(_placeholder), "min.insync.replicas")
	not settings.explicit(_node(_default), "min.insync.replicas")
	not settings.explicit(_node(_written), "default.replication.factor")
}

test_explicit_value if {
	settings.explicit_value(_written)
	settings.explicit_value(t.setting(_f, "log.dirs", "", 3)) # empty is a value
	not settings.explicit_value(_default)
	not settings.explicit_value(_placeholder)
	not settings.explicit_value(_invalid)
	not settings.explicit_value(object.union(_written, {"value": null}))
}

test_known if {
	settings.known(_node(_written), _written)
	settings.known(_node(_default), _default)
	not settings.known(_node(_placeholder), _placeholder)
	not settings.known(_node(_invalid), _invalid)
	not settings.known(_node(_platform), _platform)
}

test_known_default_of_a_managed_key_is_not if {
	node := t.with_managed_keys(_node(_default), ["min.insync.replicas"])
	not settings.known(node, _default)
	settings.known(t.with_managed_keys(_node(_written), ["min.insync.replicas"]), _written)
}

test_notes if {
	settings.default_note(_default) == " (Kafka's default)"
	settings.default_note(_written) == ""
	settings.unset_note(_default) == " (Kafka's default, not set in the file)"
	settings.unset_note(_written) == ""
}

test_shown if {
	settings.shown(_written) == "min.insync.replicas=2"
	settings.shown(_default) == "min.insync.replicas=1 (Kafka's default)"
	settings.shown_unset(_written) == "min.insync.replicas=2"
	settings.shown_unset(_default) == "min.insync.replicas=1 (Kafka's default, not set in the file)"
	settings.shown(t.setting(_f, "unclean.leader.election.enable", true, 5)) == "unclean.leader.election.enable=true"
	not settings.shown(_platform)
	not settings.shown_unset(_platform)
}

_at(s, file, line) := object.union(s, {"location": {"file": file, "line": line, "column": 1}})

test_agreed_written if {
	a := _node(_at(_written, "b.properties", 4))
	b := _node(_at(_written, "a.properties", 7))
	c := _node(_at(_default, "c.properties", 1))
	settings.agreed([a, b], "min.insync.replicas") == {
		"value": 2,
		"locations": [
			{"file": "a.properties", "line": 7, "column": 1},
			{"file": "b.properties", "line": 4, "column": 1},
		],
		"text": "min.insync.replicas=2 inherited from the cluster's nodes",
	}
	settings.agreed([a, object.union(c, {"settings": {"min.insync.replicas": _at(t.default_setting(_f, "min.insync.replicas", 2), "c.properties", 1)}})], "min.insync.replicas").text == "min.insync.replicas=2 inherited from the cluster's nodes"
}

test_agreed_defaults if {
	agreed := settings.agreed([_node(_default), _node(_default)], "min.insync.replicas")
	agreed.value == 1
	agreed.locations == [_default.location]
	agreed.text == "min.insync.replicas=1 inherited from the cluster (Kafka's default, not set on its nodes)"
}

test_agreed_undefined if {
	not settings.agreed([], "min.insync.replicas")
	not settings.agreed([_node(_written), _node(_default)], "min.insync.replicas")
	not settings.agreed([_node(_written), _node(_placeholder)], "min.insync.replicas")
	not settings.agreed([_node(_written), t.with_managed_keys(_node(_default), ["min.insync.replicas"])], "min.insync.replicas")
	not settings.agreed([_node(_written), t.node(_f, ["broker"], [])], "min.insync.replicas")
}
