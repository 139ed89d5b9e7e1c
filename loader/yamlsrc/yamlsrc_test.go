package yamlsrc

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	yaml "go.yaml.in/yaml/v3"

	"github.com/kafkalint/kafkalint/loader/doc"
)

func mustParse(t *testing.T, name, text string) *File {
	t.Helper()
	f, err := Parse(name, []byte(text))
	if err != nil {
		t.Fatalf("parse %s: %v", name, err)
	}
	return f
}

func TestParseError(t *testing.T) {
	for text, line := range map[string]int{
		"a: 1\nb: [1, 2\nc: 3\n": 2, // the unterminated flow sequence starts on line 2
		"a:\n  - b\n  c: d\n":    2,
		"a: 1\n b: 2\n":          2,
		"x: 1\n\tb: 2\n":         2,
	} {
		_, err := Parse("bad.yaml", []byte(text))
		if err == nil || err.Line != line {
			t.Errorf("%q: want an error at line %d, got %+v", text, line, err)
		}
	}
	if _, err := Parse("nul.yaml", []byte("a: 1\n\x00")); err == nil || err.Line != 2 {
		t.Fatalf("NUL byte: %+v", err)
	}
	if !LooksLikeTemplate([]byte("a: {{ .Values.x }}")) || LooksLikeTemplate([]byte("a: ${X}")) {
		t.Error("LooksLikeTemplate")
	}
}

func TestComments(t *testing.T) {
	text := "# head\n" +
		"a: 1 # trailing\n" +
		"b: 'x # not a comment'\n" +
		"c: |\n" +
		"  # inside a block scalar\n" +
		"  key=value\n" +
		"d: x#y\n" +
		"  # indented comment\n" +
		"e: \"q\" # after quotes\n"
	f := mustParse(t, "c.yaml", text)
	want := []doc.Comment{
		{Line: 1, Text: " head"},
		{Line: 2, Text: " trailing", Trailing: true},
		{Line: 8, Text: " indented comment"},
		{Line: 9, Text: " after quotes", Trailing: true},
	}
	if diff := cmp.Diff(want, f.Comments); diff != "" {
		t.Errorf("comments (-want +got):\n%s", diff)
	}
}

func TestMergeKeysAndAliases(t *testing.T) {
	src := "base: &base\n" + // 1
		"  a: 1\n" + // 2
		"  b: 2\n" + // 3
		"other: &other\n" + // 4
		"  b: 20\n" + // 5
		"  c: 30\n" + // 6
		"m:\n" + // 7
		"  <<: [*base, *other]\n" + // 8
		"  c: 3\n" + // 9
		"  d: *base\n" // 10
	f := mustParse(t, "m.yaml", src)
	es, _ := entries(get(f.Docs[0], "m"))
	got := map[string][2]int{}
	for _, e := range es {
		got[e.key()] = [2]int{e.Key.Line, e.Value.Line}
	}
	// a and b from the first merged mapping (located at the anchor), c
	// written in m wins, d is an alias to a mapping.
	want := map[string][2]int{"a": {2, 2}, "b": {3, 3}, "c": {9, 9}, "d": {10, 1}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("entries (-want +got):\n%s", diff)
	}
	if text(get(f.Docs[0], "m", "b")) != "2" {
		t.Error("the earlier merged mapping must win")
	}
}

func TestDuplicateKeys(t *testing.T) {
	f := mustParse(t, "d.yaml", "a: 1\nb: 2\na: 3\n")
	es, dups := entries(f.Docs[0])
	if len(es) != 2 || text(get(f.Docs[0], "a")) != "3" {
		t.Errorf("entries %v", es)
	}
	if len(dups) != 1 || dups[0].Key != "a" || dups[0].Loc.Line != 3 || dups[0].Previous[0].Line != 1 {
		t.Errorf("dups %+v", dups)
	}
}

func TestAliasCycleDoesNotHang(t *testing.T) {
	// yaml.v3 refuses self-containing anchors; merge chains stay bounded.
	src := "a: &a\n  x: 1\nb: &b\n  <<: *a\nc: &c\n  <<: *b\nd:\n  <<: *c\n"
	f := mustParse(t, "cycle.yaml", src)
	if got := text(get(f.Docs[0], "d", "x")); got != "1" {
		t.Errorf("d.x = %q", got)
	}
}

func TestInterpolate(t *testing.T) {
	vars := map[string]string{"SET": "v", "EMPTY": ""}
	tests := []struct {
		in, out string
		unknown bool
	}{
		{"plain", "plain", false},
		{"${SET}", "v", false},
		{"$SET-x", "v-x", false},
		{"${UNSET}", "${UNSET}", true},
		{"$UNSET", "${UNSET}", true},
		{"${UNSET:-d}", "d", false},
		{"${EMPTY:-d}", "d", false},
		{"${EMPTY-d}", "", false},
		{"${UNSET-d}", "d", false},
		{"${SET:+alt}", "alt", false},
		{"${UNSET:+alt}", "", false},
		{"${UNSET:?need it}", "${UNSET}", true},
		{"$${SET}", "${SET}", false},
		{"${UNSET:-${SET}}", "v", false},
		{"${UNSET:-${OTHER}}", "${OTHER}", true},
		{"a ${SET} b ${UNSET}", "a v b ${UNSET}", true},
		{"${", "${", true},
		{"${1BAD}", "${1BAD}", true},
		{"cost $5", "cost $5", false},
	}
	for _, tt := range tests {
		out, unknown := Interpolate(tt.in, vars)
		if out != tt.out || unknown != tt.unknown {
			t.Errorf("Interpolate(%q) = %q, %v; want %q, %v", tt.in, out, unknown, tt.out, tt.unknown)
		}
	}
}

func TestParseDotEnv(t *testing.T) {
	got := ParseDotEnv([]byte("# c\nA=1\nexport B=\"two words\"\nC='x' \nD=y # comment\nbad line\n1X=no\n"))
	want := map[string]string{"A": "1", "B": "two words", "C": "x", "D": "y"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestEnvKey(t *testing.T) {
	tests := []struct{ family, env, key string }{
		{imageApache, "KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR", "offsets.topic.replication.factor"},
		{imageApache, "KAFKA_LISTENER_NAME_INTERNAL_SSL_CLIENT_AUTH", "listener.name.internal.ssl.client.auth"},
		{imageConfluent, "KAFKA_CONFLUENT_BALANCER_ENABLE", "confluent.balancer.enable"},
		{imageConfluent, "KAFKA_SOME__UNDERSCORE", "some_underscore"},
		{imageConfluent, "KAFKA_SOME___DASH", "some-dash"},
		{imageConfluent, "CONFLUENT_METRICS_ENABLE", "confluent.metrics.enable"},
		{imageApache, "CONFLUENT_METRICS_ENABLE", ""},
		{imageApache, "KAFKA_HEAP_OPTS", ""},
		{imageApache, "KAFKA_JMX_PORT", ""},
		{imageApache, "KAFKA_LOG4J_ROOT_LOGLEVEL", ""},
		{imageApache, "CLUSTER_ID", ""},
		{imageApache, "KAFKA_ZOOKEEPER_CLIENT_CNXN_SOCKET", "zookeeper.clientCnxnSocket"},
		{imageBitnami, "KAFKA_CFG_PROCESS_ROLES", "process.roles"},
		{imageBitnami, "KAFKA_CFG_LISTENER_NAME_SASL_SSL_PLAIN_SASL_JAAS_CONFIG", "listener.name.sasl_ssl.plain.sasl.jaas.config"},
		{imageBitnami, "KAFKA_ZOOKEEPER_CONNECT", ""},
		{imageBitnami, "KAFKA_KRAFT_CLUSTER_ID", ""},
		{"", "KAFKA_PROCESS_ROLES", ""},
	}
	for _, tt := range tests {
		if got := envKey(tt.family, tt.env); got != tt.key {
			t.Errorf("envKey(%s, %s) = %q, want %q", tt.family, tt.env, got, tt.key)
		}
	}
}

func TestImage(t *testing.T) {
	tests := []struct {
		ref, family, version string
	}{
		{"apache/kafka:3.9.0", imageApache, "3.9"},
		{"docker.io/apache/kafka-native:3.8.0", imageApache, "3.8"},
		{"apache/kafka:latest", imageApache, ""},
		{"registry.example.com:5000/apache/kafka:4.1.0", imageApache, "4.1"},
		{"confluentinc/cp-kafka:7.5.0", imageConfluent, "3.5"},
		{"confluentinc/cp-server:8.0.0", imageConfluent, "4.0"},
		{"confluentinc/cp-kafka:5.5.3", imageConfluent, "2.5"},
		{"confluentinc/cp-kafka:9.9.0", imageConfluent, ""},
		{"${REPOSITORY}/cp-server:${TAG}", imageConfluent, ""},
		{"docker.io/bitnami/kafka:3.7", imageBitnami, "3.7"},
		{"bitnamilegacy/kafka:4.0.0-debian-12-r10", imageBitnami, "4.0"},
		{"confluentinc/cp-kafka-connect:7.5.0", "", ""},
		{"quay.io/debezium/kafka:2.7", "", ""},
		{"kafka", "", ""},
		{"apache/kafka@sha256:abc", imageApache, ""},
	}
	for _, tt := range tests {
		im := parseImage(tt.ref, false, doc.Location{})
		v, _ := im.kafkaVersion()
		if im.family != tt.family || v != tt.version {
			t.Errorf("%s: family %q version %q, want %q %q", tt.ref, im.family, v, tt.family, tt.version)
		}
	}
}

func TestStrimziDropped(t *testing.T) {
	for key, dropped := range map[string]bool{
		"listeners": true, "advertised.listeners": true, "listener.security.protocol.map": true,
		"log.dirs": true, "log.dir.failure.timeout.ms": true, "node.id": true, "process.roles": true,
		"controller.quorum.voters": true, "controller.quorum.election.timeout.ms": false,
		"ssl.keystore.location": true, "ssl.cipher.suites": false, "SSL.Protocol": false,
		"sasl.enabled.mechanisms": true, "sasl.server.max.receive.size": false,
		"broker.rack": true, "broker.session.timeout.ms": false, "authorizer.class.name": true,
		"super.users": true, "zookeeper.connect": true, "zookeeper.connection.timeout.ms": false,
		"cruise.control.metrics.topic.replication.factor": false, "cruise.control.metrics.topic": true,
		"min.insync.replicas": false, "offsets.topic.replication.factor": false, "controlled.shutdown.enable": false,
		"auto.create.topics.enable": false,
	} {
		if got := StrimziDropped(key); got != dropped {
			t.Errorf("StrimziDropped(%q) = %v, want %v", key, got, dropped)
		}
	}
}

func TestConfigBlockLiteralLines(t *testing.T) {
	text := "config: |\n" + // 1
		"  # comment\n" + // 2
		"  a=1\n" + // 3
		"\n" + // 4
		"    b = 2\n" + // 5
		"  a=3\n" // 6
	f := mustParse(t, "v.yaml", text)
	ss, dups, err := configBlock(f, get(f.Docs[0], "config"), "config")
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]doc.Location{}
	for _, s := range ss {
		got[s.Key+"="+s.Value] = s.Loc
	}
	want := map[string]doc.Location{"a=3": {File: "v.yaml", Line: 6, Column: 3}, "b=2": {File: "v.yaml", Line: 5, Column: 5}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if len(dups) != 1 || dups[0].Loc.Line != 6 || dups[0].Previous[0].Line != 3 {
		t.Errorf("dups %+v", dups)
	}
	// A quoted string has no line structure: every key sits at the string.
	f = mustParse(t, "q.yaml", "config: \"a=1\\nb=2\\n\"\n")
	ss, _, _ = configBlock(f, get(f.Docs[0], "config"), "config")
	if len(ss) != 2 || ss[1].Loc.Line != 1 || ss[1].Loc.Column != 9 {
		t.Errorf("quoted: %+v", ss)
	}
	// Invalid properties text is an error at its line in the YAML file.
	f = mustParse(t, "bad.yaml", "x: 1\nconfig: |\n  ok=1\n  bad=\\u12\n")
	if _, _, err := configBlock(f, get(f.Docs[0], "config"), "config"); err == nil || err.Line != 4 {
		t.Errorf("invalid properties: %+v", err)
	}
}

func TestBitnamiShape(t *testing.T) {
	for text, want := range map[string]bool{
		"controller:\n  controllerOnly: true\n":                        true,
		"controller:\n  replicaCount: 3\nbroker:\n  replicaCount: 3\n": true,
		"image:\n  repository: bitnami/kafka\n":                        true,
		"replicaCount: 3\noffsetsTopicReplicationFactor: 3\n":          true,
		"replicaCount: 3\nauth:\n  clientProtocol: tls\n":              true,
		"replicaCount: 3\n":                             false,
		"cp-kafka:\n  brokers: 3\n":                     false,
		"brokers: 3\nconfigurationOverrides:\n  a: b\n": false,
		"watchNamespaces: []\n":                         false,
	} {
		f := mustParse(t, "values.yaml", text)
		if got := BitnamiKafkaShape(f.Docs[0]); got != want {
			t.Errorf("BitnamiKafkaShape(%q) = %v, want %v", text, got, want)
		}
	}
}

func TestChartKafka(t *testing.T) {
	self, dep := ChartKafka([]byte("name: platform\ndependencies:\n  - name: kafka\n    alias: events\n    repository: oci://registry-1.docker.io/bitnamicharts\n"))
	if self || dep != "events" {
		t.Errorf("alias: %v %q", self, dep)
	}
	self, dep = ChartKafka([]byte("name: kafka\nversion: 32.4.4\n"))
	if !self || dep != "" {
		t.Errorf("self: %v %q", self, dep)
	}
	if self, dep := ChartKafka([]byte("{{ bad")); self || dep != "" {
		t.Error("invalid Chart.yaml")
	}
}

// TestLookupAgreesWithEntries checks lookup's shortcut for mappings
// without merge keys against the merge-aware entries on every mapping of
// a document that mixes both, duplicates and aliases included.
func TestLookupAgreesWithEntries(t *testing.T) {
	src := "base: &base {a: 1, b: 2}\n" +
		"plain: {a: 1, b: 2, a: 3, c: *base}\n" +
		"merged: {<<: *base, b: 20, b: 21}\n" +
		"quoted: {!!str <<: literal, a: 5}\n" +
		"nested:\n  inner: {x: 1, x: 2}\n  <<: {inner: shadowed, y: 3}\n"
	f := mustParse(t, "l.yaml", src)
	var walk func(n *yaml.Node)
	checked := 0
	walk = func(n *yaml.Node) {
		n = deref(n)
		if n == nil || n.Kind != yaml.MappingNode {
			return
		}
		es, _ := entries(n)
		for _, want := range es {
			got, ok := lookup(n, want.key())
			if !ok || got.Key != want.Key || got.Value != want.Value {
				t.Errorf("line %d: lookup(%q) = %v %v, entries say %v", n.Line, want.key(), got, ok, want)
			}
			checked++
			walk(want.Value)
		}
		if _, ok := lookup(n, "absent"); ok {
			t.Errorf("line %d: lookup found an absent key", n.Line)
		}
	}
	walk(f.Docs[0])
	if checked < 15 {
		t.Fatalf("only %d keys checked", checked)
	}
}
