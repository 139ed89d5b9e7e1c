# METADATA
# title: Client does not connect with SASL_SSL
# description: |
#   A producer, consumer or admin client connects with a security protocol
#   other than SASL_SSL, or sets none (Kafka's default is PLAINTEXT): its
#   traffic is not encrypted or it does not authenticate, so the cluster's
#   ACLs cannot tell who it is.
# related_resources:
#   - description: Kafka docs, security.protocol
#     ref: https://kafka.apache.org/documentation/#producerconfigs_security.protocol
# schemas:
#   - input: schema.cluster
# custom:
#   id: ACME003
#   severity: warning
#   scope: production
#   category: security
#   applies_to: [producer, consumer, admin, client]
#   keys: [security.protocol]
package custom.acme["client-sasl-ssl"]

import data.kafkalint.lib.result

# custom.keys lists security.protocol, so a client that does not set it has
# Kafka's default (source "default", at the file's first line).
report contains result.fail(s, message) if {
	some client in input.clients
	s := client.settings["security.protocol"]
	is_string(s.value)
	upper(s.value) != "SASL_SSL"
	message := _message(s)
}

_message(s) := sprintf(
	"security.protocol=%s: clients must connect with SASL_SSL (TLS and SASL authentication); set security.protocol=SASL_SSL with a sasl.mechanism and its credentials",
	[s.value],
) if s.source != "default"

_message(s) := sprintf(
	"security.protocol is not set, so the client connects with Kafka's default %s: clients must connect with SASL_SSL (TLS and SASL authentication); set security.protocol=SASL_SSL with a sasl.mechanism and its credentials",
	[s.value],
) if s.source == "default"
