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
package kafkalint.rules.mirrormaker["mirrormaker-group-offset-sync-ineffective"]

import data.kafkalint.lib.result
import data.kafkalint.lib.version

# From 3.9 checkpoints off is KFK7004's error (the connector is rejected),
# so only older versions report it here. An absent groups means ".*".
report contains result.fail(s, message) if {
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
	message := sprintf(
		"%s=true on flow %s, but %s, so no consumer-group offset is synced and consumers failing over to the target restart from auto.offset.reset instead of near their last position; %s",
		[s.key, concat(", ", flows), _text[reason], _fix[reason]],
	)
}

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

_fix := {
	"checkpoints": "remove emit.checkpoints.enabled=false (the default is true)",
	"groups": "list the consumer groups to replicate in groups (the default .* selects all but the excluded ones)",
}
