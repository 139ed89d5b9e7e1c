package kafkalint.rules.mirrormaker["mirrormaker-group-offset-sync-ineffective_test"]

import data.kafkalint.lib.testing as t
import data.kafkalint.rules.mirrormaker["mirrormaker-group-offset-sync-ineffective"] as rule

_f := "mm2.properties"

_aliases := [t.mirror_alias(_f, "A", true, 2), t.mirror_alias(_f, "B", true, 3)]

_sync := t.setting(_f, "sync.group.offsets.enabled", true, 7)

_settings(entries) := object.union(
	t.settings(_f, [["emit.checkpoints.enabled", true, 0], ["groups", [".*"], 0]]),
	object.union({"sync.group.offsets.enabled": _sync}, t.settings(_f, entries)),
)

_mm(settings, enabled) := t.mirror_maker(_f, _aliases, [t.mirror_flow(_f, "A", "B", enabled, 4, settings)], [])

test_fail_checkpoints_off_before_3_9 if {
	mm := _mm(_settings([["emit.checkpoints.enabled", false, 8]]), true)
	rule.report == {object.union(t.finding(_f, 7, "sync.group.offsets.enabled", "sync.group.offsets.enabled=true on flow A->B: emit.checkpoints.enabled=false, so nothing is synced"), {
		"why": "On flow A->B, emit.checkpoints.enabled=false turns off the checkpoint connector that performs the sync, so no consumer-group offset is synced and consumers failing over to the target restart from auto.offset.reset instead of near their last position.",
		"fix": "Remove emit.checkpoints.enabled=false (the default is true).",
	})} with input as t.at_version(t.mirror_cluster([mm]), "3.8")
}

test_success_checkpoints_off_from_3_9_is_another_rule if {
	mm := _mm(_settings([["emit.checkpoints.enabled", false, 8]]), true)
	count(rule.report) == 0 with input as t.at_version(t.mirror_cluster([mm]), "3.9")
}

test_fail_empty_groups if {
	mm := _mm(_settings([["groups", [], 8]]), true)
	rule.report == {object.union(t.finding(_f, 7, "sync.group.offsets.enabled", "sync.group.offsets.enabled=true on flow A->B: groups is empty, so nothing is synced"), {
		"why": "On flow A->B, groups is empty and selects no consumer group, so no consumer-group offset is synced and consumers failing over to the target restart from auto.offset.reset instead of near their last position.",
		"fix": "List the consumer groups to replicate in groups (the default .* selects all but the excluded ones).",
	})} with input as t.mirror_cluster([mm])
}

# A flow's own override names its flow: the message does not repeat it.
test_fail_flow_override if {
	sync := t.flow_override(_f, "A", "B", "sync.group.offsets.enabled", true, 9)
	settings := object.union(_settings([["groups", [], 8]]), {"sync.group.offsets.enabled": sync})
	some f in rule.report with input as t.mirror_cluster([_mm(settings, true)])
	f.message == "A->B.sync.group.offsets.enabled=true: groups is empty, so nothing is synced"
}

test_success_sync_with_checkpoints_and_default_groups if {
	count(rule.report) == 0 with input as t.mirror_cluster([_mm(_settings([]), true)])
}

test_success_flow_disabled if {
	count(rule.report) == 0 with input as t.mirror_cluster([_mm(_settings([["groups", [], 8]]), false)])
}

test_success_sync_absent if {
	settings := object.union(object.remove(_settings([["groups", [], 8]]), ["sync.group.offsets.enabled"]), t.settings(_f, [["sync.group.offsets.enabled", false, 0]]))
	count(rule.report) == 0 with input as t.mirror_cluster([_mm(settings, true)])
}

test_success_unknown_placeholder if {
	settings := object.union(object.remove(_settings([["groups", [], 8]]), ["sync.group.offsets.enabled"]), {"sync.group.offsets.enabled": t.unknown_setting(_f, "sync.group.offsets.enabled", "${env:SYNC}", 7)})
	count(rule.report) == 0 with input as t.mirror_cluster([_mm(settings, true)])
}

# Built with the loader (kafkalint.parse), not fixtures: group offset sync with no groups.
test_loader_mirrormaker_group_offset_sync_ineffective if {
	reports := rule.report with input as kafkalint.parse("", "prod/mm2.properties", `clusters=primary, backup
primary.bootstrap.servers=p1:9092
backup.bootstrap.servers=b1:9092
primary->backup.enabled=true
sync.group.offsets.enabled=true
groups=
`)
	{[f.location.file, f.location.line, object.get(f, "key", "")] | some f in reports} == {["prod/mm2.properties", 5, "sync.group.offsets.enabled"]}
}
