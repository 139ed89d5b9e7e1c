package kafkalint.rules.mirrormaker["mirrormaker-alias-not-in-clusters_test"]

import data.kafkalint.lib.testing as t
import data.kafkalint.rules.mirrormaker["mirrormaker-alias-not-in-clusters"] as rule

_f := "mm2.properties"

_aliases := [t.mirror_alias(_f, "primary", true, 2), t.mirror_alias(_f, "backup", true, 3), t.mirror_alias(_f, "bakup", false, 0)]

test_fail_flow_with_undeclared_alias if {
	flow := object.union(t.mirror_flow(_f, "primary", "bakup", false, 5, {}), {"enabled_setting": t.flow_override(_f, "primary", "bakup", "enabled", true, 5)})
	mm := t.mirror_maker(_f, _aliases, [flow], [["clusters", "primary, backup", 1]])
	rule.report == {object.union(t.finding(_f, 5, "primary->bakup.enabled", "flow primary->bakup: bakup not in clusters=primary, backup"), {
		"why": "MirrorMaker 2 only runs flows between the aliases in clusters (clusters=primary, backup) and ignores every primary->bakup.* key without a warning, so nothing is replicated from primary to bakup and a failover to bakup would find none of its data.",
		"fix": "Add bakup to clusters with its bootstrap.servers, or fix the alias.",
	})} with input as t.mirror_cluster([mm])
}

test_fail_flow_without_enabled_line_anchors_first_key if {
	flow := t.mirror_flow(_f, "bakup", "primary", false, 7, {})
	mm := t.mirror_maker(_f, _aliases, [flow], [["clusters", "primary, backup", 1]])
	some f in rule.report with input as t.mirror_cluster([mm])
	f.location.line == 7
	f.key == "bakup->primary"
}

test_success_declared_aliases if {
	flow := t.mirror_flow(_f, "primary", "backup", true, 5, {})
	mm := t.mirror_maker(_f, array.slice(_aliases, 0, 2), [flow], [["clusters", "primary, backup", 1]])
	count(rule.report) == 0 with input as t.mirror_cluster([mm])
}

test_success_no_flows if {
	mm := t.mirror_maker(_f, array.slice(_aliases, 0, 2), [], [["clusters", "primary, backup", 1]])
	count(rule.report) == 0 with input as t.mirror_cluster([mm])
}

test_success_unknown_clusters_placeholder if {
	flow := t.mirror_flow(_f, "primary", "bakup", true, 5, {})
	mm := t.with_setting(t.mirror_maker(_f, [t.mirror_alias(_f, "primary", false, 0), t.mirror_alias(_f, "bakup", false, 0)], [flow], []), t.unknown_setting(_f, "clusters", "${env:CLUSTERS}", 1))
	count(rule.report) == 0 with input as t.mirror_cluster([mm])
}

test_fail_strimzi_resource_is_rejected_by_the_operator if {
	mm := t.mirror_maker(_f, [t.mirror_alias(_f, "A", true, 1)], [t.mirror_flow(_f, "A", "C", true, 3, {})], [["clusters", "A", 1]])
	some f in rule.report with input as t.mirror_cluster([object.union(mm, {"platform": "strimzi"})])
	f.message == "flow A->C: C not in clusters=A"
	startswith(f.why, "The Strimzi operator rejects a KafkaMirrorMaker2 whose mirrors name an undeclared cluster alias (clusters=A), so nothing is replicated from A to C")
}

# Both aliases missing, and a clusters too long to quote in the message (the
# why quotes it).
test_fail_both_aliases_missing_long_clusters if {
	clusters := "primary-datacenter-frankfurt, secondary-datacenter-amsterdam, tertiary-datacenter-dublin"
	flow := t.mirror_flow(_f, "east", "west", false, 7, {})
	mm := t.mirror_maker(_f, [t.mirror_alias(_f, "east", false, 0), t.mirror_alias(_f, "west", false, 0)], [flow], [["clusters", clusters, 1]])
	some f in rule.report with input as t.mirror_cluster([mm])
	f.message == "flow east->west: east and west not in clusters"
	contains(f.why, sprintf("(clusters=%s)", [clusters]))
	f.fix == "Add east and west to clusters with their bootstrap.servers, or fix the alias."
}

# Built with the loader (kafkalint.parse), not fixtures: a flow to an alias clusters does not list.
test_loader_mirrormaker_alias_not_in_clusters if {
	reports := rule.report with input as kafkalint.parse("", "prod/mm2.properties", `clusters=primary, backup
primary.bootstrap.servers=p1:9092
backup.bootstrap.servers=b1:9092
primary->backup.enabled=true
primary->dr.enabled=true
`)
	{[f.location.file, f.location.line, object.get(f, "key", "")] | some f in reports} == {["prod/mm2.properties", 5, "primary->dr.enabled"]}
}
