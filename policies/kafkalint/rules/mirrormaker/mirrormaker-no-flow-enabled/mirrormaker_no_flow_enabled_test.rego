package kafkalint.rules.mirrormaker["mirrormaker-no-flow-enabled_test"]

import data.kafkalint.lib.testing as t
import data.kafkalint.rules.mirrormaker["mirrormaker-no-flow-enabled"] as rule

_f := "mm2.properties"

_aliases := [t.mirror_alias(_f, "A", true, 2), t.mirror_alias(_f, "B", true, 3)]

_flow(source, target, enabled, raw, line) := object.union(
	t.mirror_flow(_f, source, target, enabled, line, {}),
	{"enabled_setting": object.union(t.flow_override(_f, source, target, "enabled", enabled, line), {"raw": raw})},
)

test_fail_enabled_written_as_yes if {
	mm := t.mirror_maker(_f, _aliases, [_flow("A", "B", false, "yes", 4), t.mirror_flow(_f, "B", "A", false, 1, {})], [["clusters", "A,B", 1]])
	rule.report == {object.union(t.finding(_f, 1, "clusters", "clusters=A,B: no flow is enabled, A->B.enabled=yes reads as false"), {
		"why": "MirrorMaker 2 replicates nothing, so the target cluster holds no data and no consumer offsets to fail over to. Only a case-insensitive true enables a flow (Boolean.parseBoolean): A->B.enabled=yes reads as false.",
		"fix": "Add e.g. A->B.enabled=true for each direction to replicate.",
	})} with input as t.mirror_cluster([mm])
}

test_fail_no_enabled_line if {
	mm := t.mirror_maker(_f, _aliases, [t.mirror_flow(_f, "A", "B", false, 1, {}), t.mirror_flow(_f, "B", "A", false, 1, {})], [["clusters", "A,B", 1]])
	rule.report == {object.union(t.finding(_f, 1, "clusters", "clusters=A,B: no {source}->{target}.enabled=true enables a flow"), {
		"why": "MirrorMaker 2 replicates nothing, so the target cluster holds no data and no consumer offsets to fail over to.",
		"fix": "Add e.g. A->B.enabled=true for each direction to replicate.",
	})} with input as t.mirror_cluster([mm])
}

# Many enabled values written wrong: the message counts them, the why
# lists them.
test_fail_many_enabled_values_written_wrong if {
	aliases := [t.mirror_alias(_f, a, true, 2) | some a in ["frankfurt", "amsterdam", "dublin"]]
	flows := [
		_flow("frankfurt", "amsterdam", false, "yes", 4), _flow("amsterdam", "frankfurt", false, "1", 5),
		_flow("frankfurt", "dublin", false, "on", 6), _flow("dublin", "frankfurt", false, "yes", 7),
	]
	mm := t.mirror_maker(_f, aliases, flows, [["clusters", "frankfurt, amsterdam, dublin", 1]])
	some f in rule.report with input as t.mirror_cluster([mm])
	f.message == "no flow is enabled: 4 enabled values read as false"
	endswith(f.why, ": frankfurt->amsterdam.enabled=yes, amsterdam->frankfurt.enabled=1, frankfurt->dublin.enabled=on, dublin->frankfurt.enabled=yes read as false.")
}

test_success_one_flow_enabled if {
	mm := t.mirror_maker(_f, _aliases, [_flow("A", "B", true, "TRUE", 4), _flow("B", "A", false, "false", 5)], [["clusters", "A,B", 1]])
	count(rule.report) == 0 with input as t.mirror_cluster([mm])
}

test_success_unknown_placeholder if {
	flow := object.union(t.mirror_flow(_f, "A", "B", false, 4, {}), {"enabled_setting": t.unknown_setting(_f, "A->B.enabled", "${env:ENABLED}", 4)})
	mm := t.mirror_maker(_f, _aliases, [flow], [["clusters", "A,B", 1]])
	count(rule.report) == 0 with input as t.mirror_cluster([mm])
}

test_success_enabled_flow_with_undeclared_alias_is_another_rule if {
	mm := t.mirror_maker(_f, array.concat(_aliases, [t.mirror_alias(_f, "C", false, 0)]), [_flow("A", "C", false, "true", 4)], [["clusters", "A,B", 1]])
	count(rule.report) == 0 with input as t.mirror_cluster([mm])
}

test_fail_strimzi_resource_names_the_strimzi_fix if {
	mm := t.mirror_maker(_f, _aliases, [t.mirror_flow(_f, "A", "B", false, 1, {})], [["clusters", "A,B", 1]])
	some f in rule.report with input as t.mirror_cluster([object.union(mm, {"platform": "strimzi"})])
	f.message == "clusters=A,B: no flow is enabled"
	f.fix == "Give each mirror that should replicate a sourceConnector (Strimzi deploys no flow without one)."
}

# Built with the loader (kafkalint.parse), not fixtures: a flow enabled with yes, which MirrorMaker 2 reads as false.
test_loader_mirrormaker_no_flow_enabled if {
	reports := rule.report with input as kafkalint.parse("", "prod/mm2.properties", `clusters=primary, backup
primary.bootstrap.servers=p1:9092
backup.bootstrap.servers=b1:9092
primary->backup.enabled=yes
`)
	{[f.location.file, f.location.line, object.get(f, "key", "")] | some f in reports} == {["prod/mm2.properties", 1, "clusters"]}
}

# Built with the loader: a KafkaMirrorMaker2 whose mirror has no
# sourceConnector; the loader gives it the platform strimzi, so the advice
# is Strimzi's.
test_loader_strimzi_mirror_without_source_connector if {
	c := kafkalint.parse("", "prod/mm2.yaml", `apiVersion: kafka.strimzi.io/v1beta2
kind: KafkaMirrorMaker2
metadata:
  name: dr
spec:
  version: 4.0.0
  replicas: 1
  connectCluster: backup
  clusters:
    - alias: primary
      bootstrapServers: primary-kafka-bootstrap:9092
    - alias: backup
      bootstrapServers: backup-kafka-bootstrap:9092
  mirrors:
    - sourceCluster: primary
      targetCluster: backup
      topicsPattern: ".*"
`)
	c.mirror_makers[0].platform == "strimzi"
	reports := rule.report with input as c
	{[f.location.line, f.key] | some f in reports} == {[9, "clusters"]}
	some f in reports
	startswith(f.fix, "Give each mirror that should replicate a sourceConnector")
}
