package kafkalint.rules.hygiene["kafka-refuses-to-start_test"]

import data.kafkalint.lib.testing as t

# Tests of authorizer.rego.

test_fail_acl_authorizer_on_4_0 if {
	node := t.with_setting(_broker, t.setting(_f, "authorizer.class.name", "kafka.security.authorizer.AclAuthorizer", 9))
	_refuses(_at("4.0", [node]), 9, "authorizer.class.name", "authorizer.class.name=kafka.security.authorizer.AclAuthorizer: removed in Kafka 4.0", "which Kafka 4.0 removed. Kafka 4.0 cannot load the class and refuses to start.")
}

test_success_acl_authorizer_on_3_9 if {
	node := t.with_setting(_broker, t.setting(_f, "authorizer.class.name", "kafka.security.authorizer.AclAuthorizer", 9))
	_silent(_at("3.9", [node]))
}

test_fail_authorizer_not_a_class_name if {
	node := t.with_setting(_broker, t.setting(_f, "authorizer.class.name", "\"org.apache.kafka.metadata.authorizer.StandardAuthorizer\"", 9))
	_refuses(_at("3.8", [node]), 9, "authorizer.class.name", "is not a Java class name", "Kafka 3.8 refuses to start (\"java.lang.ClassNotFoundException: \"org.apache.kafka.metadata.authorizer.StandardAuthorizer\"\")")
}

test_fail_authorizer_empty_part if {
	node := t.with_setting(_broker, t.setting(_f, "authorizer.class.name", "org.apache..StandardAuthorizer", 9))
	_refuses(_at("4.3", [node]), 9, "authorizer.class.name", "authorizer.class.name=org.apache..StandardAuthorizer is not a Java class name", "java.lang.ClassNotFoundException: org.apache..StandardAuthorizer")
}

test_success_authorizer_class_names if {
	every name in ["org.apache.kafka.metadata.authorizer.StandardAuthorizer", "com.example.Outer$Inner_2", "com.exämple.Autorisierung", ""] {
		_silent(_at("4.3", [t.with_setting(_broker, t.setting(_f, "authorizer.class.name", name, 9))]))
	}
}

test_success_authorizer_absent if _silent(_at("4.3", [_broker]))

test_success_authorizer_placeholder if _silent(_at("4.3", [_unknown(_broker, "authorizer.class.name", 9)]))
