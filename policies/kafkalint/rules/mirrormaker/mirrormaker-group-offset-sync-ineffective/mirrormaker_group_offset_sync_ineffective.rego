# METADATA
# title: MirrorMaker 2 group offset sync that cannot work
# description: |
#   sync.group.offsets.enabled=true writes translated consumer-group offsets
#   to the target so consumers can fail over and resume where they were. It
#   works only through the checkpoint connector, on the groups that groups
#   selects: with checkpoints off or an empty groups list it silently syncs
#   nothing.
# related_resources:
#   - description: Kafka docs, geo-replication (MirrorMaker 2)
#     ref: https://kafka.apache.org/documentation/#georeplication
# schemas:
#   - input: schema.cluster
# custom:
#   id: KFK7005
#   severity: warning
#   scope: all
#   applies_to: [mirrormaker]
#   keys: [sync.group.offsets.enabled, emit.checkpoints.enabled, groups]
#   since: unreleased
#   fix: |
#     Keep checkpoints on (remove emit.checkpoints.enabled=false) and list
#     the consumer groups to replicate in groups, or remove the line (the
#     default .* selects every group but the excluded ones).
package kafkalint.rules.mirrormaker["mirrormaker-group-offset-sync-ineffective"]

import data.kafkalint.lib.result
import data.kafkalint.lib.version

# From 3.9 checkpoints off is KFK7004's error (the connector is rejected),
# so only older versions report it here. An absent groups means ".*".
report contains result.explain(
	result.fail(s, _message(s.key, sprintf("%s=true", [s.key]), flows, _short[reason])),
	sprintf(
		"On %s, %s, so no consumer-group offset is synced and consumers failing over to the target restart from auto.offset.reset instead of near their last position.",
		[_flows_text(flows), _text[reason]],
	),
	_fix[reason],
) if {
	some mm in input.mirror_makers
	some s in {f.settings["sync.group.offsets.enabled"] | some f in mm.flows; f.enabled}
	s.value == true
	some reason in {r |
		some f in mm.flows
		f.enabled
		f.settings["sync.group.offsets.enabled"] == s
		some r in _reasons(f)
	}
	flows := sort({sprintf("%s->%s", [f.source, f.target]) |
		some f in mm.flows
		f.enabled
		f.settings["sync.group.offsets.enabled"] == s
		reason in _reasons(f)
	})
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

_reasons(f) := {r | some r, _ in _text; _applies(f, r)}

_applies(f, "checkpoints") if {
	not version.at_least(3, 9)
	f.settings["emit.checkpoints.enabled"].value == false
}

_applies(f, "groups") if {
	is_array(f.settings.groups.value)
	count(f.settings.groups.value) == 0
}

_text := {
	"checkpoints": "emit.checkpoints.enabled=false turns off the checkpoint connector that performs the sync",
	"groups": "groups is empty and selects no consumer group",
}

_short := {
	"checkpoints": "emit.checkpoints.enabled=false, so nothing is synced",
	"groups": "groups is empty, so nothing is synced",
}

_fix := {
	"checkpoints": "Remove emit.checkpoints.enabled=false (the default is true).",
	"groups": "List the consumer groups to replicate in groups (the default .* selects all but the excluded ones).",
}
