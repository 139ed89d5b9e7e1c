package loader

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// settingOf loads text as file under a temporary directory for a Kafka
// version and returns the setting of key (from a node, client, MirrorMaker
// or topic).
func settingOf(t *testing.T, file, text, version, key string) *Setting {
	t.Helper()
	dir := t.TempDir()
	write(t, dir, file, text)
	res := load(t, dir, Options{KafkaVersion: version})
	for _, c := range res.Clusters {
		for _, n := range c.Nodes {
			if s, ok := n.Settings[key]; ok {
				return s
			}
		}
		for _, cl := range c.Clients {
			if s, ok := cl.Settings[key]; ok {
				return s
			}
		}
		for _, mm := range c.MirrorMakers {
			if s, ok := mm.Settings[key]; ok {
				return s
			}
		}
	}
	t.Fatalf("%s: no setting %s", file, key)
	return nil
}

// annotation is what a test compares: the catalog verdict on a setting.
type annotation struct {
	Status, Suggestion, AddedIn, RemovedAfter, Invalid string
	KnownFor                                           []string
	Value                                              any
}

func annotationOf(s *Setting) annotation {
	return annotation{
		Status: s.KeyStatus, Suggestion: s.Notes().Suggestion, AddedIn: s.Notes().AddedIn, RemovedAfter: s.Notes().RemovedAfter,
		Invalid: s.Invalid, KnownFor: s.Notes().KnownFor, Value: s.Value,
	}
}

// annotationCase loads text as file for a Kafka version and expects want
// on the setting of key.
type annotationCase struct {
	name, file, text, version, key string
	want                           annotation
}

func checkAnnotations(t *testing.T, tests []annotationCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := annotationOf(settingOf(t, tt.file, tt.text, tt.version, tt.key))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Kafka %s, %s (-want +got):\n%s", tt.version, tt.key, diff)
			}
		})
	}
}

const brokerHead = "process.roles=broker\nnode.id=1\n"

// TestKeyStatus: one case per verdict, each with the Kafka version it
// applies to.
func TestKeyStatus(t *testing.T) {
	checkAnnotations(t, []annotationCase{
		{"known broker key", "server.properties", brokerHead + "num.partitions=3\n", "4.3", "num.partitions",
			annotation{Status: KeyKnown, Value: int64(3)}},
		{"typo with did-you-mean", "server.properties", brokerHead + "log.retention.hour=24\n", "4.3", "log.retention.hour",
			annotation{Status: KeyUnknown, Suggestion: "log.retention.hours", Value: "24"}},
		{"missing last segment", "server.properties", brokerHead + "log.retention.check.interval=300000\n", "4.3", "log.retention.check.interval",
			annotation{Status: KeyUnknown, Suggestion: "log.retention.check.interval.ms", Value: "300000"}},
		{"case and underscores", "server.properties", brokerHead + "Auto_Create_Topics_Enable=false\n", "4.3", "Auto_Create_Topics_Enable",
			annotation{Status: KeyUnknown, Suggestion: "auto.create.topics.enable", Value: "false"}},
		{"far from any key", "server.properties", brokerHead + "controller.id=3000\n", "4.3", "controller.id",
			annotation{Status: KeyUnknown, Value: "3000"}},
		{"topic key in a broker file", "server.properties", brokerHead + "retention.ms=1000\n", "4.3", "retention.ms",
			annotation{Status: KeyUnknown, Suggestion: "log.retention.ms", KnownFor: []string{"topic"}, Value: "1000"}},
		{"ZooKeeper key on 4.0", "server.properties", "broker.id=0\nzookeeper.connect=zk:2181\n", "4.0", "zookeeper.connect",
			annotation{Status: KeyRemoved, RemovedAfter: "3.9", Value: "zk:2181"}},
		{"ZooKeeper key on 3.9", "server.properties", "broker.id=0\nzookeeper.connect=zk:2181\n", "3.9", "zookeeper.connect",
			annotation{Status: KeyKnown, Value: "zk:2181"}},
		{"key added after the cluster's version", "server.properties", brokerHead + "controller.quorum.auto.join.enable=true\n", "3.9", "controller.quorum.auto.join.enable",
			annotation{Status: KeyUnknown, AddedIn: "4.2", Value: true}},
		{"internal in 3.9, documented before and after", "server.properties", brokerHead + "group.consumer.migration.policy=DISABLED\n", "3.9", "group.consumer.migration.policy",
			annotation{Status: KeyKnown, Value: "DISABLED"}},
		{"uncataloged older version checks nothing", "server.properties", brokerHead + "log.retention.hour=24\n", "3.5", "log.retention.hour",
			annotation{Value: "24"}},
		{"listener-prefixed key", "server.properties", brokerHead + "listener.name.internal.ssl.keystore.password=x\n", "4.3", "listener.name.internal.ssl.keystore.password",
			annotation{Status: KeyExempt, Value: "x"}},
		{"authorizer property", "server.properties", brokerHead + "super.users=User:admin\n", "4.3", "super.users",
			annotation{Status: KeyExempt, Value: "User:admin"}},
		{"vendor prefix", "server.properties", brokerHead + "confluent.balancer.enable=true\n", "4.3", "confluent.balancer.enable",
			annotation{Status: KeyExempt, Value: "true"}},
		{"templated key", "server.properties", brokerHead + "listener.name.{{name}}.x=1\n", "4.3", "listener.name.{{name}}.x",
			annotation{Status: KeyExempt, Value: "1"}},
		{"key in a conditional template block", "server.properties", brokerHead + "{% if old %}\nlog.retention.hour=24\n{% endif %}\n", "4.3", "log.retention.hour",
			annotation{Value: "24"}},
		{"embedded REST proxy of Confluent Server", "server.properties", brokerHead + "kafka.rest.bootstrap.servers=k:9092\n", "4.3", "kafka.rest.bootstrap.servers",
			annotation{Status: KeyExempt, Value: "k:9092"}},
		{"image variable written in a properties file", "server.properties", brokerHead + "ssl.keystore.filename=k.jks\n", "4.3", "ssl.keystore.filename",
			annotation{Status: KeyUnknown, Value: "k.jks"}},
		{"application key in a producer", "producer.properties", "bootstrap.servers=k:9092\nacks=all\ntopic=orders\n", "4.3", "topic",
			annotation{Status: KeyExempt, Value: "orders"}},
		{"consumer key in a producer", "producer.properties", "bootstrap.servers=k:9092\nacks=all\nfetch.max.wait.ms=500\n", "4.3", "fetch.max.wait.ms",
			annotation{Status: KeyUnknown, KnownFor: []string{"consumer"}, Value: "500"}},
		{"0.8 producer key", "producer.properties", "metadata.broker.list=k:9092\nrequest.required.acks=1\n", "4.3", "metadata.broker.list",
			annotation{Status: KeyUnknown, Suggestion: "bootstrap.servers", Value: "k:9092"}},
		{"client typo", "producer.properties", "bootstrap.servers=k:9092\nacks=all\nlinger.mss=5\n", "4.3", "linger.mss",
			annotation{Status: KeyUnknown, Suggestion: "linger.ms", Value: "5"}},
	})
}

// TestInvalidValue: one case per kind of validation, each with the Kafka
// version it applies to.
func TestInvalidValue(t *testing.T) {
	checkAnnotations(t, []annotationCase{
		{"not an int", "server.properties", brokerHead + "num.partitions=three\n", "4.3", "num.partitions",
			annotation{Status: KeyKnown, Invalid: "Not a number of type INT"}},
		{"int overflow", "server.properties", brokerHead + "num.partitions=3000000000\n", "4.3", "num.partitions",
			annotation{Status: KeyKnown, Invalid: "Not a number of type INT"}},
		{"not a boolean", "server.properties", brokerHead + "auto.create.topics.enable=yes\n", "4.3", "auto.create.topics.enable",
			annotation{Status: KeyKnown, Invalid: "Expected value to be either true or false"}},
		{"boolean any case", "server.properties", brokerHead + "auto.create.topics.enable=FALSE\n", "4.3", "auto.create.topics.enable",
			annotation{Status: KeyKnown, Value: false}},
		{"below [1,...]", "server.properties", brokerHead + "min.insync.replicas=0\n", "4.3", "min.insync.replicas",
			annotation{Status: KeyKnown, Invalid: "Value must be at least 1"}},
		{"negative node.id on 4.0", "server.properties", "process.roles=broker\nnode.id=-1\n", "4.0", "node.id",
			annotation{Status: KeyKnown, Invalid: "Value must be at least 0"}},
		{"negative node.id on 3.9 has no validator", "server.properties", "process.roles=broker\nnode.id=-1\n", "3.9", "node.id",
			annotation{Status: KeyKnown, Value: int64(-1)}},
		{"above [min,...,max]", "producer.properties", "bootstrap.servers=k:9092\nacks=all\nsasl.login.refresh.buffer.seconds=4000\n", "4.3", "sasl.login.refresh.buffer.seconds",
			annotation{Status: KeyKnown, Invalid: "Value must be no more than 3600"}},
		{"double range", "producer.properties", "bootstrap.servers=k:9092\nacks=all\nsasl.login.refresh.window.factor=0.2\n", "4.3", "sasl.login.refresh.window.factor",
			annotation{Status: KeyKnown, Invalid: "Value must be at least 0.5"}},
		{"range or alternative", "producer.properties", "bootstrap.servers=k:9092\nacks=all\ncompression.gzip.level=-1\n", "4.3", "compression.gzip.level",
			annotation{Status: KeyKnown, Value: int64(-1)}},
		{"outside range and alternative", "producer.properties", "bootstrap.servers=k:9092\nacks=all\ncompression.gzip.level=12\n", "4.3", "compression.gzip.level",
			annotation{Status: KeyKnown, Invalid: "Value must be in [1,...,9] or -1"}},
		{"case-sensitive enum", "producer.properties", "bootstrap.servers=k:9092\nacks=ALL\n", "4.3", "acks",
			annotation{Status: KeyKnown, Invalid: "String must be one of: all, -1, 0, 1"}},
		{"enum member", "producer.properties", "bootstrap.servers=k:9092\nacks=-1\n", "4.3", "acks",
			annotation{Status: KeyKnown, Value: "-1"}},
		{"case-insensitive enum", "producer.properties", "bootstrap.servers=k:9092\nacks=all\nsecurity.protocol=sasl_ssl\n", "4.3", "security.protocol",
			annotation{Status: KeyKnown, Value: "sasl_ssl"}},
		{"case-insensitive enum miss", "producer.properties", "bootstrap.servers=k:9092\nacks=all\nsecurity.protocol=TLS\n", "4.3", "security.protocol",
			annotation{Status: KeyKnown, Invalid: "String must be one of (case insensitive): SASL_SSL, PLAINTEXT, SSL, SASL_PLAINTEXT"}},
		{"list enum", "server.properties", "process.roles=broker,controler\nnode.id=1\n", "4.3", "process.roles",
			annotation{Status: KeyKnown, Invalid: "String must be one of: broker, controller"}},
		{"enum with pattern entry", "consumer.properties", "bootstrap.servers=k:9092\ngroup.id=g\nauto.offset.reset=by_duration:P1D\n", "4.3", "auto.offset.reset",
			annotation{Status: KeyKnown, Value: "by_duration:P1D"}},
		{"pattern entry did not exist in 3.9", "consumer.properties", "bootstrap.servers=k:9092\ngroup.id=g\nauto.offset.reset=by_duration:P1D\n", "3.9", "auto.offset.reset",
			annotation{Status: KeyKnown, Invalid: "String must be one of: latest, earliest, none"}},
		{"non-empty string", "producer.properties", "bootstrap.servers=k:9092\nacks=all\ntransactional.id=\n", "4.3", "transactional.id",
			annotation{Status: KeyKnown, Invalid: "String must be non-empty"}},
		{"empty voters are valid despite 'non-empty list'", "server.properties", "process.roles=broker\nnode.id=1\ncontroller.quorum.voters=\n", "4.3", "controller.quorum.voters",
			annotation{Status: KeyKnown, Value: []string{}}},
		{"placeholder is never judged", "server.properties", brokerHead + "min.insync.replicas=${env:MIN_ISR}\n", "4.3", "min.insync.replicas",
			annotation{Status: KeyKnown}},
		{"removed key's value is not judged", "server.properties", "broker.id=0\ncontrolled.shutdown.max.retries=many\n", "4.3", "controlled.shutdown.max.retries",
			annotation{Status: KeyRemoved, RemovedAfter: "3.9", Invalid: `"many" is not a valid int`}},
	})
}

// TestImageVariables: a container image's own variables
// (KAFKA_SSL_KEYSTORE_FILENAME) are read by its start script, not by Kafka.
func TestImageVariables(t *testing.T) {
	s := settingOf(t, "docker-compose.yml", `services:
  kafka:
    image: apache/kafka:4.1.0
    environment:
      KAFKA_PROCESS_ROLES: broker
      KAFKA_NODE_ID: 1
      KAFKA_SSL_KEYSTORE_FILENAME: kafka.keystore.jks
`, "", "ssl.keystore.filename")
	if s.KeyStatus != KeyExempt {
		t.Errorf("ssl.keystore.filename from a compose environment: status %q, want exempt", s.KeyStatus)
	}
}
