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
package kafkalint.rules.mirrormaker["mirrormaker-checkpoints-disabled"]

import data.kafkalint.lib.result
import data.kafkalint.lib.version

# Kafka 3.9+ only (before, the connector just emits nothing: see
# KFK7005 for group offset sync). One finding per setting, naming every
# enabled flow that uses it; a placeholder has no value.
report contains result.fail(s, message) if {
	version.at_least(3, 9)
	some mm in input.mirror_makers
	some key in ["emit.checkpoints.enabled", "emit.offset-syncs.enabled"]
	some s in {f.settings[key] | some f in mm.flows; f.enabled}
	s.value == false
	flows := sort({sprintf("%s->%s", [f.source, f.target]) | some f in mm.flows; f.enabled; f.settings[key] == s})
	message := sprintf(
		"%s=false on flow %s: Kafka %s rejects the MirrorCheckpointConnector configuration (%s), so no consumer-group checkpoints reach the target and consumers cannot fail over at translated offsets (they restart from auto.offset.reset, re-reading or skipping data); remove the line (the default is true)%s",
		[s.key, concat(", ", flows), input.kafka_version, _quote[key], _sync_note(mm)],
	)
}

_quote := {
	"emit.checkpoints.enabled": "\"MirrorCheckpointConnector can't run with emit.checkpoints.enabled set to false\"",
	"emit.offset-syncs.enabled": "\"... can't run without offset syncs\"",
}

_sync_note(mm) := "; sync.group.offsets.enabled=true does nothing without it" if {
	some f in mm.flows
	f.enabled
	f.settings["sync.group.offsets.enabled"].value == true
} else := ""
