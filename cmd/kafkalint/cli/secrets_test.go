package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// plantSecrets writes one configuration of every format, each holding
// secrets marked MARK-<format>-<n>: password-type keys, keys named as
// secrets, JAAS passwords, Terraform variables declared sensitive (and
// values derived from them), a compose .env substitution, a Strimzi key the
// operator ignores. It returns every marker written.
func plantSecrets(t *testing.T) []string {
	t.Helper()
	writeFile(t, "prod/props/server.properties", `process.roles=broker,controller
node.id=1
controller.quorum.voters=1@localhost:9093
ssl.keystore.password=MARK-PROPS-1
listener.name.internal.ssl.key.password=MARK-PROPS-2
listener.name.client.plain.sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username="admin" password="MARK-PROPS-3";
ssl.keystore.key=MARK-PROPS-4
`)
	writeFile(t, "prod/props/client.properties", `bootstrap.servers=localhost:9092
sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required username="app" password="MARK-CLIENT-1";
basic.auth.user.info=app:MARK-CLIENT-2
`)
	writeFile(t, "prod/mm2/mm2.properties", `clusters=a,b
a.bootstrap.servers=a:9092
b.bootstrap.servers=b:9092
a->b.enabled=true
a.sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username="mm" password="MARK-MM-1";
a->b.ssl.key.password=MARK-MM-2
b.ssl.truststore.password=MARK-MM-3
`)
	writeFile(t, "prod/tf/main.tf", `variable "retention" {
  type      = string
  sensitive = true
  default   = "MARK-TF-1"
}
variable "topic_secret" {
  type      = string
  sensitive = true
}
locals {
  derived = "${var.retention}-hours"
}
resource "aws_msk_configuration" "this" {
  name           = "cfg"
  kafka_versions = ["3.7.x"]
  server_properties = <<-EOT
    log.retention.hours = ${local.derived}
    ssl.truststore.password = MARK-TF-3
  EOT
}
resource "kafka_topic" "t" {
  name               = "t"
  replication_factor = 3
  partitions         = 3
  config = {
    "retention.ms" = var.topic_secret
  }
}
`)
	writeFile(t, "prod/tf/terraform.tfvars", "topic_secret = \"MARK-TF-2\"\n")
	writeFile(t, "prod/strimzi/kafka.yaml", `apiVersion: kafka.strimzi.io/v1
kind: Kafka
metadata:
  name: payments
  namespace: payments
spec:
  kafka:
    version: 4.0.0
    replicas: 3
    listeners:
      - name: tls
        port: 9093
        type: internal
        tls: true
    config:
      ssl.keystore.password: MARK-STRIMZI-1
      confluent.metrics.reporter.ssl.key.password: MARK-STRIMZI-2
      default.replication.factor: 3
`)
	writeFile(t, "prod/helm/values.yaml", `image:
  repository: bitnami/kafka
controller:
  replicaCount: 3
  controllerOnly: true
broker:
  replicaCount: 3
extraConfig: |
  ssl.keystore.password=MARK-HELM-1
overrideConfiguration:
  ssl.truststore.password: MARK-HELM-2
secretConfig: |
  num.io.threads=MARK-HELM-4
extraEnvVars:
  - name: KAFKA_CFG_SSL_KEY_PASSWORD
    value: MARK-HELM-3
`)
	writeFile(t, "prod/compose/docker-compose.yml", `services:
  kafka:
    image: bitnami/kafka:3.7
    environment:
      KAFKA_CFG_PROCESS_ROLES: broker,controller
      KAFKA_CFG_NODE_ID: 1
      KAFKA_CFG_CONTROLLER_QUORUM_VOTERS: 1@kafka:9093
      KAFKA_CFG_SSL_KEYSTORE_PASSWORD: MARK-COMPOSE-1
      KAFKA_CFG_SSL_TRUSTSTORE_PASSWORD: ${TRUSTSTORE_PASSWORD}
`)
	writeFile(t, "prod/compose/.env", "TRUSTSTORE_PASSWORD=MARK-COMPOSE-2\n")
	return []string{
		"MARK-PROPS-1", "MARK-PROPS-2", "MARK-PROPS-3", "MARK-PROPS-4", "MARK-CLIENT-1", "MARK-CLIENT-2",
		"MARK-TF-1", "MARK-TF-2", "MARK-TF-3", "MARK-STRIMZI-1", "MARK-STRIMZI-2",
		"MARK-HELM-1", "MARK-HELM-2", "MARK-HELM-3", "MARK-HELM-4", "MARK-COMPOSE-1", "MARK-COMPOSE-2",
		"MARK-MM-1", "MARK-MM-2", "MARK-MM-3",
	}
}

// leakPolicy is a custom rule that quotes every setting's raw text, value
// and invalid reason in its message: whatever a rule prints, a secret must
// not come out.
const leakPolicy = `# METADATA
# title: Quotes every value
# description: Prints each setting's raw text, value and invalid reason.
# schemas:
#   - input: schema.cluster
# custom:
#   id: ACME100
#   severity: warning
#   scope: all
package custom.test["leak"]

import data.kafkalint.lib.result

report contains result.fail(s, _message(s)) if {
	some unit in array.concat(array.concat(array.concat(input.nodes, input.clients), input.topics), input.mirror_makers)
	some s in unit.settings
	s.source == "explicit"
}

report contains result.fail(s, _message(s)) if {
	some node in input.nodes
	some s in node.ignored_settings
}

report contains result.fail(s, _message(s)) if {
	some mm in input.mirror_makers
	some flow in mm.flows
	some s in flow.settings
	s.source == "explicit"
}

_message(s) := sprintf("%s=%s value=%v invalid=%s", [s.key, s.raw, object.get(s, "value", null), object.get(s, "invalid", "")])
`

var markerRE = regexp.MustCompile(`MARK-[A-Z]+-\d`)

// TestSecretsNeverPrinted plants secrets in every format and checks that no
// marker comes out of inspect or of any lint output format, while
// inspect --show-secrets shows every one of them (so each was read).
func TestSecretsNeverPrinted(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	markers := plantSecrets(t)
	writeFile(t, "policy/leak.rego", leakPolicy)

	_, shown, _ := run(t, "inspect", "--show-secrets", "prod")
	for _, m := range markers {
		if !strings.Contains(shown, m) {
			t.Errorf("inspect --show-secrets: %s not in the model: the fixture does not plant it", m)
		}
	}
	_, out, stderr := run(t, "inspect", "prod")
	if leaked := markerRE.FindAllString(out+stderr, -1); len(leaked) > 0 {
		t.Errorf("inspect prints secrets %v", leaked)
	}
	if !strings.Contains(out, `"raw": "(sensitive)"`) {
		t.Errorf("inspect does not say (sensitive)")
	}

	args := []string{"lint", "--policy", "policy", "--no-color"}
	for _, f := range []string{"text", "json", "sarif", "github", "junit"} {
		args = append(args, "--format", f+"="+filepath.Join(dir, "out."+f))
	}
	run(t, append(args, "prod")...)
	for _, f := range []string{"text", "json", "sarif", "github", "junit"} {
		b, err := os.ReadFile(filepath.Join(dir, "out."+f))
		if err != nil {
			t.Fatal(err)
		}
		if leaked := markerRE.FindAllString(string(b), -1); len(leaked) > 0 {
			t.Errorf("lint --format %s prints secrets %v", f, leaked)
		}
		// The leak policy reported each planted setting (else this test
		// proves nothing), its raw text redacted.
		if n := strings.Count(string(b), "=(sensitive) value="); n < len(markers) {
			t.Errorf("lint --format %s: %d redacted ACME100 messages, want at least %d", f, n, len(markers))
		}
	}
}

// TestEvaluationErrorNeverQuotesSecrets: an evaluation error becomes an
// errors[] entry, and it may quote a value (a custom rule whose finding's
// location is a setting's text): a secret is redacted there too.
func TestEvaluationErrorNeverQuotesSecrets(t *testing.T) {
	t.Chdir(t.TempDir())
	writeFile(t, "prod/server.properties", "process.roles=broker\nnode.id=1\nssl.keystore.password=MARK-ERR-1\n")
	writeFile(t, "policy/bad.rego", `# METADATA
# title: Malformed finding
# description: Its location is a setting's raw text.
# schemas:
#   - input: schema.cluster
# custom:
#   id: ACME101
#   severity: warning
#   scope: all
package custom.test["bad"]

report contains {"message": "m", "key": s.key, "location": s.raw, "related": []} if {
	some node in input.nodes
	s := node.settings["ssl.keystore.password"]
}
`)
	code, rep := lintJSON(t, "--policy", "policy", "prod")
	if code != ExitError || len(rep.Errors) != 1 {
		t.Fatalf("exit %d, errors %+v: want the cluster's evaluation error", code, rep.Errors)
	}
	if msg := rep.Errors[0].Message; strings.Contains(msg, "MARK-ERR-1") || !strings.Contains(msg, "unexpected value (sensitive)") {
		t.Errorf("error message %q: want the value redacted", msg)
	}
}
