package policies

import (
	"fmt"
	"strings"
	"testing"

	"github.com/kafkalint/kafkalint/loader"
)

// fuzzNames are the file names FuzzLint puts its input under: one for each
// way the loader reads a file (by name and content), so that one corpus
// reaches every parser and every rule.
var fuzzNames = []string{
	"prod/kafka/server.properties",
	"prod/kafka/meta.properties",
	"prod/mm2/connect-mirror-maker.properties",
	"prod/app/producer.properties",
	"prod/msk/main.tf",
	"prod/msk/main.tf.json",
	"prod/strimzi/kafka.yaml",
	"prod/chart/values.yaml",
	"prod/compose/docker-compose.yml",
}

// FuzzLint runs the whole lint path (loader, grouping, typing, every
// built-in rule) on arbitrary input: nothing may panic, every rule must
// evaluate without a runtime error, and every finding must point at a
// line of a file. CI runs it briefly (.ci/run); the seeds are the hostile
// inputs of docs/security.md in small form, plus the examples' shapes.
func FuzzLint(f *testing.F) {
	for i, s := range lintSeeds {
		f.Add(uint8(i), []byte(s))
	}
	for _, s := range hostileSeeds() {
		f.Add(s.which, []byte(s.data))
	}
	e, err := Builtin()
	if err != nil {
		f.Fatal(err)
	}
	opts := loader.Options{DefaultKeys: e.DefaultKeys()}
	f.Fuzz(func(t *testing.T, which uint8, data []byte) {
		name := fuzzNames[int(which)%len(fuzzNames)]
		res, err := loader.LoadSources([]loader.Source{{Name: name, Data: data}}, opts)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range res.Clusters {
			fs, err := e.Evaluate(t.Context(), c)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			for _, f := range fs {
				if f.File == "" || f.Line < 1 {
					t.Fatalf("%s: finding %s without file:line: %+v", name, f.ID, f)
				}
			}
		}
	})
}

// lintSeeds are small forms of hostile and typical inputs; seed i is read
// as fuzzNames[i % len(fuzzNames)].
var lintSeeds = []string{
	// properties: continuations, empty key, unicode escapes, long voter list
	"process.roles=broker,controller\nnode.id=1\ncontroller.quorum.voters=1@a:9093,\\\n 2@b:9093,\\\n\n=hunter2\nlisteners=PLAINTEXT://:9092,CONTROLLER://:9093\n\\u0041=\\uZZZZ\n",
	"version=1\ncluster.id=abc\nnode.id=1\ndirectory.id=x\n",
	"clusters=a,b\na.bootstrap.servers=x:9092\nb.bootstrap.servers=y:9092\na->b.enabled=true\na->b.topics=.*\n",
	"bootstrap.servers=k:9092\nacks=0\nenable.idempotence=true\nsecurity.protocol=SASL_SSL\nsasl.jaas.config=x password=\"s3cret\";\n",
	// Terraform: doubling strings, nested for, huge range, deep nesting
	"locals {\n s0 = \"ab\"\n s1 = \"${local.s0}${local.s0}\"\n s2 = \"${local.s1}${local.s1}\"\n r = [for i in range(100) : [for j in range(100) : j]]\n}\nresource \"aws_msk_configuration\" \"c\" {\n name = \"c\"\n server_properties = <<-EOT\n  min.insync.replicas = ${length(local.s2)}\n  EOT\n}\n",
	`{"resource": {"aws_msk_configuration": {"c": {"name": "c", "name": "d", "server_properties": "min.insync.replicas=1\n"}}}}`,
	// YAML: anchors, merge keys, deep nesting
	"apiVersion: kafka.strimzi.io/v1beta2\nkind: Kafka\nmetadata: {name: k}\nspec:\n  kafka:\n    replicas: 1\n    config: &c {offsets.topic.replication.factor: 1, min.insync.replicas: 2}\n    listeners: [{name: plain, port: 9092, type: internal, tls: false}]\n  zookeeper: {replicas: 1, x: *c}\n",
	"controller:\n  replicaCount: 2\n  extraConfig: \"a=b\\nc=d\"\nlisteners:\n  client: {protocol: PLAINTEXT}\nextraConfig: |\n  offsets.topic.replication.factor=1\n",
	"services:\n  kafka:\n    image: apache/kafka:4.1.0\n    environment:\n      KAFKA_NODE_ID: 1\n      KAFKA_PROCESS_ROLES: broker,controller\n      KAFKA_CONTROLLER_QUORUM_VOTERS: 1@kafka:9093\n      KAFKA_PASSWORD: ${SECRET:-x}\n",
}

// hostileSeeds are the hostile inputs of docs/security.md at a size just
// past (or at) the limits, built here rather than committed: each must load
// within its budget and end as findings or an errors[] entry.
func hostileSeeds() []struct {
	which uint8
	data  string
} {
	var voters []string
	for i := range 1001 { // one entry past the list limit
		voters = append(voters, fmt.Sprintf("%d@c%d.x.internal:9093", i, i))
	}
	var locals strings.Builder
	locals.WriteString("locals {\n  s0 = \"ab\"\n")
	for i := 1; i <= 40; i++ { // doubling strings: 2^40 bytes unbudgeted
		fmt.Fprintf(&locals, "  s%d = \"${local.s%d}${local.s%d}\"\n", i, i-1, i-1)
	}
	locals.WriteString("}\nresource \"aws_msk_configuration\" \"c\" {\n  name = \"c\"\n  server_properties = \"log.segment.bytes=${length(local.s40)}\\n\"\n}\n")
	tf := func(body string) string {
		return "resource \"aws_msk_configuration\" \"c\" {\n  name = \"c\"\n  server_properties = " + body + "\n}\n"
	}
	return []struct {
		which uint8
		data  string
	}{
		{0, "process.roles=controller\nnode.id=1\ncontroller.quorum.voters=" + strings.Join(voters, ",") + "\n"},
		{0, "a=" + strings.Repeat("x\\\n", 2000) + "\n"},
		{0, "=hunter2\n:hunter3\n" + strings.Repeat("log.retention.hours=1\n", 21)},
		{4, locals.String()},
		{4, tf(`join(",", [for p in setproduct(range(1000), range(1000), range(1000)) : "x"])`)},
		{4, tf(`indent(2000000000, "x")`)},
		{4, tf(`format("%2000000000s", "x")`)},
		{4, "x = " + strings.Repeat("[", 600) + strings.Repeat("]", 600) + "\n"},
		{5, "{\"x\": " + strings.Repeat("[", 600) + strings.Repeat("]", 600) + "}"},
		{6, "a: " + strings.Repeat("[", 2000) + strings.Repeat("]", 2000) + "\n"},
	}
}
