# METADATA
# title: MirrorMaker 2 flow names an alias that clusters does not list
# description: |
#   MirrorMaker 2 builds flows only between the aliases listed in clusters.
#   A {source}->{target}.* key naming any other alias (a typo, a renamed
#   cluster) is ignored without a warning, so the flow it configures never
#   replicates anything.
# related_resources:
#   - description: Kafka docs, geo-replication (MirrorMaker 2) configuration
#     ref: https://kafka.apache.org/documentation/#georeplication-config-syntax
# schemas:
#   - input: schema.cluster
# custom:
#   id: KFK7001
#   severity: warning
#   scope: all
#   applies_to: [mirrormaker]
#   keys: [clusters]
#   since: unreleased
#   fix: |
#     Fix the alias, or add it to clusters with its {alias}.bootstrap.servers.
package kafkalint.rules.mirrormaker["mirrormaker-alias-not-in-clusters"]

import data.kafkalint.lib.result

# One finding per flow, at its enabled line (else its first key). Silent
# when clusters is an unknown placeholder.
report contains result.explain(result.fail(_anchor(flow), _message(flow, names, _clusters(mm))), why, fix) if {
	some mm in input.mirror_makers
	not mm.settings.clusters.unknown
	declared := {a.name | some a in mm.aliases; a.declared}
	some flow in mm.flows
	missing := [a | some a in [flow.source, flow.target]; not a in declared]
	count(missing) > 0
	names := concat(" and ", missing)
	why := sprintf(
		"%s, so nothing is replicated from %s to %s and a failover to %s would find none of its data.",
		[_effect(mm, flow), flow.source, flow.target, flow.target],
	)
	fix := sprintf("Add %s to clusters with %s bootstrap.servers, or fix the alias.", [names, _its[count(missing)]])
}

_its := {1: "its", 2: "their"}

# _message quotes clusters when it fits.
_message(flow, names, clusters) := m if {
	m := sprintf("flow %s->%s: %s not in clusters=%s", [flow.source, flow.target, names, clusters])
	count(m) <= 120
} else := sprintf("flow %s->%s: %s not in clusters", [flow.source, flow.target, names])

_effect(mm, _) := sprintf("The Strimzi operator rejects a KafkaMirrorMaker2 whose mirrors name an undeclared cluster alias (clusters=%s)", [_clusters(mm)]) if _strimzi(mm)

_effect(mm, flow) := sprintf("MirrorMaker 2 only runs flows between the aliases in clusters (clusters=%s) and ignores every %s->%s.* key without a warning", [_clusters(mm), flow.source, flow.target]) if {
	not _strimzi(mm)
}

_strimzi(mm) if mm.platform == "strimzi"

_anchor(flow) := flow.enabled_setting if flow.enabled_setting

_anchor(flow) := {"key": sprintf("%s->%s", [flow.source, flow.target]), "location": flow.location} if not flow.enabled_setting

_clusters(mm) := trim_space(mm.settings.clusters.raw) if mm.settings.clusters

_clusters(mm) := "(not set)" if not mm.settings.clusters
