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
package kafkalint.rules.mirrormaker["mirrormaker-alias-not-in-clusters"]

import data.kafkalint.lib.result

# One finding per flow, at its enabled line (else its first key). Silent
# when clusters is an unknown placeholder.
report contains result.fail(_anchor(flow), message) if {
	some mm in input.mirror_makers
	not mm.settings.clusters.unknown
	declared := {a.name | some a in mm.aliases; a.declared}
	some flow in mm.flows
	missing := [a | some a in [flow.source, flow.target]; not a in declared]
	count(missing) > 0
	message := sprintf(
		"flow %s->%s names %s, which clusters=%s does not list: %s, so nothing is replicated from %s to %s and a failover to %s would find none of its data; add %s to clusters with its bootstrap.servers, or fix the alias",
		[
			flow.source, flow.target, concat(" and ", missing), _clusters(mm), _effect(mm, flow),
			flow.source, flow.target, flow.target, concat(" and ", missing),
		],
	)
}

_effect(mm, _) := "the Strimzi operator rejects a KafkaMirrorMaker2 whose mirrors name an undeclared cluster alias" if _strimzi(mm)

_effect(mm, flow) := sprintf("MirrorMaker 2 only runs flows between the aliases in clusters and ignores every %s->%s.* key without a warning", [flow.source, flow.target]) if {
	not _strimzi(mm)
}

_strimzi(mm) if mm.platform == "strimzi"

_anchor(flow) := flow.enabled_setting if flow.enabled_setting

_anchor(flow) := {"key": sprintf("%s->%s", [flow.source, flow.target]), "location": flow.location} if not flow.enabled_setting

_clusters(mm) := trim_space(mm.settings.clusters.raw) if mm.settings.clusters

_clusters(mm) := "(not set)" if not mm.settings.clusters
