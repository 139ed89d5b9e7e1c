package loader

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kafkalint/kafkalint/loader/catalog"
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

func TestClosest(t *testing.T) {
	candidates := []string{"log.retention.hours", "log.retention.ms", "log.retention.minutes", "linger.ms", "acks", "emit.heartbeats.enabled", "emit.heartbeats.interval.seconds"}
	tests := []struct{ key, want string }{
		{"log.retention.hour", "log.retention.hours"},
		{"log.retention.m", "log.retention.ms"},
		{"lingerms", "linger.ms"},
		{"ack", "acks"},
		{"emit.heartbeats", "emit.heartbeats.enabled"},
		{"zzz", ""},
		{"log.retention", ""}, // three completions: ambiguous
	}
	for _, tt := range tests {
		if got := closest(tt.key, candidates); got != tt.want {
			t.Errorf("closest(%q) = %q, want %q", tt.key, got, tt.want)
		}
	}
}

func TestParseValidator(t *testing.T) {
	for _, text := range []string{
		"[partitionId]:[brokerId],[partitionId]:[brokerId],...",
		"A concrete subclass of org.apache.kafka.connect.storage.Converter, A class with a public, no-argument constructor",
		"non-empty list",
		"[0.8.0, 0.8.1, 2.8-IV1, 3.0-IV0]",
		"non-null string",
	} {
		if v := parseValidator(text); v.kind != "" {
			t.Errorf("parseValidator(%q) = %q, want nothing checkable", text, v.kind)
		}
	}
}

// FuzzValidator: any valid_values text parses into a validator that checks
// any value without panicking, and a value it accepts is never given a
// reason.
func FuzzValidator(f *testing.F) {
	for _, seed := range []string{
		"[1,...]", "[0,...,1]", "[1,...,9] or -1", "[-131072,...,22]", "[0.5,...,1.0]",
		"[all, -1, 0, 1]", "(case insensitive) [SASL_SSL, PLAINTEXT, SSL, SASL_PLAINTEXT]",
		"[latest, earliest, none, by_duration:PnDTnHnMn.nS]", "non-empty string", "non-empty list",
		"[partitionId]:[brokerId],[partitionId]:[brokerId],...", "[", "[]", "[,]", "(case insensitive) ",
	} {
		f.Add(seed, "1", int64(0))
	}
	f.Fuzz(func(t *testing.T, text, s string, n int64) {
		v := parseValidator(text)
		for _, value := range []any{s, n, float64(n) / 3, []string{s, s}, nil, true} {
			_ = v.check(value)
		}
		if v.kind == "enum" && len(v.values) > 0 && v.check(v.values[0]) != "" {
			t.Errorf("validator %q rejects its own first value %q", text, v.values[0])
		}
	})
}

// FuzzClosest: did-you-mean never panics and only suggests candidates.
func FuzzClosest(f *testing.F) {
	f.Add("log.retention.hour", "log.retention.hours")
	f.Add("", "")
	f.Add("émit_heartbeats", "emit.heartbeats.enabled")
	f.Fuzz(func(t *testing.T, key, candidate string) {
		candidates := []string{candidate, "acks", "linger.ms"}
		got := closest(key, candidates)
		if got != "" && got != candidate && got != "acks" && got != "linger.ms" {
			t.Errorf("closest(%q) = %q, not a candidate", key, got)
		}
		if want := closestByScan(key, candidates); got != want {
			t.Errorf("closest(%q) = %q, a full scan finds %q", key, got, want)
		}
	})
}

// closestByScan is closest without its shortcuts (no length bound, a fresh
// distance table per candidate): the reference the fast one must match.
func closestByScan(key string, candidates []string) string {
	norm := normalizeKey(key)
	best, bestDist, tie := "", maxDistance(norm)+1, false
	var completions []string
	seen := map[string]bool{}
	for _, c := range candidates {
		if seen[c] {
			continue
		}
		seen[c] = true
		nc := normalizeKey(c)
		if rest, ok := strings.CutPrefix(nc, norm+"."); ok && !strings.Contains(rest, ".") {
			completions = append(completions, c)
		}
		var rows [2][]int
		switch d := levenshtein(norm, nc, &rows); {
		case d < bestDist:
			best, bestDist, tie = c, d, false
		case d == bestDist:
			tie = true
		}
	}
	if best != "" && !tie {
		return best
	}
	if len(completions) == 1 {
		return completions[0]
	}
	return ""
}

// TestClosestMatchesFullScan mistypes every broker and producer key of the
// newest catalog (a letter dropped, doubled, swapped; a segment dropped)
// and checks that the suggestion is the one a full scan finds.
func TestClosestMatchesFullScan(t *testing.T) {
	version := catalog.Newest()
	for _, scope := range []string{catalog.Broker, catalog.Producer} {
		keys := catalog.Keys(version, scope)
		slices.Sort(keys) // closest's iteration order decides among completions
		checked := 0
		for i, k := range keys {
			if i%7 != 0 { // a sample keeps the test fast; every shape of key is still there
				continue
			}
			mid := len(k) / 2
			typos := []string{k[:mid] + k[mid+1:], k[:mid] + k[mid:mid+1] + k[mid:], k + "x", k[:strings.LastIndex(k, ".")+1]}
			if mid+1 < len(k) {
				typos = append(typos, k[:mid]+k[mid+1:mid+2]+k[mid:mid+1]+k[mid+2:])
			}
			for _, typo := range typos {
				if got, want := closest(typo, keys), closestByScan(typo, keys); got != want {
					t.Errorf("closest(%q) = %q, a full scan finds %q", typo, got, want)
				}
				checked++
			}
		}
		if checked < 50 {
			t.Fatalf("%s: only %d typos checked", scope, checked)
		}
	}
}

// levenshtein is the full edit distance table of a and b, the reference
// levenshteinWithin must match; rows is scratch space
// reused across calls (closest compares one key with every catalog key).
func levenshtein(a, b string, rows *[2][]int) int {
	for i := range rows {
		if cap(rows[i]) < len(b)+1 {
			rows[i] = make([]int, len(b)+1)
		}
	}
	prev, cur := rows[0][:len(b)+1], rows[1][:len(b)+1]
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// levenshteinWithin is the full distance when it is at most k, else k+1.
func FuzzLevenshteinWithin(f *testing.F) {
	f.Add("log.retention.hour", "log.retention.hours", uint8(2))
	f.Add("", "abc", uint8(0))
	f.Add("abcdef", "badcfe", uint8(3))
	f.Fuzz(func(t *testing.T, a, b string, k uint8) {
		var r1, r2 [2][]int
		want := min(levenshtein(a, b, &r1), int(k)+1)
		if got := levenshteinWithin(a, b, int(k), &r2); got != want {
			t.Errorf("levenshteinWithin(%q, %q, %d) = %d, want %d", a, b, k, got, want)
		}
	})
}
