# METADATA
# title: MirrorMaker 2 checkpoint or offset sync interval above a minute
# description: |
#   Consumers that fail over resume at the last checkpointed (and, with
#   sync.group.offsets.enabled, the last synced) offset. With
#   emit.checkpoints.interval.seconds or sync.group.offsets.interval.seconds
#   above Kafka's default of 60, that position can be that much older, so
#   consumers re-process that many more seconds of records after a failover.
# related_resources:
#   - description: Kafka docs, geo-replication (MirrorMaker 2)
#     ref: https://kafka.apache.org/documentation/#georeplication
# schemas:
#   - input: schema.cluster
# custom:
#   id: KFK7006
#   severity: warning
#   scope: all
#   applies_to: [mirrormaker]
#   keys:
#     - emit.checkpoints.enabled
#     - emit.checkpoints.interval.seconds
#     - sync.group.offsets.enabled
#     - sync.group.offsets.interval.seconds
#   since: unreleased
#   fix: |
#     Keep emit.checkpoints.interval.seconds and
#     sync.group.offsets.interval.seconds at 60 seconds or less (shorter
#     intervals cost a few more small writes to the target).
package kafkalint.rules.mirrormaker["mirrormaker-failover-interval-too-long"]

import data.kafkalint.lib.result

# An interval counts only where its feature is on for an enabled flow. One
# finding per setting, naming the flows that use it.
report contains result.explain(
	result.fail(s, _message(s.key, sprintf("%s=%d", [s.key, s.value]), flows, sprintf("a failover replays up to %s", [_brief(s.value)]))),
	sprintf(
		"%s only every %s on %s, so consumers that fail over resume at a position up to %s old and re-process that much data. Offset translation is approximate and at-least-once anyway, and records not yet replicated when the source fails are lost: that lag is the RPO.",
		[_what[interval_key], _duration(s.value), _flows_text(flows), _duration(s.value)],
	),
	sprintf("Keep it at %d seconds or less.", [_max[interval_key]]),
) if {
	some mm in input.mirror_makers
	some interval_key, feature_key in _features
	some s in {f.settings[interval_key] | some f in mm.flows; _active(f, feature_key)}
	is_number(s.value)
	s.value > _max[interval_key]
	flows := sort({sprintf("%s->%s", [f.source, f.target]) | some f in mm.flows; _active(f, feature_key); f.settings[interval_key] == s})
}

# _message is "{setting}: {tail}" for a flow's own override (its key names
# the flow), else "{setting} on flow(s) ...: {tail}", or with the number of
# flows when their list does not fit (the why names them).
_message(key, setting, _, tail) := sprintf("%s: %s", [setting, tail]) if contains(key, "->")

_message(key, setting, flows, tail) := m if {
	not contains(key, "->")
	m := sprintf("%s on %s: %s", [setting, _flows_text(flows), tail])
	count(m) <= 120
} else := sprintf("%s on %d flows: %s", [setting, count(flows), tail]) if not contains(key, "->")

_flows_text(flows) := sprintf("flow %s", [flows[0]]) if count(flows) == 1

_flows_text(flows) := sprintf("flows %s", [concat(", ", flows)]) if count(flows) > 1

_features := {
	"emit.checkpoints.interval.seconds": "emit.checkpoints.enabled",
	"sync.group.offsets.interval.seconds": "sync.group.offsets.enabled",
}

# _max are the longest intervals allowed: Kafka's default of 60 seconds
# unless a --data file sets the mirrormaker parameters.
_max := {
	"emit.checkpoints.interval.seconds": data.kafkalint.params.mirrormaker.max_checkpoint_interval_seconds,
	"sync.group.offsets.interval.seconds": data.kafkalint.params.mirrormaker.max_sync_interval_seconds,
}

_what := {
	"emit.checkpoints.interval.seconds": "Consumer-group checkpoints reach the target",
	"sync.group.offsets.interval.seconds": "Translated consumer-group offsets are written to the target",
}

_active(f, feature_key) if {
	f.enabled
	f.settings[feature_key].value == true
}

_duration(seconds) := sprintf("%d seconds", [seconds]) if seconds < 120

_duration(seconds) := sprintf("%d seconds (about %d minutes)", [seconds, round(seconds / 60)]) if seconds >= 120

# _brief is _duration for a message: the seconds or the minutes.
_brief(seconds) := sprintf("%d seconds", [seconds]) if seconds < 120

_brief(seconds) := sprintf("about %d minutes", [round(seconds / 60)]) if seconds >= 120
