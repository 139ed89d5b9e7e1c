# METADATA
# title: allow.everyone.if.no.acl.found enabled in production
# description: |
#   With allow.everyone.if.no.acl.found=true the authorizer grants every
#   principal access to any resource that has no ACL: every new topic and
#   consumer group is open to all until someone remembers to add ACLs.
# related_resources:
#   - description: Kafka docs, authorization and ACLs
#     ref: https://kafka.apache.org/documentation/#security_authz
# schemas:
#   - input: schema.cluster
# custom:
#   id: KFK2002
#   severity: error
#   scope: production
#   applies_to: [broker, controller]
#   keys: [allow.everyone.if.no.acl.found]
#   since: unreleased
package kafkalint.rules.security["allow-everyone-if-no-acl"]

import data.kafkalint.lib.result

# The authorizer reads the key with Boolean.parseBoolean: only "true", in
# any case, enables it (kafka-config-facts §1.9). Absent means false.
report contains result.fail(s, message) if {
	some node in input.nodes
	s := node.settings["allow.everyone.if.no.acl.found"]
	s.source == "explicit"
	is_string(s.value)
	lower(trim_space(s.value)) == "true"
	message := sprintf(
		"allow.everyone.if.no.acl.found=%s: the authorizer lets every principal (ANONYMOUS included on a PLAINTEXT listener) read, write and delete any topic or group that has no ACL, so each new topic is open to all until ACLs are added; remove the line (Kafka's default is false, which lets only super.users at resources without ACLs) and grant access with ACLs",
		[trim_space(s.value)],
	)
}
