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
package kafkalint.rules.mirrormaker["mirrormaker-no-flow-enabled"]

import data.kafkalint.lib.result

# Silent when any enabled value, or clusters, is an unknown placeholder.
# A flow runs only when enabled reads true and both aliases are in
# clusters (the loader's enabled).
report contains result.fail(mm.settings.clusters, message) if {
	some mm in input.mirror_makers
	not mm.settings.clusters.unknown
	every flow in mm.flows {
		not flow.enabled
		not flow.enabled_setting.unknown
		not _reads_true(flow)
	}
	message := sprintf(
		"clusters=%s but no {source}->{target}.enabled=true enables a flow%s: MirrorMaker 2 replicates nothing, so the target cluster holds no data and no consumer offsets to fail over to; %s",
		[trim_space(mm.settings.clusters.raw), _written(mm), _fix(mm)],
	)
}

# A Strimzi KafkaMirrorMaker2 enables a flow by giving a mirror a
# sourceConnector; a properties file by {source}->{target}.enabled=true.
_fix(mm) := "give each mirror that should replicate a sourceConnector (Strimzi deploys no flow without one)" if _strimzi(mm)

_fix(mm) := sprintf("add e.g. %s.enabled=true for each direction to replicate", [_example(mm)]) if not _strimzi(mm)

_strimzi(mm) if mm.platform == "strimzi"

# A flow enabled with true that still does not run names an alias missing
# from clusters: KFK7001 reports that cause.
_reads_true(flow) if lower(trim_space(flow.enabled_setting.raw)) == "true"

_written(mm) := sprintf(" (%s: only a case-insensitive true enables a flow)", [concat(", ", written)]) if {
	written := [sprintf("%s=%s", [f.enabled_setting.key, trim_space(f.enabled_setting.raw)]) | some f in mm.flows; f.enabled_setting]
	count(written) > 0
} else := ""

_example(mm) := sprintf("%s->%s", [mm.flows[0].source, mm.flows[0].target]) if count(mm.flows) > 0

_example(mm) := "primary->backup" if count(mm.flows) == 0
