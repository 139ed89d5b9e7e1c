package kafkalint.rules.mirrormaker["mirrormaker-alias-without-bootstrap-servers_test"]

import data.kafkalint.lib.testing as t
import data.kafkalint.rules.mirrormaker["mirrormaker-alias-without-bootstrap-servers"] as rule

_f := "mm2.properties"

_mm(aliases) := t.mirror_maker(_f, aliases, [], [["clusters", "primary, backup", 1]])

test_fail_missing_bootstrap_on_4_3 if {
	mm := _mm([t.mirror_alias(_f, "primary", true, 2), t.mirror_alias(_f, "backup", true, 0)])
	rule.report == {object.union(t.finding(_f, 1, "clusters", "clusters lists backup, but backup.bootstrap.servers is not set"), {
		"why": "Kafka 4.3 requires backup.bootstrap.servers (the worker's bootstrap.servers has no default since 4.2), so MirrorMaker 2 fails to start replication with backup.",
		"fix": "Add backup.bootstrap.servers=host:port,... for that cluster.",
	})} with input as t.mirror_cluster([mm])
}

test_fail_missing_bootstrap_on_4_1_falls_back_to_localhost if {
	mm := _mm([t.mirror_alias(_f, "primary", true, 0), t.mirror_alias(_f, "backup", true, 3)])
	rule.report == {object.union(t.finding(_f, 1, "clusters", "clusters lists primary, but primary.bootstrap.servers is not set"), {
		"why": "Without primary.bootstrap.servers, up to Kafka 4.1, MirrorMaker 2 connects to localhost:9092 (the worker default) for primary, so it replicates from or into whatever runs on its own host, or fails to connect, and a failover target fed that way holds the wrong data or none.",
		"fix": "Add primary.bootstrap.servers=host:port,... for that cluster.",
	})} with input as t.at_version(t.mirror_cluster([mm]), "4.1")
}

test_success_all_set if {
	mm := _mm([t.mirror_alias(_f, "primary", true, 2), t.mirror_alias(_f, "backup", true, 3)])
	count(rule.report) == 0 with input as t.mirror_cluster([mm])
}

test_success_undeclared_alias_is_another_rule if {
	mm := _mm([t.mirror_alias(_f, "primary", true, 2), t.mirror_alias(_f, "backup", true, 3), t.mirror_alias(_f, "bakup", false, 0)])
	count(rule.report) == 0 with input as t.mirror_cluster([mm])
}

test_success_unknown_placeholder if {
	alias := object.union(t.mirror_alias(_f, "backup", true, 0), {"bootstrap_servers": t.unknown_setting(_f, "backup.bootstrap.servers", "${env:BACKUP}", 3)})
	mm := _mm([t.mirror_alias(_f, "primary", true, 2), alias])
	count(rule.report) == 0 with input as t.mirror_cluster([mm])
}

# Built with the loader (kafkalint.parse), not fixtures: an alias without bootstrap.servers.
test_loader_mirrormaker_alias_without_bootstrap_servers if {
	reports := rule.report with input as kafkalint.parse("", "prod/mm2.properties", `clusters=primary, backup
primary.bootstrap.servers=p1:9092
primary->backup.enabled=true
`)
	{[f.location.file, f.location.line, object.get(f, "key", "")] | some f in reports} == {["prod/mm2.properties", 1, "clusters"]}
}
