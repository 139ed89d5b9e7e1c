# METADATA
# title: Client listener without TLS in production
# description: |
#   A listener that clients connect to maps to PLAINTEXT or SASL_PLAINTEXT,
#   so records (and with SASL_PLAINTEXT the SASL exchange, PLAIN passwords
#   included) cross the network unencrypted, and with PLAINTEXT every client
#   is the unauthenticated ANONYMOUS principal.
# related_resources:
#   - description: Kafka docs, security overview and listener configuration
#     ref: https://kafka.apache.org/documentation/#security_overview
#   - description: Kafka docs, listener.security.protocol.map
#     ref: https://kafka.apache.org/documentation/#brokerconfigs_listener.security.protocol.map
# schemas:
#   - input: schema.cluster
# custom:
#   id: KFK2001
#   severity: warning
#   scope: production
#   applies_to: [broker]
#   keys: [listeners, advertised.listeners, inter.broker.listener.name, security.inter.broker.protocol]
#   since: unreleased
#   fix: |
#     Serve clients on SSL or SASL_SSL: map the client listener to one of them
#     in listener.security.protocol.map. On Amazon MSK set
#     encryption_in_transit client_broker to TLS.
package kafkalint.rules.security["plaintext-listener-in-production"]

import data.kafkalint.lib.cluster
import data.kafkalint.lib.result

# Client-facing listeners are the ones a broker advertises (advertised
# listeners, else listeners), minus controller listeners and minus the
# inter-broker listener when the broker advertises another listener for
# clients (a replication-only listener is an in-cluster encryption concern,
# not a client one). Protocols are the loader's, from the effective
# listener.security.protocol.map; an unmapped or unknown listener is not
# judged. A listener advertised on a loopback address serves only clients on
# the same machine: its traffic never crosses a network.
report contains result.explain(result.fail({"key": key, "location": l.location}, message), why, fix) if {
	some node in input.nodes
	node.is_broker
	[key, listeners] := _facing(node)
	names := {l.name | some l in listeners; not l.error; not l.name in cluster.controller_names(node)}
	some l in listeners
	protocol := upper(l.protocol) # first: most listeners' protocol ends the search
	protocol in {"PLAINTEXT", "SASL_PLAINTEXT"}
	l.name in names
	not _internal_only(node, l.name, names)
	not cluster.loopback_host(l.host)
	message := _listener_message(l, protocol)
	why := sprintf("Clients of %s %s.", [l.raw, _exposure(protocol)])
	fix := sprintf(
		"Serve clients on SSL or SASL_SSL, for example %s://...:9093 with %s:SASL_SSL in listener.security.protocol.map.",
		[l.name, l.name],
	)
}

# A managed cluster (MSK) has no listeners in its configuration: its
# encryption_info.encryption_in_transit.client_broker says what clients may
# use. PLAINTEXT allows only plain text; TLS_PLAINTEXT allows both, so a
# client can still connect in clear text. Absent means MSK's default, TLS.
report contains result.explain(result.fail(setting, message), _msk_why, "Set it to TLS.") if {
	some node in input.nodes
	some key, setting in node.platform
	endswith(key, "client_broker")
	setting.value in {"PLAINTEXT", "TLS_PLAINTEXT"}
	message := sprintf("%s = %q lets clients connect in clear text", [key, setting.value])
}

_msk_why := "Clients can connect to the managed cluster in clear text: every record (and any SASL/SCRAM exchange) crosses the network unencrypted."

# _listener_message names the listener as written, unless a long host name
# would make the line too long (the why quotes it then).
_listener_message(l, protocol) := m if {
	m := sprintf("listener %s (%s) is %s: %s", [l.name, l.raw, protocol, _summary(protocol)])
	count(m) <= 120
} else := sprintf("listener %s is %s: %s", [l.name, protocol, _summary(protocol)])

_summary("PLAINTEXT") := "unencrypted and unauthenticated"

_summary("SASL_PLAINTEXT") := "unencrypted"

_exposure("PLAINTEXT") := "connect unauthenticated as the ANONYMOUS principal and every record crosses the network in clear text"

_exposure("SASL_PLAINTEXT") := "authenticate, but the SASL exchange (a PLAIN password included) and every record cross the network in clear text"

_facing(node) := ["advertised.listeners", node.advertised_listeners] if {
	count(node.advertised_listeners) > 0
	not node.settings["advertised.listeners"].unknown
}

_facing(node) := ["listeners", node.listeners] if {
	count(node.advertised_listeners) == 0
	not node.settings["advertised.listeners"].unknown
	not node.settings.listeners.unknown
}

# _internal_only: name is the inter-broker listener and the broker
# advertises another listener for clients.
_internal_only(node, name, names) if {
	name == _inter_broker_listener(node)
	count(names - {name}) > 0
}

_inter_broker_listener(node) := upper(s.value) if {
	s := node.settings["inter.broker.listener.name"]
	s.source == "explicit"
	is_string(s.value)
} else := upper(s.value) if {
	s := node.settings["security.inter.broker.protocol"]
	is_string(s.value)
}
