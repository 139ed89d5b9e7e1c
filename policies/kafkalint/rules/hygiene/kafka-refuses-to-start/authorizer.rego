package kafkalint.rules.hygiene["kafka-refuses-to-start"]

import data.kafkalint.lib.result
import data.kafkalint.lib.settings
import data.kafkalint.lib.version

# The authorizer. Every broker and controller loads authorizer.class.name
# when it starts (KafkaConfig.createNewAuthorizer, AuthorizerUtils
# .createAuthorizer: Utils.newInstance), and a class it cannot load stops
# it. kafkalint cannot see the class path, so it reports only the two
# classes that can never load: the ZooKeeper AclAuthorizer on 4.x, and a
# value that is not a Java class name at all.

report contains result.explain(result.fail(authorizer, message), why, fix) if {
	version.at_least(4, 0)
	some node in input.nodes
	authorizer := node.settings["authorizer.class.name"]
	settings.explicit_value(authorizer)
	authorizer.value == "kafka.security.authorizer.AclAuthorizer"
	message := "authorizer.class.name=kafka.security.authorizer.AclAuthorizer: removed in Kafka 4.0"
	why := sprintf(
		"AclAuthorizer is the ZooKeeper-based authorizer, which Kafka 4.0 removed. Kafka %s cannot load the class and refuses to start.",
		[input.kafka_version],
	)
	fix := "Use org.apache.kafka.metadata.authorizer.StandardAuthorizer on every broker and controller (ACLs then live in the KRaft metadata log)."
}

report contains _refused(result.fail(authorizer, message), context, words, fix) if {
	some node in input.nodes
	authorizer := node.settings["authorizer.class.name"]
	settings.explicit_value(authorizer)
	name := trim_space(authorizer.raw)
	name != ""
	not _class_name(name)
	message := sprintf("authorizer.class.name=%s is not a Java class name", [name])
	context := "Kafka loads the authorizer class when the node starts, and quotes, spaces, an empty part or other punctuation can never be in a class name."
	words := sprintf("java.lang.ClassNotFoundException: %s", [name])
	fix := "Write the authorizer's fully qualified class name alone, without quotes or spaces, e.g. org.apache.kafka.metadata.authorizer.StandardAuthorizer."
}

# --- helpers ------------------------------------------------------------------

# _class_name: a Java binary name, dot-separated identifiers. Liberal on
# purpose: any non-ASCII character counts as a letter, so only what can
# never be in a name is refused (an empty part, a part starting with a
# digit, ASCII punctuation other than _ and $, white space).
_class_name(name) if {
	every part in split(name, ".") {
		part != ""
		not regex.match(`^[0-9]`, part)
		not regex.match(`[\x00-\x20\x7f!-#%-/:-@\[-\^\x60{-~]`, part)
	}
}
