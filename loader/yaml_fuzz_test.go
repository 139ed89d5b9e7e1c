package loader

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/kafkalint/kafkalint/loader/yamlsrc"
)

// FuzzYAMLModel feeds arbitrary bytes through the YAML adapters and the
// shared model code, as a values file, a compose file and a Strimzi file:
// nothing may panic, every error and every location must point into the
// file, and the model must build. Seeds: the golden test inputs plus small
// shapes of each format (testdata/fuzz/FuzzYAMLModel holds found cases).
func FuzzYAMLModel(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join("testdata", "yaml", "*", "*.y*ml"))
	for _, s := range seeds {
		if data, err := os.ReadFile(s); err == nil {
			f.Add(data)
		}
	}
	for _, s := range []string{
		"services:\n  k:\n    image: apache/kafka:3.9.0\n    environment:\n      KAFKA_PROCESS_ROLES: ${R:-broker}\n",
		"services:\n  k:\n    image: bitnami/kafka\n    environment: [KAFKA_CFG_NODE_ID=1, KAFKA_CFG_PROCESS_ROLES]\n",
		"x: &a {KAFKA_X: 1}\nservices: {k: {image: '${I}', environment: {<<: *a, KAFKA_NODE_ID: 2}}}\n",
		"apiVersion: kafka.strimzi.io/v1\nkind: KafkaNodePool\nmetadata: {name: p, labels: {strimzi.io/cluster: c}}\nspec: {replicas: 1, roles: [controller, broker]}\n---\napiVersion: kafka.strimzi.io/v1\nkind: Kafka\nmetadata: {name: c}\nspec: {kafka: {config: {listeners: x}}}\n",
		"apiVersion: kafka.strimzi.io/v1beta2\nkind: KafkaTopic\nmetadata: {name: t}\nspec: {replicas: x, partitions: -1}\n",
		"apiVersion: kafka.strimzi.io/v1\nkind: KafkaMirrorMaker2\nmetadata: {name: m}\nspec:\n  target: {alias: t, config: &c {replication.factor: 1}}\n  mirrors: [{source: {alias: s, config: *c}, sourceConnector: {config: {<<: *c, groups: ''}}, checkpointConnector: [], topicsPattern: ~}]\n",
		"apiVersion: eventstreams.ibm.com/v1beta2\nkind: KafkaMirrorMaker2\nmetadata: {name: m}\nspec: {connectCluster: a, clusters: [{alias: a}, x], mirrors: [{sourceCluster: a, targetCluster: a, heartbeatConnector: {config: {a: {b: c}}}}]}\n",
		"controller:\n  controllerOnly: false\nconfig: |\n  a=1\n  b\\\n   =2\n",
		"replicaCount: 1\nkraft: {enabled: true}\noffsetsTopicReplicationFactor: _1\n",
		"services:\r  k:\r    image: apache/kafka\r    environment: {KAFKA_NODE_ID: 1}\r",
		"a: [1, 2\n",
		"a: *b\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		lines := yamlsrc.LineCount(data)
		for _, name := range []string{"values.yaml", "docker-compose.yml", "kafka.yaml"} {
			docs := yamlDocs([]yamlSource{{in: Input{Path: filepath.Join("testdata", "no-such-dir", name), Display: name}, data: data}})
			var ok []*Doc
			for _, d := range docs {
				if d.Err != nil {
					if d.Err.File != name || d.Err.Line < 0 || d.Err.Line > lines+1 || d.Err.Message == "" {
						t.Fatalf("%s: bad error %+v", name, d.Err)
					}
					continue
				}
				prepare(d, Options{})
				checkLoc := func(what string, l Location) {
					if l.File != name || l.Line < 1 || l.Line > lines || l.Column < 1 {
						t.Fatalf("%s: %s at %+v outside the file (%d lines)", name, what, l, lines)
					}
				}
				checkLoc("unit", d.Loc)
				for _, s := range d.Settings {
					checkLoc(s.Key, s.Loc)
				}
				for _, s := range d.Ignored {
					checkLoc(s.Key, s.Loc)
				}
				for _, c := range []*Count{d.Replicas, d.BrokerCount, d.ControllerCount, d.KafkaVersion} {
					if c != nil {
						checkLoc("count "+c.Source, c.Loc)
					}
				}
				ok = append(ok, d)
			}
			buildClusters(context.Background(), ok, Options{})
		}
	})
}
