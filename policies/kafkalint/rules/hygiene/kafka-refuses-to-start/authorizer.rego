package kafkalint.rules.hygiene["kafka-refuses-to-start"]

import data.kafkalint.lib.result
import data.kafkalint.lib.settings
import data.kafkalint.lib.version

# The authorizer (kafka-config-facts §1.9, §6 item 12).

report contains result.fail(authorizer, message) if {
	version.at_least(4, 0)
	some node in input.nodes
	authorizer := node.settings["authorizer.class.name"]
	settings.explicit_value(authorizer)
	authorizer.value == "kafka.security.authorizer.AclAuthorizer"
	message := sprintf(
		"authorizer.class.name=kafka.security.authorizer.AclAuthorizer is the ZooKeeper-based authorizer, which Kafka 4.0 removed: Kafka %s cannot load the class and refuses to start; use org.apache.kafka.metadata.authorizer.StandardAuthorizer on every broker and controller (ACLs then live in the KRaft metadata log)",
		[input.kafka_version],
	)
}
