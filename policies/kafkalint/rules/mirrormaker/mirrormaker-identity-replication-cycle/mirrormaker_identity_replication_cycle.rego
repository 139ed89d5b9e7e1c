# METADATA
# title: IdentityReplicationPolicy on a replication cycle
# description: |
#   IdentityReplicationPolicy keeps topic names unchanged, so MirrorMaker 2
#   cannot tell a replicated topic from a local one and cannot stop records
#   from going round a cycle of enabled flows (A->B and B->A): every record
#   is replicated back and forth again and again. Its javadoc requires an
#   acyclic topology.
# related_resources:
#   - description: Kafka docs, geo-replication (MirrorMaker 2), replication policies
#     ref: https://kafka.apache.org/documentation/#georeplication-replication-policy
# schemas:
#   - input: schema.cluster
# custom:
#   id: KFK7008
#   severity: warning
#   scope: all
#   applies_to: [mirrormaker]
#   keys: [replication.policy.class]
#   since: unreleased
#   fix: |
#     Use the DefaultReplicationPolicy (remote topics named source.topic)
#     for bidirectional replication, or keep identity replication one-way.
package kafkalint.rules.mirrormaker["mirrormaker-identity-replication-cycle"]

import data.kafkalint.lib.result

# A flow using the identity policy whose source is reachable again from its
# target through enabled flows is on a cycle. One finding per policy
# setting, naming its flows on cycles.
report contains result.explain(
	result.fail(s, _message(s.key, trim_space(s.raw), flows)),
	sprintf(
		"%s=%s keeps topic names unchanged on %s, on a cycle of enabled flows: MirrorMaker 2 cannot detect records it replicated itself, so they are mirrored back and forth without end, multiplying traffic and duplicating data on both clusters (and making failback ambiguous).",
		[s.key, trim_space(s.raw), _flows_text(flows)],
	),
	"Use the DefaultReplicationPolicy (remote topics named source.topic) for bidirectional replication, or keep identity replication one-way.",
) if {
	some mm in input.mirror_makers
	edges := {alias: {f.target | some f in mm.flows; f.enabled; f.source == alias} | some alias in {f.source | some f in mm.flows}}
	some s in {f.settings["replication.policy.class"] | some f in mm.flows; _identity_on_cycle(f, edges)}
	flows := sort({sprintf("%s->%s", [f.source, f.target]) |
		some f in mm.flows
		_identity_on_cycle(f, edges)
		f.settings["replication.policy.class"] == s
	})
}

# _message is the first candidate that fits: the setting as written, then
# the policy's simple name, then (for a top-level setting) the number of
# flows instead of their list (the why names them all). A flow's own
# override names its flow in its key.
_message(key, raw, flows) := [m | some m in _candidates(key, raw, flows); count(m) <= 120][0] if {
	count([m | some m in _candidates(key, raw, flows); count(m) <= 120]) > 0
} else := sprintf("IdentityReplicationPolicy on %d flows: %s", [count(flows), _tail])

_candidates(key, raw, _) := [
	sprintf("%s=%s: %s", [key, raw, _tail]),
	sprintf("%s is IdentityReplicationPolicy: %s", [key, _tail]),
] if contains(key, "->")

_candidates(key, raw, flows) := [
	sprintf("%s=%s on %s: %s", [key, raw, _flows_text(flows), _tail]),
	sprintf("%s is IdentityReplicationPolicy on %s: %s", [key, _flows_text(flows), _tail]),
	sprintf("IdentityReplicationPolicy on %s: %s", [_flows_text(flows), _tail]),
] if not contains(key, "->")

_tail := "records loop round a cycle of enabled flows"

_flows_text(flows) := sprintf("flow %s", [flows[0]]) if count(flows) == 1

_flows_text(flows) := sprintf("flows %s", [concat(", ", flows)]) if count(flows) > 1

_identity_on_cycle(f, edges) if {
	f.enabled
	p := f.settings["replication.policy.class"]
	is_string(p.value)
	endswith(trim_space(p.value), "IdentityReplicationPolicy")
	f.source in graph.reachable(edges, {f.target})
}
