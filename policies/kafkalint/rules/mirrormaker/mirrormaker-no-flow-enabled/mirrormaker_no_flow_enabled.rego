# METADATA
# title: MirrorMaker 2 configuration enables no flow
# description: |
#   A flow replicates only when {source}->{target}.enabled reads as true
#   (Boolean.parseBoolean: "yes", "1" or a missing line mean false). With no
#   flow enabled MirrorMaker 2 starts, emits heartbeats and replicates
#   nothing, so the disaster-recovery cluster silently falls behind.
# related_resources:
#   - description: Kafka docs, geo-replication (MirrorMaker 2) configuration
#     ref: https://kafka.apache.org/documentation/#georeplication-config-syntax
# schemas:
#   - input: schema.cluster
# custom:
#   id: KFK7003
#   severity: warning
#   scope: all
#   applies_to: [mirrormaker]
#   keys: [clusters]
#   since: unreleased
#   fix: |
#     Set {source}->{target}.enabled=true for every direction to replicate
#     (in a Strimzi KafkaMirrorMaker2, give the mirror a sourceConnector).
package kafkalint.rules.mirrormaker["mirrormaker-no-flow-enabled"]

import data.kafkalint.lib.result

# Silent when any enabled value, or clusters, is an unknown placeholder.
# A flow runs only when enabled reads true and both aliases are in
# clusters (the loader's enabled).
report contains result.explain(
	result.fail(mm.settings.clusters, _message(mm, trim_space(mm.settings.clusters.raw), written)),
	concat("", [
		"MirrorMaker 2 replicates nothing, so the target cluster holds no data and no consumer offsets to fail over to.",
		_written_why(written),
	]),
	_fix(mm),
) if {
	some mm in input.mirror_makers
	not mm.settings.clusters.unknown
	every flow in mm.flows {
		not flow.enabled
		not flow.enabled_setting.unknown
		not _reads_true(flow)
	}
	written := [sprintf("%s=%s", [f.enabled_setting.key, trim_space(f.enabled_setting.raw)]) | some f in mm.flows; f.enabled_setting]
}

# _message quotes clusters and the enabled values written when they fit,
# else says less (the why lists the values).
_message(mm, clusters, written) := m if {
	m := sprintf("clusters=%s: %s", [clusters, _problem(mm, written)])
	count(m) <= 120
} else := m if {
	m := _problem(mm, written)
	count(m) <= 120
} else := sprintf("no flow is enabled: %d enabled values read as false", [count(written)])

_problem(mm, []) := "no flow is enabled" if _strimzi(mm)

_problem(mm, []) := "no {source}->{target}.enabled=true enables a flow" if not _strimzi(mm)

_problem(_, written) := sprintf("no flow is enabled, %s reads as false", [written[0]]) if count(written) == 1

_problem(_, written) := sprintf("no flow is enabled, %s read as false", [concat(", ", written)]) if count(written) > 1

_written_why([]) := ""

_written_why(written) := sprintf(" Only a case-insensitive true enables a flow (Boolean.parseBoolean): %s %s as false.", [concat(", ", written), _reads(written)]) if {
	count(written) > 0
}

_reads(written) := "reads" if count(written) == 1

_reads(written) := "read" if count(written) > 1

# A Strimzi KafkaMirrorMaker2 enables a flow by giving a mirror a
# sourceConnector; a properties file by {source}->{target}.enabled=true.
_fix(mm) := "Give each mirror that should replicate a sourceConnector (Strimzi deploys no flow without one)." if _strimzi(mm)

_fix(mm) := sprintf("Add e.g. %s.enabled=true for each direction to replicate.", [_example(mm)]) if not _strimzi(mm)

_strimzi(mm) if mm.platform == "strimzi"

# A flow enabled with true that still does not run names an alias missing
# from clusters: KFK7001 reports that cause.
_reads_true(flow) if lower(trim_space(flow.enabled_setting.raw)) == "true"

_example(mm) := sprintf("%s->%s", [mm.flows[0].source, mm.flows[0].target]) if count(mm.flows) > 0

_example(mm) := "primary->backup" if count(mm.flows) == 0
