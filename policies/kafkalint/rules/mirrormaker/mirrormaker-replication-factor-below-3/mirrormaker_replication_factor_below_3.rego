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
#   fix: |
#     Set every replication factor to 3 (the target needs at least three
#     brokers). Topics that already exist keep theirs: raise it with a
#     partition reassignment.
package kafkalint.rules.mirrormaker["mirrormaker-replication-factor-below-3"]

import data.kafkalint.lib.result
import data.kafkalint.lib.settings

# Connector settings count per enabled flow (an override or the top-level
# value, else Kafka's default); one finding per setting, naming its flows.
# -1 means the target broker's default.replication.factor and is not
# judged, nor is a placeholder.
report contains result.explain(
	result.fail(s, _message(s.key, settings.shown(s), flows, _replicas(what, s.value))),
	sprintf(
		"%s %d %s on %s: one broker down on that cluster %s, exactly when a failover needs it.",
		[what.why, s.value, _noun(s.value), _flows_text(flows), _consequence(s.value)],
	),
	sprintf("Set %s=3.", [s.key]),
) if {
	some mm in input.mirror_makers
	some key, what in _connector_topics
	some s in {f.settings[key] | some f in mm.flows; f.enabled}
	_below_3(s.value)
	flows := sort({sprintf("%s->%s", [f.source, f.target]) | some f in mm.flows; f.enabled; f.settings[key] == s})
}

# The Connect worker's own topics (not catalogued, so written as text).
report contains result.explain(
	result.fail(s, sprintf("%s=%d: %s", [key, rf, _replicas(what, rf)])),
	sprintf("%s %d %s: one broker down %s, exactly when a failover needs it.", [what.why, rf, _noun(rf), _consequence(rf)]),
	sprintf("Set %s=3.", [key]),
) if {
	some mm in input.mirror_makers
	some key, what in _worker_topics
	s := mm.settings[key]
	s.source == "explicit"
	regex.match(`^\s*-?[0-9]+\s*$`, s.raw)
	rf := to_number(trim_space(s.raw))
	_below_3(rf)
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

# Each topic's name in a message (topics, with its verb) and in the why.
_connector_topics := {
	"replication.factor": {"topics": "replicated topics have", "why": "The replicated topics on the target get"},
	"checkpoints.topic.replication.factor": {"topics": "the checkpoints topic has", "why": "The checkpoints topic (the translated offsets consumer failover reads) gets"},
	"heartbeats.topic.replication.factor": {"topics": "the heartbeats topic has", "why": "The heartbeats topic gets"},
	"offset-syncs.topic.replication.factor": {"topics": "the offset-syncs topic has", "why": "The offset-syncs topic (what offset translation is computed from) gets"},
}

_worker_topics := {
	"offset.storage.replication.factor": {"topics": "the Connect offsets topic has", "why": "The Connect offsets topic (MirrorMaker 2's replication progress) gets"},
	"config.storage.replication.factor": {"topics": "the Connect config topic has", "why": "The Connect config topic gets"},
	"status.storage.replication.factor": {"topics": "the Connect status topic has", "why": "The Connect status topic gets"},
}

_replicas(what, 1) := sprintf("%s a single replica", [what.topics])

_replicas(what, 2) := sprintf("%s only 2 replicas", [what.topics])

_noun(1) := "replica"

_noun(2) := "replicas"

_below_3(rf) if {
	is_number(rf)
	rf >= 1
	rf < 3
}

_consequence(1) := "makes that data unavailable and a lost disk loses it"

_consequence(2) := "leaves a single copy that a second failure loses"
