package kafkalint.rules.mirrormaker["mirrormaker-identity-replication-cycle_test"]

import data.kafkalint.lib.testing as t
import data.kafkalint.rules.mirrormaker["mirrormaker-identity-replication-cycle"] as rule

_f := "mm2.properties"

_identity := t.setting(_f, "replication.policy.class", "org.apache.kafka.connect.mirror.IdentityReplicationPolicy", 9)

_default := t.default_setting(_f, "replication.policy.class", "org.apache.kafka.connect.mirror.DefaultReplicationPolicy")

_aliases := [t.mirror_alias(_f, "A", true, 2), t.mirror_alias(_f, "B", true, 3), t.mirror_alias(_f, "C", true, 4)]

_mm(flows) := t.mirror_maker(_f, _aliases, flows, [])

_flow(source, target, enabled, policy) := t.mirror_flow(_f, source, target, enabled, 5, {"replication.policy.class": policy})

test_fail_bidirectional_identity if {
	mm := _mm([_flow("A", "B", true, _identity), _flow("B", "A", true, _identity)])
	rule.report == {object.union(t.finding(_f, 9, "replication.policy.class", "replication.policy.class is IdentityReplicationPolicy on flows A->B, B->A: records loop round a cycle of enabled flows"), {
		"why": "replication.policy.class=org.apache.kafka.connect.mirror.IdentityReplicationPolicy keeps topic names unchanged on flows A->B, B->A, on a cycle of enabled flows: MirrorMaker 2 cannot detect records it replicated itself, so they are mirrored back and forth without end, multiplying traffic and duplicating data on both clusters (and making failback ambiguous).",
		"fix": "Use the DefaultReplicationPolicy (remote topics named source.topic) for bidirectional replication, or keep identity replication one-way.",
	})} with input as t.mirror_cluster([mm])
}

test_fail_three_cluster_ring if {
	mm := _mm([_flow("A", "B", true, _identity), _flow("B", "C", true, _identity), _flow("C", "A", true, _identity)])
	some f in rule.report with input as t.mirror_cluster([mm])
	f.message == "IdentityReplicationPolicy on flows A->B, B->C, C->A: records loop round a cycle of enabled flows"
}

test_fail_identity_on_one_direction_only if {
	identity_ab := t.flow_override(_f, "A", "B", "replication.policy.class", "org.apache.kafka.connect.mirror.IdentityReplicationPolicy", 7)
	mm := _mm([_flow("A", "B", true, identity_ab), _flow("B", "A", true, _default)])
	some f in rule.report with input as t.mirror_cluster([mm])
	f.location.line == 7
	f.key == "A->B.replication.policy.class"
	f.message == "A->B.replication.policy.class is IdentityReplicationPolicy: records loop round a cycle of enabled flows"
}

# A short class name is quoted as written; flows too many to list are
# counted (the why lists them).
test_fail_message_forms if {
	rule._message("replication.policy.class", "IdentityReplicationPolicy", ["A->B", "B->A"]) == "replication.policy.class=IdentityReplicationPolicy on flows A->B, B->A: records loop round a cycle of enabled flows"
	flows := ["frankfurt->amsterdam", "amsterdam->dublin", "dublin->frankfurt", "frankfurt->dublin"]
	rule._message("replication.policy.class", "org.apache.kafka.connect.mirror.IdentityReplicationPolicy", flows) == "IdentityReplicationPolicy on 4 flows: records loop round a cycle of enabled flows"
}

test_success_one_way_identity if {
	mm := _mm([_flow("A", "B", true, _identity), _flow("B", "A", false, _identity)])
	count(rule.report) == 0 with input as t.mirror_cluster([mm])
}

test_success_bidirectional_default_policy if {
	mm := _mm([_flow("A", "B", true, _default), _flow("B", "A", true, _default)])
	count(rule.report) == 0 with input as t.mirror_cluster([mm])
}

test_success_unknown_placeholder if {
	policy := t.unknown_setting(_f, "replication.policy.class", "${env:POLICY}", 9)
	mm := _mm([_flow("A", "B", true, policy), _flow("B", "A", true, policy)])
	count(rule.report) == 0 with input as t.mirror_cluster([mm])
}

# Built with the loader (kafkalint.parse), not fixtures: IdentityReplicationPolicy in both directions.
test_loader_mirrormaker_identity_replication_cycle if {
	reports := rule.report with input as kafkalint.parse("", "prod/mm2.properties", `clusters=primary, backup
primary.bootstrap.servers=p1:9092
backup.bootstrap.servers=b1:9092
primary->backup.enabled=true
backup->primary.enabled=true
replication.policy.class=org.apache.kafka.connect.mirror.IdentityReplicationPolicy
`)
	{[f.location.file, f.location.line, object.get(f, "key", "")] | some f in reports} == {["prod/mm2.properties", 6, "replication.policy.class"]}
}
