# METADATA
# title: Secret written inline
# description: |
#   A password or other secret (a password-type key, a *.password key, a
#   secret inside sasl.jaas.config) is written in the file instead of a
#   ${provider:...} config-provider reference or a platform secret
#   reference, so everyone who can read the file, its repository history or
#   a CI log has the credential.
# related_resources:
#   - description: Kafka docs, config providers (KIP-297)
#     ref: https://kafka.apache.org/documentation/#config_providers
#   - description: Kafka docs, JAAS configuration for Kafka clients
#     ref: https://kafka.apache.org/documentation/#security_client_staticjaas
# schemas:
#   - input: schema.cluster
# custom:
#   id: KFK2003
#   severity: warning
#   scope: all
#   applies_to: [broker, controller, producer, consumer, admin, client, mirrormaker]
#   keys: []
#   since: unreleased
#   fix: |
#     Reference the secret instead, with a config provider (config.providers=file
#     and key=${file:/path/to/secrets.properties:key}) or a Kubernetes or Vault
#     secret, and rotate the credential committed here.
package kafkalint.rules.security["inline-secret"]

import data.kafkalint.lib.result

# A ${provider:...} reference or template expression is an unknown value
# (the loader drops it), and a value that is itself a template placeholder
# holds no secret (_placeholder). The message names the key and, for JAAS,
# the option, never the value.
report contains _finding(s, _what(s), _what(s)) if {
	some s in _candidates
	not _jaas(s.key)
	_real_secret(s.key, s.raw)
}

report contains _finding(s, _options(options), _options_short(options)) if {
	some s in _candidates
	_jaas(s.key)
	options := sort({option |
		some m in regex.find_all_string_submatch_n(_jaas_secret_option, s.raw, -1)
		option := m[1]
		_real_secret(option, concat("", [m[2], m[3], m[4]]))
	})
	count(options) > 0
}

# _finding says what the setting holds (what) in the why and, when it fits
# on the line, in the message, else there the shorter form (short).
_finding(s, what, short) := result.explain(
	result.fail(s, _message(s, what, short)),
	sprintf(
		"%s holds %s as inline text, not a config-provider or platform secret reference: anyone who can read this file, its repository history or a CI log has the credential.",
		[s.key, what],
	),
	sprintf(
		"Reference it instead, e.g. with config.providers=file and %s=${file:/etc/kafka/secrets.properties:%s} (or a Kubernetes or Vault secret), and rotate the one committed here.",
		[s.key, s.key],
	),
)

_message(s, what, short) := m if {
	m := sprintf("%s holds %s as inline text", [s.key, what])
	count(m) <= 120
} else := sprintf("%s holds %s as inline text", [s.key, short])

_options(options) := sprintf("a secret in its %s option", [options[0]]) if count(options) == 1

_options(options) := sprintf("secrets in its %s options", [concat(", ", options)]) if count(options) > 1

_options_short(options) := _options(options) if count(options) == 1

_options_short(options) := sprintf("secrets in %d of its options", [count(options)]) if count(options) > 1

_what(s) := "a secret" if not endswith(s.key, "password")

_what(s) := "a password" if endswith(s.key, "password")

# _candidates are the settings written with a known value whose key holds
# a secret: secret_key, the loader's one definition (loader.IsSecretKey:
# the catalogue types the key as a password — ssl.key.password,
# sasl.jaas.config, sasl.oauthbearer.client.credentials.client.secret —
# or its name says it is one: listener- and alias-prefixed *.password keys
# the catalogue cannot type, Schema Registry basic auth, API secrets). Found
# once per evaluation for both reports with no rule function called per
# setting, among each unit's flagged_keys (which hold its secret keys):
# not every setting is read.
_candidates contains s if {
	some kind in _unit_kinds
	some unit in input[kind]
	some key in unit.flagged_keys
	s := unit.settings[key]
	s.secret_key
	s.source == "explicit"
	not s.unknown
}

# _jaas: the key is sasl.jaas.config, or ends with .sasl.jaas.config (a
# listener's or alias's): (^|\.)sasl\.jaas\.config$ without a regexp, as
# every candidate asks twice.
_jaas("sasl.jaas.config")

_jaas(key) if endswith(key, ".sasl.jaas.config")

# _unit_kinds are the input's lists of units with settings, each read in
# place (a list built of the units would copy each unit whole for the
# compiled engine, policies/lazyinput.go).
_unit_kinds := ["nodes", "clients", "mirror_makers"]

# A JAAS option carrying a secret: password, clientSecret (OAuth), or the
# PlainLoginModule's user_<name> entries, with a quoted or bare value.
_jaas_secret_option := `(?i)\b(password|clientsecret|client_secret|user_[A-Za-z0-9_.-]+)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s;"']+))`

_real_secret(key, value) if {
	v := trim_space(value)
	v != ""
	not _placeholder(key, v)
}

# _placeholder holds for a value that only marks where a secret goes, as
# config templates and documentation write it: a markup or template
# reference (<password>, even with the > lost; {API_SECRET}; ${PASSWORD};
# $PASSWORD), a run of X's or asterisks, a common placeholder word, or an
# all-caps word that repeats the key's (or JAAS option's) own name or its
# last segments (ssl.keystore.password=PASSWORD or =KEYSTORE_PASSWORD,
# password="PASSWORD", clientSecret="CLIENT_SECRET"). A real secret that is
# merely weak (changeit, the JDK's keystore default) is still reported.
_placeholder(_, v) if regex.match(`^(<.*|\{[^}]*\}|\$\{[^}]*\}|\$[A-Za-z_][A-Za-z0-9_]*|\*+|[xX]{3,})$`, v)

_placeholder(_, v) if regex.match(_placeholder_words, v)

_placeholder(key, v) if {
	regex.match(`^[A-Z][A-Z0-9_.-]*$`, v)
	segments := split(key, ".")
	some i in numbers.range(0, count(segments) - 1)
	_name_form(v) == _name_form(concat(".", array.slice(segments, i, count(segments))))
}

# _name_form compares names whatever their separators and case.
_name_form(name) := upper(regex.replace(name, `[._-]`, ""))

_placeholder_words := `(?i)^(change[-_ ]?me|replace[-_ ]?me|to[-_ ]?do|tbd|fix[-_ ]?me|placeholder|redacted|(your|my)[-_ ]?(password|secret|pass|passwd|token|api[-_ ]?(key|secret))([-_ ]?here)?|(password|secret)[-_ ]?here)$`
