# METADATA
# title: MirrorMaker 2 cluster alias without bootstrap.servers
# description: |
#   Every alias in clusters needs {alias}.bootstrap.servers. Up to Kafka 4.1
#   a missing one silently falls back to the worker default localhost:9092,
#   so MirrorMaker 2 reads from or writes to whatever listens on its own
#   host; from 4.2 the worker requires it and MirrorMaker 2 does not start.
# related_resources:
#   - description: Kafka docs, geo-replication (MirrorMaker 2) configuration
#     ref: https://kafka.apache.org/documentation/#georeplication-config-syntax
# schemas:
#   - input: schema.cluster
# custom:
#   id: KFK7002
#   severity: error
#   scope: all
#   applies_to: [mirrormaker]
#   keys: [clusters]
#   since: unreleased
#   fix: |
#     Add {alias}.bootstrap.servers=host:port,... for every alias in
#     clusters.
package kafkalint.rules.mirrormaker["mirrormaker-alias-without-bootstrap-servers"]

import data.kafkalint.lib.result
import data.kafkalint.lib.version

# Aliases that only flow keys name are KFK7001's. A placeholder
# bootstrap.servers counts as set.
report contains result.explain(
	result.fail(mm.settings.clusters, sprintf("clusters lists %s, but %s.bootstrap.servers is not set", [alias.name, alias.name])),
	_consequence(alias.name),
	sprintf("Add %s.bootstrap.servers=host:port,... for that cluster.", [alias.name]),
) if {
	some mm in input.mirror_makers
	not mm.settings.clusters.unknown
	some alias in mm.aliases
	alias.declared
	not alias.bootstrap_servers
}

# _consequence is the why: what the cluster's Kafka version does without it.
_consequence(alias) := sprintf("Without %s.bootstrap.servers, up to Kafka 4.1, MirrorMaker 2 connects to localhost:9092 (the worker default) for %s, so it replicates from or into whatever runs on its own host, or fails to connect, and a failover target fed that way holds the wrong data or none.", [alias, alias]) if {
	not version.at_least(4, 2)
}

_consequence(alias) := sprintf("Kafka %s requires %s.bootstrap.servers (the worker's bootstrap.servers has no default since 4.2), so MirrorMaker 2 fails to start replication with %s.", [input.kafka_version, alias, alias]) if {
	version.at_least(4, 2)
}
