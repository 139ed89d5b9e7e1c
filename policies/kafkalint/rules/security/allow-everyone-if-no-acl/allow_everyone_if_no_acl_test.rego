package kafkalint.rules.security["allow-everyone-if-no-acl_test"]

import data.kafkalint.lib.testing as t
import data.kafkalint.rules.security["allow-everyone-if-no-acl"] as rule

_message(raw) := sprintf("allow.everyone.if.no.acl.found=%s: every principal may use any resource that has no ACL", [raw])

test_fail_true if {
	node := t.node("server.properties", ["broker"], [["authorizer.class.name", "org.apache.kafka.metadata.authorizer.StandardAuthorizer", 11], ["allow.everyone.if.no.acl.found", "true", 12]])
	rule.report == {t.finding("server.properties", 12, "allow.everyone.if.no.acl.found", _message("true"))} with input as t.cluster([node], [])
}

test_fail_true_any_case if {
	node := t.node("server.properties", ["controller"], [["authorizer.class.name", "org.apache.kafka.metadata.authorizer.StandardAuthorizer", 11], ["allow.everyone.if.no.acl.found", "TRUE", 12]])
	rule.report == {t.finding("server.properties", 12, "allow.everyone.if.no.acl.found", _message("TRUE"))} with input as t.cluster([node], [])
}

test_success_false if {
	node := t.node("server.properties", ["broker"], [["authorizer.class.name", "org.apache.kafka.metadata.authorizer.StandardAuthorizer", 11], ["allow.everyone.if.no.acl.found", "false", 12]])
	count(rule.report) == 0 with input as t.cluster([node], [])
}

test_success_anything_but_true_is_false if {
	node := t.node("server.properties", ["broker"], [["authorizer.class.name", "org.apache.kafka.metadata.authorizer.StandardAuthorizer", 11], ["allow.everyone.if.no.acl.found", "yes", 12]])
	count(rule.report) == 0 with input as t.cluster([node], [])
}

test_success_absent if {
	node := t.node("server.properties", ["broker"], [["process.roles", "broker", 1], ["authorizer.class.name", "org.apache.kafka.metadata.authorizer.StandardAuthorizer", 11]])
	count(rule.report) == 0 with input as t.cluster([node], [])
}

test_success_unknown_placeholder if {
	node := t.with_setting(t.node("server.properties", ["broker"], [["authorizer.class.name", "org.apache.kafka.metadata.authorizer.StandardAuthorizer", 11]]), t.unknown_setting("server.properties", "allow.everyone.if.no.acl.found", "${env:ALLOW}", 12))
	count(rule.report) == 0 with input as t.cluster([node], [])
}

# The platform sets the authorizer (Amazon MSK): the key is read.
test_fail_platform_managed_authorizer if {
	node := object.union(t.node("server.properties", ["broker"], [["allow.everyone.if.no.acl.found", "true", 12]]), {"managed_keys": ["authorizer.class.name"]})
	rule.report == {t.finding("server.properties", 12, "allow.everyone.if.no.acl.found", _message("true"))} with input as t.cluster([node], [])
}

# Without an authorizer Kafka authorizes nothing and the key does nothing.
test_success_no_authorizer if {
	node := t.node("server.properties", ["broker"], [["authorizer.class.name", "", 0], ["allow.everyone.if.no.acl.found", "true", 12]])
	count(rule.report) == 0 with input as t.cluster([node], [])
}

test_success_blank_authorizer if {
	node := t.node("server.properties", ["broker"], [["authorizer.class.name", "  ", 11], ["allow.everyone.if.no.acl.found", "true", 12]])
	count(rule.report) == 0 with input as t.cluster([node], [])
}

test_success_authorizer_key_absent if {
	node := t.node("server.properties", ["broker"], [["allow.everyone.if.no.acl.found", "true", 12]])
	count(rule.report) == 0 with input as t.cluster([node], [])
}

test_success_unknown_authorizer_placeholder if {
	node := t.with_setting(
		t.node("server.properties", ["broker"], [["allow.everyone.if.no.acl.found", "true", 12]]),
		t.unknown_setting("server.properties", "authorizer.class.name", "${env:AUTHORIZER}", 11),
	)
	count(rule.report) == 0 with input as t.cluster([node], [])
}

# Built with the loader: the Bitnami chart layout (allow.everyone.if.no.acl.found
# true, authorizer.class.name empty) runs no authorizer.
test_loader_no_authorizer if {
	reports := rule.report with input as kafkalint.parse("", "prod/kafka/server.properties", `process.roles=broker
node.id=4
controller.quorum.voters=1@c1:9093,2@c2:9093,3@c3:9093
controller.listener.names=CONTROLLER
listeners=SSL://:9093
authorizer.class.name=
allow.everyone.if.no.acl.found=true
`)
	count(reports) == 0
}

# Built with the loader (kafkalint.parse), not fixtures: allow.everyone.if.no.acl.found=true.
test_loader_allow_everyone_if_no_acl if {
	reports := rule.report with input as kafkalint.parse("", "prod/kafka/server.properties", `process.roles=broker
node.id=4
controller.quorum.voters=1@c1:9093,2@c2:9093,3@c3:9093
controller.listener.names=CONTROLLER
listeners=SSL://:9093
authorizer.class.name=org.apache.kafka.metadata.authorizer.StandardAuthorizer
allow.everyone.if.no.acl.found=true
`)
	{[f.location.file, f.location.line, object.get(f, "key", "")] | some f in reports} == {["prod/kafka/server.properties", 7, "allow.everyone.if.no.acl.found"]}
}
