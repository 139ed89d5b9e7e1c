# METADATA
# title: Controller quorum smaller than the cluster's tier requires
# description: |
#   A cluster listed in a tier of data.kafkalint.params.custom.tiers (by a
#   glob on its name) runs fewer controller quorum voters than that tier's
#   min_voters. Tier-1 clusters run 5 voters, so that a quorum survives one
#   controller down for maintenance and another one failing.
# related_resources:
#   - description: Kafka docs, KRaft controllers
#     ref: https://kafka.apache.org/documentation/#kraft_voter
# schemas:
#   - input: schema.cluster
# custom:
#   id: ACME002
#   severity: error
#   scope: production
#   applies_to: [controller]
#   keys: [controller.quorum.voters]
package custom.acme["tier-quorum-size"]

import data.kafkalint.lib.result

# _tiers are the tiers whose cluster globs match this cluster's name (the
# directory of its files, relative to where kafkalint runs).
_tiers := {name: tier |
	some name, tier in object.get(data.kafkalint.params.custom, "tiers", {})
	some pattern in tier.clusters
	glob.match(pattern, ["/"], input.name)
}

# _required is the strictest minimum of those tiers (undefined, so the rule
# is silent, for a cluster in no tier).
_required := max({tier.min_voters | some tier in _tiers})

_tier_names := concat(", ", sort(object.keys(_tiers)))

# Static quorum: reported at the voters line of each controller.
report contains result.fail(s, message) if {
	some node in input.nodes
	node.is_controller
	s := node.settings["controller.quorum.voters"]
	not s.unknown
	ids := {v.id | some v in node.quorum.voters; not v.error}
	count(ids) > 0
	count(ids) < _required
	message := sprintf(
		"cluster %s is %s and must run at least %d controller quorum voters, but controller.quorum.voters=%s lists %d; add controllers and list them all",
		[input.name, _tier_names, _required, s.raw, count(ids)],
	)
}

# Managed quorum (Strimzi node pools, the Bitnami chart): every controller
# is a voter; reported where the controller count is written.
report contains result.fail(subject, message) if {
	c := input.controller_count
	c.value < _required
	subject := {"key": "controller.quorum.voters", "location": c.location}
	message := sprintf(
		"cluster %s is %s and must run at least %d controllers (quorum voters), but %s is %d",
		[input.name, _tier_names, _required, c.source, c.value],
	)
}
