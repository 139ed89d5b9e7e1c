package loader

import "testing"

// TestWholeConfiguration: only a properties file that is not a template is
// all Kafka reads.
func TestWholeConfiguration(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		want       bool
	}{
		{"prod/server.properties", "process.roles=broker\nnode.id=1\n", true},
		{"prod/server.properties.j2", "process.roles=broker\n{% if x %}\nnode.id=1\n{% else %}\nnode.id=2\n{% endif %}\n", false},
		{"prod/docker-compose.yml", "services:\n  kafka:\n    image: apache/kafka:4.0.0\n    environment:\n      KAFKA_PROCESS_ROLES: broker\n      KAFKA_NODE_ID: 1\n", false},
	} {
		res, err := LoadSources([]Source{{Name: tc.name, Data: []byte(tc.text)}}, Options{})
		if err != nil || len(res.Clusters) != 1 || len(res.Clusters[0].Nodes) != 1 {
			t.Fatalf("%s: %v %+v", tc.name, err, res)
		}
		c := res.Clusters[0]
		if c.Nodes[0].WholeConfiguration != tc.want || c.Files[0].WholeConfiguration != tc.want {
			t.Errorf("%s: whole configuration node %v file %v, want %v", tc.name, c.Nodes[0].WholeConfiguration, c.Files[0].WholeConfiguration, tc.want)
		}
	}
}

// TestOriginKind: an environment variable is told apart from a platform
// field, and a key written as itself has neither.
func TestOriginKind(t *testing.T) {
	for _, tc := range []struct{ origin, want string }{
		{"", ""},
		{"KAFKA_PROCESS_ROLES", OriginEnv},
		{"KAFKA_CFG_NODE_ID", OriginEnv},
		{"KafkaNodePool spec.roles", OriginPlatform},
		{"controller.controllerOnly (not set: the chart's default false makes every controller-eligible node a combined broker and controller)", OriginPlatform},
		{"spec.kafka.config", OriginPlatform},
		{"aws_msk_configuration.this server properties", OriginPlatform},
	} {
		var s Setting
		s.setOrigin(tc.origin)
		if s.Origin != tc.origin || s.OriginKind != tc.want {
			t.Errorf("setOrigin(%q): kind %q, want %q", tc.origin, s.OriginKind, tc.want)
		}
	}
	res, err := LoadSources([]Source{{Name: "prod/docker-compose.yml", Data: []byte(
		"services:\n  kafka:\n    image: apache/kafka:4.0.0\n    environment:\n      KAFKA_PROCESS_ROLES: broker,controller\n      KAFKA_NODE_ID: 1\n")}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if s := res.Clusters[0].Nodes[0].Settings["process.roles"]; s == nil || s.OriginKind != OriginEnv {
		t.Errorf("process.roles from KAFKA_PROCESS_ROLES = %+v, want origin kind env", s)
	}
}

// TestMirrorMakerPlatform: a KafkaMirrorMaker2 is run by Strimzi, a
// properties file by connect-mirror-maker.sh.
func TestMirrorMakerPlatform(t *testing.T) {
	res, err := LoadSources([]Source{
		{Name: "prod/mm2.properties", Data: []byte("clusters=a,b\na.bootstrap.servers=a:9092\nb.bootstrap.servers=b:9092\na->b.enabled=true\n")},
		{Name: "prod/mm2.yaml", Data: []byte(`apiVersion: kafka.strimzi.io/v1beta2
kind: KafkaMirrorMaker2
metadata:
  name: mm2
spec:
  connectCluster: b
  clusters:
    - alias: a
      bootstrapServers: a:9092
    - alias: b
      bootstrapServers: b:9092
  mirrors:
    - sourceCluster: a
      targetCluster: b
      sourceConnector: {}
`)},
	}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, c := range res.Clusters {
		for _, mm := range c.MirrorMakers {
			got[mm.File] = mm.Platform
		}
	}
	if want := map[string]string{"prod/mm2.properties": "", "prod/mm2.yaml": "strimzi"}; len(got) != 2 || got["prod/mm2.properties"] != want["prod/mm2.properties"] || got["prod/mm2.yaml"] != want["prod/mm2.yaml"] {
		t.Errorf("platforms = %v, want %v", got, want)
	}
}
