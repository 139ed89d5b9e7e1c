# METADATA
# title: MirrorMaker 2 topics with fewer than 3 replicas in production
# description: |
#   MirrorMaker 2 creates the replicated topics (replication.factor, default
#   2) and its internal topics (checkpoints, heartbeats, offset-syncs, and the
#   Connect worker's offset, config and status topics) with the replication
#   factors configured here. Below 3, one broker loss on the target can make
#   the replicated data, or the checkpoints consumers need to fail over,
#   unavailable or lost exactly when the DR cluster is needed.
# related_resources:
#   - description: Kafka docs, geo-replication (MirrorMaker 2)
#     ref: https://kafka.apache.org/documentation/#georeplication
# schemas:
#   - input: schema.cluster
# custom:
#   id: KFK7007
#   severity: warning
#   scope: production
#   applies_to: [mirrormaker]
#   keys:
#     - replication.factor
#     - checkpoints.topic.replication.factor
#     - heartbeats.topic.replication.factor
#     - offset-syncs.topic.replication.factor
#     - offset.storage.replication.factor
#     - config.storage.replication.factor
#     - status.storage.replication.factor
#   since: unreleased
package kafkalint.rules.mirrormaker["mirrormaker-replication-factor-below-3"]

import data.kafkalint.lib.result
import data.kafkalint.lib.settings

# Connector settings count per enabled flow (an override or the top-level
# value, else Kafka's default); one finding per setting, naming its flows.
# -1 means the target broker's default.replication.factor and is not
# judged, nor is a placeholder.
report contains result.fail(s, message) if {
	some mm in input.mirror_makers
	some key, what in _connector_topics
	some s in {f.settings[key] | some f in mm.flows; f.enabled}
	_below_3(s.value)
	flows := sort({sprintf("%s->%s", [f.source, f.target]) | some f in mm.flows; f.enabled; f.settings[key] == s})
	message := sprintf(
		"%s on flow %s gives %s %d replica(s): one broker down on that cluster %s, exactly when a failover needs it; set %s=3",
		[settings.shown_unset(s), concat(", ", flows), what, s.value, _consequence(s.value), key],
	)
}

# The Connect worker's own topics (not catalogued, so written as text).
report contains result.fail(s, message) if {
	some mm in input.mirror_makers
	some key, what in _worker_topics
	s := mm.settings[key]
	s.source == "explicit"
	regex.match(`^\s*-?[0-9]+\s*$`, s.raw)
	rf := to_number(trim_space(s.raw))
	_below_3(rf)
	message := sprintf(
		"%s=%d gives %s %d replica(s): one broker down %s, exactly when a failover needs it; set %s=3",
		[key, rf, what, rf, _consequence(rf), key],
	)
}

_connector_topics := {
	"replication.factor": "the replicated topics on the target",
	"checkpoints.topic.replication.factor": "the checkpoints topic (the translated offsets consumer failover reads)",
	"heartbeats.topic.replication.factor": "the heartbeats topic",
	"offset-syncs.topic.replication.factor": "the offset-syncs topic (what offset translation is computed from)",
}

_worker_topics := {
	"offset.storage.replication.factor": "the Connect offsets topic (MirrorMaker 2's replication progress)",
	"config.storage.replication.factor": "the Connect config topic",
	"status.storage.replication.factor": "the Connect status topic",
}

_below_3(rf) if {
	is_number(rf)
	rf >= 1
	rf < 3
}

_consequence(1) := "makes that data unavailable and a lost disk loses it"

_consequence(2) := "leaves a single copy that a second failure loses"
