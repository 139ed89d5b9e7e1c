# METADATA
# title: MirrorMaker 2 flow without checkpoints or offset syncs
# description: |
#   From Kafka 3.9 the MirrorCheckpointConnector refuses its configuration
#   when a flow sets emit.checkpoints.enabled=false or
#   emit.offset-syncs.enabled=false: that connector does not run, no
#   consumer-group checkpoints reach the target, and consumers cannot fail
#   over at translated offsets.
# related_resources:
#   - description: Kafka docs, geo-replication (MirrorMaker 2)
#     ref: https://kafka.apache.org/documentation/#georeplication
#   - description: KIP-1031, control offset translation in MirrorSourceConnector
#     ref: https://cwiki.apache.org/confluence/display/KAFKA/KIP-1031%3A+Control+offset+translation+in+MirrorSourceConnector
# schemas:
#   - input: schema.cluster
# custom:
#   id: KFK7004
#   severity: error
#   scope: all
#   applies_to: [mirrormaker]
#   keys: [emit.checkpoints.enabled, emit.offset-syncs.enabled, sync.group.offsets.enabled]
#   since: unreleased
#   fix: |
#     Remove the line: emit.checkpoints.enabled and emit.offset-syncs.enabled
#     both default to true.
package kafkalint.rules.mirrormaker["mirrormaker-checkpoints-disabled"]

import data.kafkalint.lib.result
import data.kafkalint.lib.version

# Kafka 3.9+ only (before, the connector just emits nothing: see
# KFK7005 for group offset sync). One finding per setting, naming every
# enabled flow that uses it; a placeholder has no value.
report contains result.explain(
	result.fail(s, _message(s.key, sprintf("%s=false", [s.key]), flows, sprintf("Kafka %s rejects the MirrorCheckpointConnector", [input.kafka_version]))),
	sprintf(
		"Kafka %s rejects the MirrorCheckpointConnector configuration of %s (%s), so no consumer-group checkpoints reach the target and consumers cannot fail over at translated offsets: they restart from auto.offset.reset, re-reading or skipping data.%s",
		[input.kafka_version, _flows_text(flows), _quote[key], _sync_note(mm)],
	),
	"Remove the line (the default is true).",
) if {
	version.at_least(3, 9)
	some mm in input.mirror_makers
	some key in ["emit.checkpoints.enabled", "emit.offset-syncs.enabled"]
	some s in {f.settings[key] | some f in mm.flows; f.enabled}
	s.value == false
	flows := sort({sprintf("%s->%s", [f.source, f.target]) | some f in mm.flows; f.enabled; f.settings[key] == s})
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

_quote := {
	"emit.checkpoints.enabled": "\"MirrorCheckpointConnector can't run with emit.checkpoints.enabled set to false\"",
	"emit.offset-syncs.enabled": "\"... can't run without offset syncs\"",
}

_sync_note(mm) := " sync.group.offsets.enabled=true does nothing without it." if {
	some f in mm.flows
	f.enabled
	f.settings["sync.group.offsets.enabled"].value == true
} else := ""
