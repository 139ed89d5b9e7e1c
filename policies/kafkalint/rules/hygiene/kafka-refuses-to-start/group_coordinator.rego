package kafkalint.rules.hygiene["kafka-refuses-to-start"]

import data.kafkalint.lib.result
import data.kafkalint.lib.settings
import data.kafkalint.lib.version

# Consumer, share and streams group limits (GroupCoordinatorConfig;
# KafkaConfig in 3.8): the session timeouts and heartbeat intervals, the
# streams standby replicas (4.1+), the assignment intervals (4.3+) and the
# share group's single assignor (4.1+).

# Each pair is checked when the file writes at least one of its keys; an
# absent key has Kafka's default (the same in 3.8-4.3). Kafka checks these
# for every role, in the GroupCoordinatorConfig constructor. Share groups
# (group.share.*) are checked from 4.0 on and streams groups
# (group.streams.*) from 4.1 on, with the same shape; each pair starts with
# the Kafka release that documents its keys (an older release ignores them
# as unknown).
report contains _refused(result.fail(anchor, message), context, _group_words(pair), fix) if {
	some node in input.nodes

	# Most nodes write none of these keys, and with Kafka's defaults on
	# both sides every pair holds: they are skipped before the pairs are
	# looked at (they were most of this rule's time).
	_writes_group_key(node)
	some pair in _group_pairs
	input.kafka_release >= pair[3]
	a := _number(node, pair[0], _group_defaults[pair[0]])
	b := _number(node, pair[2], _group_defaults[pair[2]])
	not _holds(a.value, pair[1], b.value)
	anchor := _pair_anchor(a, b)
	message := sprintf("%s=%d is not %s %s=%d", [pair[0], a.value, pair[1], pair[2], b.value])
	context := sprintf(
		"Kafka checks every group coordinator limit against its min/max pair when the node starts.%s",
		[_defaults_sentence(_number_defaults([[pair[0], a], [pair[2], b]]))],
	)
	fix := sprintf("%s (keep every group coordinator limit within its min/max pair).", [_group_fix(pair, a.value, b.value)])
}

# A share group has one assignor (4.1+, GroupCoordinatorConfig: require
# shareGroupAssignors.size() == 1). Only distinct, non-empty entries are
# counted: an empty entry or a duplicate is refused too, but with another
# message (a class that cannot be found, or the list validator's).
report contains _refused(result.fail(s, message), context, words, fix) if {
	version.at_least(4, 1)
	some node in input.nodes
	s := node.settings["group.share.assignors"]
	settings.explicit_value(s)
	entries := _entries(s.raw)
	count(entries) > 1
	count({e | some e in entries}) == count(entries)
	message := sprintf("group.share.assignors=%s names %d assignors, not one", [trim_space(s.raw), count(entries)])
	context := "Every share group uses the one assignor of group.share.assignors."
	words := sprintf("group.share.assignors must contain exactly one assignor, but found %d", [count(entries)])
	fix := "Keep exactly one, the one every share group uses: simple (the default) or one custom class."
}

# --- helpers ------------------------------------------------------------------

_group_defaults := {
	"group.consumer.session.timeout.ms": 45000,
	"group.consumer.min.session.timeout.ms": 45000,
	"group.consumer.max.session.timeout.ms": 60000,
	"group.consumer.heartbeat.interval.ms": 5000,
	"group.consumer.min.heartbeat.interval.ms": 5000,
	"group.consumer.max.heartbeat.interval.ms": 15000,
	"group.share.session.timeout.ms": 45000,
	"group.share.min.session.timeout.ms": 45000,
	"group.share.max.session.timeout.ms": 60000,
	"group.share.heartbeat.interval.ms": 5000,
	"group.share.min.heartbeat.interval.ms": 5000,
	"group.share.max.heartbeat.interval.ms": 15000,
	"group.streams.session.timeout.ms": 45000,
	"group.streams.min.session.timeout.ms": 45000,
	"group.streams.max.session.timeout.ms": 60000,
	"group.streams.heartbeat.interval.ms": 5000,
	"group.streams.min.heartbeat.interval.ms": 5000,
	"group.streams.max.heartbeat.interval.ms": 15000,
	"group.streams.num.standby.replicas": 0,
	"group.streams.max.standby.replicas": 2,
	"group.consumer.assignment.interval.ms": 1000,
	"group.consumer.min.assignment.interval.ms": 0,
	"group.consumer.max.assignment.interval.ms": 15000,
	"group.share.assignment.interval.ms": 1000,
	"group.share.min.assignment.interval.ms": 0,
	"group.share.max.assignment.interval.ms": 15000,
	"group.streams.assignment.interval.ms": 1000,
	"group.streams.min.assignment.interval.ms": 0,
	"group.streams.max.assignment.interval.ms": 15000,
}

# _writes_group_key holds when a node writes one of the keys: a lookup per
# key, cheaper than the set of the node's keys (object.keys) intersected
# with them.
_writes_group_key(node) if {
	some key, _ in _group_defaults
	node.settings[key]
}

# [a, op, b, [major, minor]]: from that Kafka version, Kafka requires a op b.
_group_pairs := [
	["group.consumer.max.heartbeat.interval.ms", ">=", "group.consumer.min.heartbeat.interval.ms", [3, 0]],
	["group.consumer.heartbeat.interval.ms", ">=", "group.consumer.min.heartbeat.interval.ms", [3, 0]],
	["group.consumer.heartbeat.interval.ms", "<=", "group.consumer.max.heartbeat.interval.ms", [3, 0]],
	["group.consumer.max.session.timeout.ms", ">=", "group.consumer.min.session.timeout.ms", [3, 0]],
	["group.consumer.session.timeout.ms", ">=", "group.consumer.min.session.timeout.ms", [3, 0]],
	["group.consumer.session.timeout.ms", "<=", "group.consumer.max.session.timeout.ms", [3, 0]],
	["group.consumer.heartbeat.interval.ms", "<", "group.consumer.session.timeout.ms", [4, 0]],
	["group.share.max.heartbeat.interval.ms", ">=", "group.share.min.heartbeat.interval.ms", [4, 0]],
	["group.share.heartbeat.interval.ms", ">=", "group.share.min.heartbeat.interval.ms", [4, 0]],
	["group.share.heartbeat.interval.ms", "<=", "group.share.max.heartbeat.interval.ms", [4, 0]],
	["group.share.max.session.timeout.ms", ">=", "group.share.min.session.timeout.ms", [4, 0]],
	["group.share.session.timeout.ms", ">=", "group.share.min.session.timeout.ms", [4, 0]],
	["group.share.session.timeout.ms", "<=", "group.share.max.session.timeout.ms", [4, 0]],
	["group.share.heartbeat.interval.ms", "<", "group.share.session.timeout.ms", [4, 0]],
	["group.streams.max.heartbeat.interval.ms", ">=", "group.streams.min.heartbeat.interval.ms", [4, 1]],
	["group.streams.heartbeat.interval.ms", ">=", "group.streams.min.heartbeat.interval.ms", [4, 1]],
	["group.streams.heartbeat.interval.ms", "<=", "group.streams.max.heartbeat.interval.ms", [4, 1]],
	["group.streams.max.session.timeout.ms", ">=", "group.streams.min.session.timeout.ms", [4, 1]],
	["group.streams.session.timeout.ms", ">=", "group.streams.min.session.timeout.ms", [4, 1]],
	["group.streams.session.timeout.ms", "<=", "group.streams.max.session.timeout.ms", [4, 1]],
	["group.streams.heartbeat.interval.ms", "<", "group.streams.session.timeout.ms", [4, 1]],
	["group.streams.num.standby.replicas", "<=", "group.streams.max.standby.replicas", [4, 1]],
	["group.consumer.max.assignment.interval.ms", ">=", "group.consumer.min.assignment.interval.ms", [4, 3]],
	["group.consumer.assignment.interval.ms", ">=", "group.consumer.min.assignment.interval.ms", [4, 3]],
	["group.consumer.assignment.interval.ms", "<=", "group.consumer.max.assignment.interval.ms", [4, 3]],
	["group.share.max.assignment.interval.ms", ">=", "group.share.min.assignment.interval.ms", [4, 3]],
	["group.share.assignment.interval.ms", ">=", "group.share.min.assignment.interval.ms", [4, 3]],
	["group.share.assignment.interval.ms", "<=", "group.share.max.assignment.interval.ms", [4, 3]],
	["group.streams.max.assignment.interval.ms", ">=", "group.streams.min.assignment.interval.ms", [4, 3]],
	["group.streams.assignment.interval.ms", ">=", "group.streams.min.assignment.interval.ms", [4, 3]],
	["group.streams.assignment.interval.ms", "<=", "group.streams.max.assignment.interval.ms", [4, 3]],
]

# _group_fix: the two ways to make a op b hold, with the values that do.
_group_fix(pair, a, b) := sprintf("Raise %s to at least %d, or lower %s to at most %d", [pair[0], b, pair[2], a]) if pair[1] == ">="

_group_fix(pair, a, b) := sprintf("Lower %s to at most %d, or raise %s to at least %d", [pair[0], b, pair[2], a]) if pair[1] == "<="

_group_fix(pair, a, b) := sprintf("Lower %s below %d, or raise %s above %d", [pair[0], b, pair[2], a]) if pair[1] == "<"

_holds(a, ">=", b) if a >= b

_holds(a, "<=", b) if a <= b

_holds(a, "<", b) if a < b

# Kafka's words: "equals to" up to 3.9, "equal to" from 4.0.
_group_words(pair) := sprintf("%s must be less than %s", [pair[0], pair[2]]) if pair[1] == "<"

_group_words(pair) := sprintf("%s must be %s %s", [pair[0], _relation(pair[1]), pair[2]]) if pair[1] != "<"

_relation(">=") := "greater than or equal to" if version.at_least(4, 0)

_relation(">=") := "greater than or equals to" if not version.at_least(4, 0)

_relation("<=") := "less than or equal to" if version.at_least(4, 0)

_relation("<=") := "less than or equals to" if not version.at_least(4, 0)
