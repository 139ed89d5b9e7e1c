package kafkalint.rules.mirrormaker["mirrormaker-failover-interval-too-long_test"]

import data.kafkalint.lib.testing as t
import data.kafkalint.rules.mirrormaker["mirrormaker-failover-interval-too-long"] as rule

_f := "mm2.properties"

_aliases := [t.mirror_alias(_f, "A", true, 2), t.mirror_alias(_f, "B", true, 3)]

_settings(entries) := object.union(
	t.settings(_f, [
		["emit.checkpoints.enabled", true, 0],
		["emit.checkpoints.interval.seconds", 60, 0],
		["sync.group.offsets.enabled", false, 0],
		["sync.group.offsets.interval.seconds", 60, 0],
	]),
	t.settings(_f, entries),
)

_mm(settings) := t.mirror_maker(_f, _aliases, [t.mirror_flow(_f, "A", "B", true, 4, settings)], [])

test_fail_checkpoint_interval if {
	mm := _mm(_settings([["emit.checkpoints.interval.seconds", 600, 8]]))
	rule.report == {object.union(t.finding(_f, 8, "emit.checkpoints.interval.seconds", "emit.checkpoints.interval.seconds=600 on flow A->B: a failover replays up to about 10 minutes"), {
		"why": "Consumer-group checkpoints reach the target only every 600 seconds (about 10 minutes) on flow A->B, so consumers that fail over resume at a position up to 600 seconds (about 10 minutes) old and re-process that much data. Offset translation is approximate and at-least-once anyway, and records not yet replicated when the source fails are lost: that lag is the RPO.",
		"fix": "Keep it at 60 seconds or less.",
	})} with input as t.mirror_cluster([mm])
}

test_fail_sync_interval_when_sync_on if {
	mm := _mm(_settings([["sync.group.offsets.enabled", true, 7], ["sync.group.offsets.interval.seconds", 90, 8]]))
	rule.report == {object.union(t.finding(_f, 8, "sync.group.offsets.interval.seconds", "sync.group.offsets.interval.seconds=90 on flow A->B: a failover replays up to 90 seconds"), {
		"why": "Translated consumer-group offsets are written to the target only every 90 seconds on flow A->B, so consumers that fail over resume at a position up to 90 seconds old and re-process that much data. Offset translation is approximate and at-least-once anyway, and records not yet replicated when the source fails are lost: that lag is the RPO.",
		"fix": "Keep it at 60 seconds or less.",
	})} with input as t.mirror_cluster([mm])
}

# A longer limit set with --data is the fix's.
test_fail_limit_from_data if {
	mm := _mm(_settings([["emit.checkpoints.interval.seconds", 600, 8]]))
	some f in rule.report with input as t.mirror_cluster([mm])
		with data.kafkalint.params.mirrormaker.max_checkpoint_interval_seconds as 300
	f.fix == "Keep it at 300 seconds or less."
}

test_success_sync_interval_when_sync_off if {
	mm := _mm(_settings([["sync.group.offsets.interval.seconds", 900, 8]]))
	count(rule.report) == 0 with input as t.mirror_cluster([mm])
}

test_success_defaults if {
	count(rule.report) == 0 with input as t.mirror_cluster([_mm(_settings([]))])
}

test_success_flow_disabled if {
	mm := t.mirror_maker(_f, _aliases, [t.mirror_flow(_f, "A", "B", false, 4, _settings([["emit.checkpoints.interval.seconds", 600, 8]]))], [])
	count(rule.report) == 0 with input as t.mirror_cluster([mm])
}

test_success_unknown_placeholder if {
	settings := object.union(object.remove(_settings([]), ["emit.checkpoints.interval.seconds"]), {"emit.checkpoints.interval.seconds": t.unknown_setting(_f, "emit.checkpoints.interval.seconds", "${env:CP}", 8)})
	count(rule.report) == 0 with input as t.mirror_cluster([_mm(settings)])
}

# Built with the loader (kafkalint.parse), not fixtures: checkpoints every five minutes.
test_loader_mirrormaker_failover_interval_too_long if {
	reports := rule.report with input as kafkalint.parse("", "prod/mm2.properties", `clusters=primary, backup
primary.bootstrap.servers=p1:9092
backup.bootstrap.servers=b1:9092
primary->backup.enabled=true
emit.checkpoints.interval.seconds=300
`)
	{[f.location.file, f.location.line, object.get(f, "key", "")] | some f in reports} == {["prod/mm2.properties", 5, "emit.checkpoints.interval.seconds"]}
}
