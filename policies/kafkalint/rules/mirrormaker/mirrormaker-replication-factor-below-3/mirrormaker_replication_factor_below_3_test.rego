package kafkalint.rules.mirrormaker["mirrormaker-replication-factor-below-3_test"]

import data.kafkalint.lib.testing as t
import data.kafkalint.rules.mirrormaker["mirrormaker-replication-factor-below-3"] as rule

_f := "mm2.properties"

_aliases := [t.mirror_alias(_f, "A", true, 2), t.mirror_alias(_f, "B", true, 3)]

_settings(entries) := object.union(
	t.settings(_f, [
		["replication.factor", 3, 6],
		["checkpoints.topic.replication.factor", 3, 0],
		["heartbeats.topic.replication.factor", 3, 0],
		["offset-syncs.topic.replication.factor", 3, 0],
	]),
	t.settings(_f, entries),
)

_mm(settings, entries) := t.mirror_maker(_f, _aliases, [t.mirror_flow(_f, "A", "B", true, 4, settings), t.mirror_flow(_f, "B", "A", true, 5, settings)], entries)

test_fail_default_replication_factor_two if {
	mm := _mm(_settings([["replication.factor", 2, 0]]), [])
	rule.report == {object.union(t.finding(_f, 1, "replication.factor", "replication.factor=2 (Kafka's default) on flows A->B, B->A: replicated topics have only 2 replicas"), {
		"why": "The replicated topics on the target get 2 replicas on flows A->B, B->A: one broker down on that cluster leaves a single copy that a second failure loses, exactly when a failover needs it.",
		"fix": "Set replication.factor=3.",
	})} with input as t.mirror_cluster([mm])
}

test_fail_checkpoints_topic_one if {
	mm := _mm(_settings([["checkpoints.topic.replication.factor", 1, 9]]), [])
	rule.report == {object.union(t.finding(_f, 9, "checkpoints.topic.replication.factor", "checkpoints.topic.replication.factor=1 on flows A->B, B->A: the checkpoints topic has a single replica"), {
		"why": "The checkpoints topic (the translated offsets consumer failover reads) gets 1 replica on flows A->B, B->A: one broker down on that cluster makes that data unavailable and a lost disk loses it, exactly when a failover needs it.",
		"fix": "Set checkpoints.topic.replication.factor=3.",
	})} with input as t.mirror_cluster([mm])
}

test_fail_connect_offsets_topic_one if {
	mm := _mm(_settings([]), [["offset.storage.replication.factor", "1", 12]])
	rule.report == {object.union(t.finding(_f, 12, "offset.storage.replication.factor", "offset.storage.replication.factor=1: the Connect offsets topic has a single replica"), {
		"why": "The Connect offsets topic (MirrorMaker 2's replication progress) gets 1 replica: one broker down makes that data unavailable and a lost disk loses it, exactly when a failover needs it.",
		"fix": "Set offset.storage.replication.factor=3.",
	})} with input as t.mirror_cluster([mm])
}

# A flow's own override names its flow, and it is the override the fix
# raises (the top-level key would not change it).
test_fail_flow_override if {
	override := t.flow_override(_f, "A", "B", "replication.factor", 1, 7)
	mm := t.mirror_maker(_f, _aliases, [t.mirror_flow(_f, "A", "B", true, 4, object.union(_settings([]), {"replication.factor": override}))], [])
	some f in rule.report with input as t.mirror_cluster([mm])
	f.message == "A->B.replication.factor=1: replicated topics have a single replica"
	f.fix == "Set A->B.replication.factor=3."
}

test_success_three_everywhere if {
	count(rule.report) == 0 with input as t.mirror_cluster([_mm(_settings([]), [["offset.storage.replication.factor", "3", 12]])])
}

test_success_broker_default if {
	count(rule.report) == 0 with input as t.mirror_cluster([_mm(_settings([["replication.factor", -1, 6]]), [])])
}

test_success_flows_disabled if {
	mm := t.mirror_maker(_f, _aliases, [t.mirror_flow(_f, "A", "B", false, 4, _settings([["replication.factor", 1, 6]]))], [])
	count(rule.report) == 0 with input as t.mirror_cluster([mm])
}

test_success_unknown_placeholder if {
	settings := object.union(object.remove(_settings([]), ["replication.factor"]), {"replication.factor": t.unknown_setting(_f, "replication.factor", "${env:RF}", 6)})
	count(rule.report) == 0 with input as t.mirror_cluster([_mm(settings, [["offset.storage.replication.factor", "${env:RF}", 12]])])
}

# Built with the loader (kafkalint.parse), not fixtures: replication.factor=1.
test_loader_mirrormaker_replication_factor_below_3 if {
	reports := rule.report with input as kafkalint.parse("", "prod/mm2.properties", `clusters=primary, backup
primary.bootstrap.servers=p1:9092
backup.bootstrap.servers=b1:9092
primary->backup.enabled=true
replication.factor=1
`)
	{[f.location.file, f.location.line, object.get(f, "key", "")] | some f in reports} == {["prod/mm2.properties", 5, "replication.factor"]}
}
