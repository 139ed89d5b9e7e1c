package yamlsrc

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kafkalint/kafkalint/loader/doc"
)

// mm2Unit reads the only unit of a file holding one KafkaMirrorMaker2.
func mm2Unit(t *testing.T, text string) doc.Doc {
	t.Helper()
	f := mustParse(t, "mm2.yaml", text)
	if !IsStrimzi(f) {
		t.Fatal("not read as a Strimzi file")
	}
	units := Strimzi([]*File{f})
	if len(units) != 1 || units[0].Kind != KindMirrorMaker || units[0].Format != "strimzi" {
		t.Fatalf("units: %+v", units)
	}
	return units[0]
}

// settingsText shows settings as key -> "value @line [origin]".
func settingsText(ss []doc.Setting) map[string]string {
	out := map[string]string{}
	for _, s := range ss {
		out[s.Key] = s.Value + " @" + strconv.Itoa(s.Loc.Line) + " [" + s.Origin + "]"
	}
	return out
}

func TestStrimziMirrorMakerV1beta2(t *testing.T) {
	u := mm2Unit(t, `apiVersion: kafka.strimzi.io/v1beta2
kind: KafkaMirrorMaker2
metadata:
  name: dr
  namespace: kafka-prod
  labels: {env: production}
spec:
  version: 3.9.0
  connectCluster: b
  clusters:
    - alias: a
      bootstrapServers: a:9092
      config:
        config.storage.replication.factor: 1
    - alias: b
      bootstrapServers: b:9092
      config:
        config.storage.replication.factor: 3
        group.id: mm2
  mirrors:
    - sourceCluster: a
      targetCluster: b
      topicsPattern: t.*
      sourceConnector:
        config:
          replication.factor: 1
          replication.policy.class: Src
          topics: overridden
          sync.group.offsets.enabled: true
          replication.factor: 2
      checkpointConnector:
        config:
          replication.policy.class: Chk
          sync.group.offsets.enabled: false
          groups: ~
      heartbeatConnector:
        config:
          heartbeats.topic.replication.factor: 1
`)
	want := map[string]string{
		"clusters":                                 "a, b @10 [spec.clusters[].alias]",
		"a.bootstrap.servers":                      "a:9092 @12 [spec.clusters[0].bootstrapServers]",
		"a.config.storage.replication.factor":      "1 @14 [spec.clusters[0].config]",
		"b.bootstrap.servers":                      "b:9092 @16 [spec.clusters[1].bootstrapServers]",
		"config.storage.replication.factor":        "3 @18 [spec.clusters[1].config (the Connect worker's)]",
		"b.group.id":                               "mm2 @19 [spec.clusters[1].config]",
		"a->b.enabled":                             "true @21 [spec.mirrors[0].sourceConnector]",
		"a->b.topics":                              "t.* @23 [spec.mirrors[0].topicsPattern]",
		"a->b.replication.factor":                  "2 @30 [spec.mirrors[0].sourceConnector.config]",
		"a->b.replication.policy.class":            "Src @27 [spec.mirrors[0].sourceConnector.config]",
		"a->b.sync.group.offsets.enabled":          "false @34 [spec.mirrors[0].checkpointConnector.config]",
		"a->b.heartbeats.topic.replication.factor": "1 @38 [spec.mirrors[0].heartbeatConnector.config]",
	}
	if diff := cmp.Diff(want, settingsText(u.Settings)); diff != "" {
		t.Errorf("settings (-want +got):\n%s", diff)
	}
	wantIgnored := map[string]string{
		"a->b.sync.group.offsets.enabled": "true @29 [spec.mirrors[0].sourceConnector.config (the source connector does not read it; only checkpointConnector does)]",
	}
	if diff := cmp.Diff(wantIgnored, settingsText(u.Ignored)); diff != "" {
		t.Errorf("ignored (-want +got):\n%s", diff)
	}
	if len(u.Duplicates) != 1 || u.Duplicates[0].Key != "replication.factor" || u.Duplicates[0].Loc.Line != 30 ||
		u.Duplicates[0].Previous[0].Line != 26 || u.Duplicates[0].Loc.File != "mm2.yaml" {
		t.Errorf("duplicates: %+v", u.Duplicates)
	}
	if u.KafkaVersion == nil || u.KafkaVersion.Text != "3.9.0" || u.KafkaVersion.Loc.Line != 8 {
		t.Errorf("version: %+v", u.KafkaVersion)
	}
	if u.Name != "KafkaMirrorMaker2 dr" || u.Loc.Line != 1 || u.Group != "" {
		t.Errorf("unit: %q at %+v in group %q", u.Name, u.Loc, u.Group)
	}
	wantHints := []doc.EnvHint{{Value: "kafka-prod", From: "namespace kafka-prod"}, {Value: "production", From: "label env=production"}}
	if diff := cmp.Diff(wantHints, u.EnvHints); diff != "" {
		t.Errorf("environment hints (-want +got):\n%s", diff)
	}
	for i := 1; i < len(u.Settings); i++ {
		if u.Settings[i].Loc.Line < u.Settings[i-1].Loc.Line {
			t.Errorf("settings not in source order: %s before %s", u.Settings[i-1].Key, u.Settings[i].Key)
		}
	}
}

func TestStrimziMirrorMakerV1(t *testing.T) {
	u := mm2Unit(t, `apiVersion: kafka.strimzi.io/v1
kind: KafkaMirrorMaker2
metadata: {name: agg}
spec:
  target:
    alias: central
    bootstrapServers: central:9092
    config: {offset.storage.replication.factor: 2, ssl.endpoint.identification.algorithm: ""}
  mirrors:
    - source: {alias: east, bootstrapServers: east:9092, config: {config.storage.replication.factor: 1}}
      sourceConnector:
        config:
          emit.checkpoints.enabled: false
          heartbeats.topic.replication.factor: 1
      heartbeatConnector:
        config: {heartbeats.topic.replication.factor: 1}
      groupsPattern: ""
    - source: {alias: west, bootstrapServers: west:9092}
      checkpointConnector:
        config: {sync.group.offsets.enabled: true}
    - source: {alias: east, bootstrapServers: ignored:1}
      sourceConnector: {}
`)
	want := map[string]string{
		"clusters":                                      "central, east, west @5 [spec.target.alias, spec.mirrors[].source.alias]",
		"central.bootstrap.servers":                     "central:9092 @7 [spec.target.bootstrapServers]",
		"offset.storage.replication.factor":             "2 @8 [spec.target.config (the Connect worker's)]",
		"central.ssl.endpoint.identification.algorithm": " @8 [spec.target.config]",
		"east.bootstrap.servers":                        "east:9092 @10 [spec.mirrors[0].source.bootstrapServers]",
		"east.config.storage.replication.factor":        "1 @10 [spec.mirrors[0].source.config]",
		"east->central.enabled":                         "true @21 [spec.mirrors[2].sourceConnector]",
		"west.bootstrap.servers":                        "west:9092 @18 [spec.mirrors[1].source.bootstrapServers]",
		"west->central.sync.group.offsets.enabled":      "true @20 [spec.mirrors[1].checkpointConnector.config]",
	}
	if diff := cmp.Diff(want, settingsText(u.Settings)); diff != "" {
		t.Errorf("settings (-want +got):\n%s", diff)
	}
	// Keys written where no deployed connector reads them, and the v1
	// API's missing heartbeat connector, set nothing.
	var ignored []string
	for _, s := range u.Ignored {
		ignored = append(ignored, s.Key+" @"+strconv.Itoa(s.Loc.Line))
	}
	wantIgnored := []string{
		"east->central.emit.checkpoints.enabled @13",
		"east->central.heartbeats.topic.replication.factor @14",
		"east->central.groups @17",
	}
	if diff := cmp.Diff(wantIgnored, ignored); diff != "" {
		t.Errorf("ignored (-want +got):\n%s", diff)
	}
	if !strings.Contains(u.Ignored[2].Origin, "spec.mirrors[0].groupsPattern (no connector of this mirror reads it") {
		t.Errorf("origin of an unread pattern: %q", u.Ignored[2].Origin)
	}
}

func TestStrimziMirrorMakerGroups(t *testing.T) {
	// IBM Event Streams' KafkaMirrorMaker2 is read, its other kinds are not.
	es := "apiVersion: eventstreams.ibm.com/v1beta2\nkind: KafkaMirrorMaker2\nmetadata: {name: m}\n" +
		"spec:\n  clusters: [{alias: x, bootstrapServers: 'x:1'}]\n  mirrors: [{sourceCluster: y, targetCluster: x, sourceConnector: {}}]\n"
	u := mm2Unit(t, es)
	want := map[string]string{
		"clusters":            "x @5 [spec.clusters[].alias]",
		"x.bootstrap.servers": "x:1 @5 [spec.clusters[0].bootstrapServers]",
		"y->x.enabled":        "true @6 [spec.mirrors[0].sourceConnector]",
	}
	if diff := cmp.Diff(want, settingsText(u.Settings)); diff != "" {
		t.Errorf("settings (-want +got):\n%s", diff)
	}
	for _, text := range []string{
		"apiVersion: eventstreams.ibm.com/v1beta2\nkind: KafkaTopic\nmetadata: {name: t}\nspec: {replicas: 1}\n",
		"apiVersion: eventstreams.ibm.com/v1beta2\nkind: EventStreams\nmetadata: {name: es}\n",
		"apiVersion: mirror.example.com/v1\nkind: KafkaMirrorMaker2\nmetadata: {name: m}\n",
	} {
		f := mustParse(t, "other.yaml", text)
		if IsStrimzi(f) || len(Strimzi([]*File{f})) != 0 {
			t.Errorf("read %q", text)
		}
	}
	// A mirror without its aliases and an empty resource give no flow.
	u = mm2Unit(t, "apiVersion: kafka.strimzi.io/v1beta2\nkind: KafkaMirrorMaker2\nmetadata: {name: m}\n"+
		"spec:\n  mirrors: [{targetCluster: x, sourceConnector: {}}, [], {sourceCluster: x}]\n")
	if len(u.Settings) != 0 || len(u.Ignored) != 0 {
		t.Errorf("settings %+v, ignored %+v", u.Settings, u.Ignored)
	}
}

// TestMirrorKeyReaders checks the connector table against the catalog's
// record of which MirrorMaker 2 doc sections list a key: a connector that
// lists a key must read it, and a key of the common section is read by
// all three.
func TestMirrorKeyReaders(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "catalog", "catalog.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cat struct {
		Versions map[string]map[string]map[string]struct {
			Connectors []string `json:"connectors"`
		} `json:"versions"`
	}
	if err := json.Unmarshal(data, &cat); err != nil {
		t.Fatal(err)
	}
	checked := 0
	for version, scopes := range cat.Versions {
		for key, k := range scopes["mirror"] {
			for _, c := range k.Connectors {
				conns := []string{c}
				if c == "common" {
					conns = []string{connSource, connCheckpoint, connHeartbeat}
				}
				for _, conn := range conns {
					checked++
					if !reads(conn, key) {
						t.Errorf("%s: the %s connector does not read %s, but the %s docs list it there", version, conn, key, c)
					}
				}
			}
		}
	}
	if checked < 100 {
		t.Fatalf("only %d catalog entries checked", checked)
	}
	for key, rs := range mirrorKeyReaders {
		if len(rs) == 0 || slices.ContainsFunc(rs, func(c string) bool { return connectorFields[c] == "" }) {
			t.Errorf("%s: readers %v", key, rs)
		}
	}
}
