package kafkalint.rules.hygiene["kafka-refuses-to-start_test"]

import data.kafkalint.lib.testing as t

# Tests of authorizer.rego.

test_fail_acl_authorizer_on_4_0 if {
	node := t.with_setting(_broker, t.setting(_f, "authorizer.class.name", "kafka.security.authorizer.AclAuthorizer", 9))
	_fires(_at("4.0", [node]), 9, "authorizer.class.name", "which Kafka 4.0 removed: Kafka 4.0 cannot load the class and refuses to start")
}

test_success_acl_authorizer_on_3_9 if {
	node := t.with_setting(_broker, t.setting(_f, "authorizer.class.name", "kafka.security.authorizer.AclAuthorizer", 9))
	_silent(_at("3.9", [node]))
}
