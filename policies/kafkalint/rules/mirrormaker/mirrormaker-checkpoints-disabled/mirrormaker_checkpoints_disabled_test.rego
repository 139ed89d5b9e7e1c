package kafkalint.rules.mirrormaker["mirrormaker-checkpoints-disabled_test"]

import data.kafkalint.lib.testing as t
import data.kafkalint.rules.mirrormaker["mirrormaker-checkpoints-disabled"] as rule

_f := "mm2.properties"

_aliases := [t.mirror_alias(_f, "A", true, 2), t.mirror_alias(_f, "B", true, 3)]

_defaults := t.settings(_f, [["emit.checkpoints.enabled", true, 0], ["emit.offset-syncs.enabled", true, 0], ["sync.group.offsets.enabled", false, 0]])

test_fail_override_on_3_9 if {
	settings := object.union(_defaults, {"emit.checkpoints.enabled": t.flow_override(_f, "A", "B", "emit.checkpoints.enabled", false, 6)})
	mm := t.mirror_maker(_f, _aliases, [t.mirror_flow(_f, "A", "B", true, 4, settings)], [])
	rule.report == {object.union(t.finding(_f, 6, "A->B.emit.checkpoints.enabled", "A->B.emit.checkpoints.enabled=false: Kafka 3.9 rejects the MirrorCheckpointConnector"), {
		"why": "Kafka 3.9 rejects the MirrorCheckpointConnector configuration of flow A->B (\"MirrorCheckpointConnector can't run with emit.checkpoints.enabled set to false\"), so no consumer-group checkpoints reach the target and consumers cannot fail over at translated offsets: they restart from auto.offset.reset, re-reading or skipping data.",
		"fix": "Remove the line (the default is true).",
	})} with input as t.at_version(t.mirror_cluster([mm]), "3.9")
}

test_fail_top_level_offset_syncs_off_for_two_flows if {
	off := t.setting(_f, "emit.offset-syncs.enabled", false, 8)
	sync := t.setting(_f, "sync.group.offsets.enabled", true, 9)
	settings := object.union(_defaults, {"emit.offset-syncs.enabled": off, "sync.group.offsets.enabled": sync})
	mm := t.mirror_maker(_f, _aliases, [t.mirror_flow(_f, "A", "B", true, 4, settings), t.mirror_flow(_f, "B", "A", true, 5, settings)], [])
	rule.report == {object.union(t.finding(_f, 8, "emit.offset-syncs.enabled", "emit.offset-syncs.enabled=false on flows A->B, B->A: Kafka 4.3 rejects the MirrorCheckpointConnector"), {
		"why": "Kafka 4.3 rejects the MirrorCheckpointConnector configuration of flows A->B, B->A (\"... can't run without offset syncs\"), so no consumer-group checkpoints reach the target and consumers cannot fail over at translated offsets: they restart from auto.offset.reset, re-reading or skipping data. sync.group.offsets.enabled=true does nothing without it.",
		"fix": "Remove the line (the default is true).",
	})} with input as t.mirror_cluster([mm])
}

# Flows too many to list in the message are counted there; the why lists
# them.
test_fail_many_flows_counted if {
	names := ["frankfurt", "amsterdam", "dublin"]
	aliases := [t.mirror_alias(_f, a, true, 2) | some a in names]
	settings := object.union(_defaults, {"emit.checkpoints.enabled": t.setting(_f, "emit.checkpoints.enabled", false, 8)})
	flows := [t.mirror_flow(_f, a, b, true, 4, settings) | some a in names; some b in names; a != b]
	mm := t.mirror_maker(_f, aliases, flows, [])
	some f in rule.report with input as t.mirror_cluster([mm])
	f.message == "emit.checkpoints.enabled=false on 6 flows: Kafka 4.3 rejects the MirrorCheckpointConnector"
	contains(f.why, "of flows amsterdam->dublin, amsterdam->frankfurt, dublin->amsterdam, dublin->frankfurt, frankfurt->amsterdam, frankfurt->dublin (")
}

test_success_before_3_9 if {
	settings := object.union(_defaults, {"emit.checkpoints.enabled": t.setting(_f, "emit.checkpoints.enabled", false, 6)})
	mm := t.mirror_maker(_f, _aliases, [t.mirror_flow(_f, "A", "B", true, 4, settings)], [])
	count(rule.report) == 0 with input as t.at_version(t.mirror_cluster([mm]), "3.8")
}

test_success_disabled_flow if {
	settings := object.union(_defaults, {"emit.checkpoints.enabled": t.setting(_f, "emit.checkpoints.enabled", false, 6)})
	mm := t.mirror_maker(_f, _aliases, [t.mirror_flow(_f, "A", "B", false, 4, settings)], [])
	count(rule.report) == 0 with input as t.mirror_cluster([mm])
}

test_success_defaults if {
	mm := t.mirror_maker(_f, _aliases, [t.mirror_flow(_f, "A", "B", true, 4, _defaults)], [])
	count(rule.report) == 0 with input as t.mirror_cluster([mm])
}

test_success_unknown_placeholder if {
	settings := object.union(object.remove(_defaults, ["emit.checkpoints.enabled"]), {"emit.checkpoints.enabled": t.unknown_setting(_f, "emit.checkpoints.enabled", "${env:CP}", 6)})
	mm := t.mirror_maker(_f, _aliases, [t.mirror_flow(_f, "A", "B", true, 4, settings)], [])
	count(rule.report) == 0 with input as t.mirror_cluster([mm])
}

# Built with the loader (kafkalint.parse), not fixtures: a flow without checkpoints.
test_loader_mirrormaker_checkpoints_disabled if {
	reports := rule.report with input as kafkalint.parse("", "prod/mm2.properties", `clusters=primary, backup
primary.bootstrap.servers=p1:9092
backup.bootstrap.servers=b1:9092
primary->backup.enabled=true
primary->backup.emit.checkpoints.enabled=false
`)
	{[f.location.file, f.location.line, object.get(f, "key", "")] | some f in reports} == {["prod/mm2.properties", 5, "primary->backup.emit.checkpoints.enabled"]}
}
