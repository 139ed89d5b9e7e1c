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
package kafkalint.rules.mirrormaker["mirrormaker-identity-replication-cycle"]

import data.kafkalint.lib.result

# A flow using the identity policy whose source is reachable again from its
# target through enabled flows is on a cycle. One finding per policy
# setting, naming its flows on cycles.
report contains result.fail(s, message) if {
	some mm in input.mirror_makers
	edges := {alias: {f.target | some f in mm.flows; f.enabled; f.source == alias} | some alias in {f.source | some f in mm.flows}}
	some s in {f.settings["replication.policy.class"] | some f in mm.flows; _identity_on_cycle(f, edges)}
	flows := sort({sprintf("%s->%s", [f.source, f.target]) |
		some f in mm.flows
		_identity_on_cycle(f, edges)
		f.settings["replication.policy.class"] == s
	})
	message := sprintf(
		"%s=%s on flow %s, which is part of a cycle of enabled flows: with topic names unchanged MirrorMaker 2 cannot detect records it replicated itself, so they are mirrored back and forth without end, multiplying traffic and duplicating data on both clusters (and making failback ambiguous); use the DefaultReplicationPolicy (remote topics named source.topic) for bidirectional replication, or keep identity replication one-way",
		[s.key, trim_space(s.raw), concat(", ", flows)],
	)
}

_identity_on_cycle(f, edges) if {
	f.enabled
	p := f.settings["replication.policy.class"]
	is_string(p.value)
	endswith(trim_space(p.value), "IdentityReplicationPolicy")
	f.source in graph.reachable(edges, {f.target})
}
