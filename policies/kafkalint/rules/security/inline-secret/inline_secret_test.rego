package kafkalint.rules.security["inline-secret_test"]

import data.kafkalint.lib.testing as t
import data.kafkalint.rules.security["inline-secret"] as rule

_message(key, what) := sprintf("%s holds %s as inline text", [key, what])

# _finding is the finding about key, holding what, at file:line.
_finding(file, line, key, what) := object.union(t.finding(file, line, key, _message(key, what)), {
	"why": sprintf(
		"%s holds %s as inline text, not a config-provider or platform secret reference: anyone who can read this file, its repository history or a CI log has the credential.",
		[key, what],
	),
	"fix": sprintf(
		"Reference it instead, e.g. with config.providers=file and %s=${file:/etc/kafka/secrets.properties:%s} (or a Kubernetes or Vault secret), and rotate the one committed here.",
		[key, key],
	),
})

# The loader marks a setting whose key holds a secret with secret_key
# (loader.IsSecretKey): by the catalogue's password type or by its name.
_password(file, key, value, line) := object.union(_secret(file, key, value, line), {"type": "password"})

_secret(file, key, value, line) := object.union(t.setting(file, key, value, line), {"secret_key": true})

test_fail_keystore_password_on_broker if {
	node := t.with_setting(t.node("server.properties", ["broker"], []), _password("server.properties", "ssl.keystore.password", "changeit", 9))
	rule.report == {_finding("server.properties", 9, "ssl.keystore.password", "a password")} with input as t.cluster([node], [])
}

test_fail_listener_prefixed_password if {
	node := t.with_setting(t.node("server.properties", ["broker"], []), _secret("server.properties", "listener.name.internal.ssl.key.password", "s3cr3t", 11))
	rule.report == {_finding("server.properties", 11, "listener.name.internal.ssl.key.password", "a password")} with input as t.cluster([node], [])
}

test_fail_jaas_password_on_client_never_prints_it if {
	jaas := `org.apache.kafka.common.security.plain.PlainLoginModule required username="alice" password="alice-secret";`
	client := t.with_setting(t.client("client.properties", "client", []), _password("client.properties", "sasl.jaas.config", jaas, 3))
	reports := rule.report with input as t.cluster([], [client])
	reports == {_finding("client.properties", 3, "sasl.jaas.config", "a secret in its password option")}
	every f in reports {
		not contains(f.message, "alice-secret")
	}
}

test_fail_jaas_user_entries_on_mirror_maker_alias if {
	jaas := `org.apache.kafka.common.security.plain.PlainLoginModule required username=admin password='admin-secret' user_admin="admin-secret" user_bob=bob-secret;`
	mm := t.with_setting(t.mirror_maker("mm2.properties", [], [], []), _secret("mm2.properties", "target.sasl.jaas.config", jaas, 6))
	rule.report == {_finding("mm2.properties", 6, "target.sasl.jaas.config", "secrets in its password, user_admin, user_bob options")} with input as t.mirror_cluster([mm])
}

# Many secret options are counted in the message and listed in the why.
test_fail_many_jaas_options_are_counted if {
	jaas := `org.apache.kafka.common.security.plain.PlainLoginModule required username="admin" password="a-1" user_admin="a-1" user_alice="b-2" user_bob="c-3" user_carol="d-4" user_dave="e-5";`
	node := t.with_setting(t.node("server.properties", ["broker"], []), _secret("server.properties", "listener.name.sasl_ssl.plain.sasl.jaas.config", jaas, 7))
	some f in rule.report with input as t.cluster([node], [])
	f.message == "listener.name.sasl_ssl.plain.sasl.jaas.config holds secrets in 6 of its options as inline text"
	contains(f.why, "secrets in its password, user_admin, user_alice, user_bob, user_carol, user_dave options")
}

test_success_jaas_without_secret if {
	jaas := `com.sun.security.auth.module.Krb5LoginModule required useKeyTab=true keyTab="/etc/security/kafka.keytab" principal="kafka/broker-1@EXAMPLE.COM";`
	client := t.with_setting(t.client("client.properties", "client", []), _password("client.properties", "sasl.jaas.config", jaas, 3))
	count(rule.report) == 0 with input as t.cluster([], [client])
}

test_success_jaas_documentation_placeholders if {
	jaas := `org.apache.kafka.common.security.plain.PlainLoginModule required username="<API_KEY>" password='<Your Event Hubs connection string.' user_admin="****";`
	client := t.with_setting(t.client("client.properties", "client", []), _password("client.properties", "sasl.jaas.config", jaas, 3))
	count(rule.report) == 0 with input as t.cluster([], [client])
}

test_success_config_provider_reference if {
	reference := t.unknown_setting("client.properties", "ssl.truststore.password", "${file:/etc/kafka/secrets.properties:truststore}", 4)
	client := t.with_setting(t.client("client.properties", "client", []), object.union(reference, {"secret_key": true}))
	count(rule.report) == 0 with input as t.cluster([], [client])
}

test_success_empty_password if {
	node := t.with_setting(t.node("server.properties", ["broker"], []), _password("server.properties", "ssl.keystore.password", "", 9))
	count(rule.report) == 0 with input as t.cluster([node], [])
}

test_success_no_secret_keys if {
	node := t.node("server.properties", ["broker"], [["ssl.keystore.location", "/etc/kafka/keystore.jks", 8]])
	count(rule.report) == 0 with input as t.cluster([node], [])
}

test_success_key_not_marked_secret if {
	# secret_key is the one definition of a secret key: the rule does not
	# guess from the name itself.
	node := t.node("server.properties", ["broker"], [["ssl.keystore.password", "changeit", 9]])
	count(rule.report) == 0 with input as t.cluster([node], [])
}

# Template placeholders mark where a secret goes and hold none.
test_success_template_placeholders if {
	values := [
		["ssl.keystore.password", "PASSWORD"],
		["ssl.keystore.password", "KEYSTORE_PASSWORD"],
		["ssl.keystore.password", "SSL_KEYSTORE_PASSWORD"],
		["ssl.key.password", "XXXXXX"],
		["ssl.truststore.password", "changeme"],
		["ssl.truststore.password", "Change-Me"],
		["ssl.truststore.password", "REPLACE_ME"],
		["ssl.truststore.password", "TODO"],
		["ssl.truststore.password", "your-password"],
		["ssl.truststore.password", "<truststore password>"],
		["ssl.truststore.password", "${TRUSTSTORE_PASSWORD}"],
		["ssl.truststore.password", "********"],
	]
	every v in values {
		node := t.with_setting(t.node("server.properties", ["broker"], []), _password("server.properties", v[0], v[1], 9))
		count(rule.report) == 0 with input as t.cluster([node], [])
	}
}

test_success_jaas_template_placeholders if {
	jaas := `org.apache.kafka.common.security.plain.PlainLoginModule required username="USERNAME" password="PASSWORD" user_admin="XXXXXXXX" clientSecret="CLIENT_SECRET" user_bob='${BOB_PASSWORD}';`
	client := t.with_setting(t.client("client.properties", "client", []), _password("client.properties", "sasl.jaas.config", jaas, 3))
	count(rule.report) == 0 with input as t.cluster([], [client])
}

# Real secrets stay reported: an all-caps word that is not the key's name,
# a weak password (bare "secret" or "password" runs as written: Kafka's own
# docs use such values in working examples), a word that only contains a
# placeholder word.
test_fail_secrets_that_look_like_words if {
	values := ["KAFKA", "changeit", "changeme123", "secret-sauce", "XX", "x9XXXX", "secret", "password", "passwd"]
	every v in values {
		node := t.with_setting(t.node("server.properties", ["broker"], []), _password("server.properties", "ssl.keystore.password", v, 9))
		rule.report == {_finding("server.properties", 9, "ssl.keystore.password", "a password")} with input as t.cluster([node], [])
	}
}

test_fail_jaas_real_secret_beside_placeholder_never_prints_it if {
	jaas := `org.apache.kafka.common.security.plain.PlainLoginModule required username="USERNAME" password="PASSWORD" user_admin="Adm1n-S3cret";`
	client := t.with_setting(t.client("client.properties", "client", []), _password("client.properties", "sasl.jaas.config", jaas, 3))
	reports := rule.report with input as t.cluster([], [client])
	reports == {_finding("client.properties", 3, "sasl.jaas.config", "a secret in its user_admin option")}
	every f in reports {
		not contains(f.message, "Adm1n-S3cret")
	}
}

# Built with the loader (kafkalint.parse), not fixtures: a keystore password written inline.
test_loader_inline_secret if {
	reports := rule.report with input as kafkalint.parse("", "prod/kafka/server.properties", `process.roles=broker
node.id=4
controller.quorum.voters=1@c1:9093,2@c2:9093,3@c3:9093
controller.listener.names=CONTROLLER
listeners=SSL://:9093
ssl.keystore.password=hunter2hunter2
`)
	{[f.location.file, f.location.line, object.get(f, "key", "")] | some f in reports} == {["prod/kafka/server.properties", 6, "ssl.keystore.password"]}
}

# Built with the loader: a template whose passwords are placeholders, and
# one real secret among them.
test_loader_template_placeholders if {
	reports := rule.report with input as kafkalint.parse("", "prod/kafka/server.properties", `process.roles=broker
node.id=4
controller.quorum.voters=1@c1:9093,2@c2:9093,3@c3:9093
controller.listener.names=CONTROLLER
listeners=SSL://:9093
ssl.keystore.password=PASSWORD
ssl.key.password=XXXXXX
ssl.truststore.password=changeme
listener.name.ssl.ssl.key.password=<key password>
sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username="admin" password="PASSWORD";
listener.name.sasl_ssl.plain.sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required user_admin="9f8e7d6c";
`)
	{[f.location.file, f.location.line, object.get(f, "key", "")] | some f in reports} == {["prod/kafka/server.properties", 11, "listener.name.sasl_ssl.plain.sasl.jaas.config"]}
	every f in reports {
		not contains(f.message, "9f8e7d6c")
	}
}

# A JAAS configuration is sasl.jaas.config itself or a prefixed one.
test_success_jaas_keys if {
	rule._jaas("sasl.jaas.config")
	rule._jaas("listener.name.sasl_ssl.plain.sasl.jaas.config")
	not rule._jaas("xsasl.jaas.config")
	not rule._jaas("sasl.jaas.config.x")
	not rule._jaas("sasl.jaas.configs")
}
