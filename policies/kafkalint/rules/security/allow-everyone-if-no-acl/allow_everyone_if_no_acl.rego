# METADATA
# title: allow.everyone.if.no.acl.found enabled in production
# description: |
#   With allow.everyone.if.no.acl.found=true the authorizer lets every
#   principal (ANONYMOUS included, on a PLAINTEXT listener) read, write and
#   delete any topic or group that has no ACL: every new topic and consumer
#   group is open to all until someone remembers to add ACLs. Only a node
#   with an authorizer (authorizer.class.name) reads the key.
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
#   keys: [allow.everyone.if.no.acl.found, authorizer.class.name]
#   since: unreleased
#   fix: |
#     Remove the line (Kafka's default is false, which lets only super.users
#     at resources without ACLs) and grant access with ACLs (kafka-acls.sh).
package kafkalint.rules.security["allow-everyone-if-no-acl"]

import data.kafkalint.lib.result

# The authorizer reads the key with Boolean.parseBoolean: only "true", in
# any case, enables it (StandardAuthorizer.getDefaultResult). Absent means
# false. Only an authorizer reads it: without one (authorizer.class.name
# empty, Kafka's default) KafkaConfig.createNewAuthorizer creates none,
# AuthHelper.authorize allows every request and the key does nothing, so
# the node is not reported here (docs/rules/KFK2002.md says what to do).
report contains result.fail(s, message) if {
	some node in input.nodes
	s := node.settings["allow.everyone.if.no.acl.found"]
	s.source == "explicit"
	is_string(s.value)
	lower(trim_space(s.value)) == "true"
	_authorizer(node)
	message := sprintf("allow.everyone.if.no.acl.found=%s: every principal may use any resource that has no ACL", [trim_space(s.value)])
}

# _authorizer holds when the node runs an authorizer: authorizer.class.name
# names a class (ConfigDef trims STRING values; an empty name creates none),
# or the platform sets the key itself (Amazon MSK turns its ACL authorizer on
# with client authentication). A placeholder (${env:...}) is unknown: the
# node may run no authorizer, so it is silent.
_authorizer(node) if {
	a := node.settings["authorizer.class.name"]
	not a.unknown
	is_string(a.value)
	trim_space(a.value) != ""
}

_authorizer(node) if {
	not node.settings["authorizer.class.name"]
	"authorizer.class.name" in node.managed_keys
}
