package loader

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// yamlModel is the part of the model the YAML adapters decide, for the
// golden files: what the adapter read, where, and how it grouped it.
type yamlModel struct {
	Files    int           `json:"files"`
	Skipped  int           `json:"skipped"`
	Errors   []*Error      `json:"errors"`
	Clusters []yamlCluster `json:"clusters"`
}

type yamlCluster struct {
	Name            string          `json:"name"`
	KafkaVersion    string          `json:"kafka_version"`
	VersionSource   string          `json:"kafka_version_source"`
	VersionLoc      *Location       `json:"kafka_version_location,omitempty"`
	BrokerCount     *Count          `json:"broker_count,omitempty"`
	ControllerCount *Count          `json:"controller_count,omitempty"`
	Files           []string        `json:"files"`
	Nodes           []yamlNode      `json:"nodes"`
	Topics          []yamlTopic     `json:"topics,omitempty"`
	MirrorMakers    []yamlMirror    `json:"mirror_makers,omitempty"`
	Duplicates      []yamlDuplicate `json:"duplicates,omitempty"`
}

// yamlMirror is a MirrorMaker 2 configuration: its aliases as "name
// (declared) bootstrap @line:col" and flows as "source->target enabled
// @line:col".
type yamlMirror struct {
	File        string            `json:"file"`
	Environment string            `json:"environment"`
	Location    string            `json:"location"`
	Clusters    []string          `json:"clusters"`
	Aliases     []string          `json:"aliases"`
	Flows       []string          `json:"flows"`
	Settings    map[string]string `json:"settings"`
}

type yamlNode struct {
	File        string            `json:"file"`
	Environment string            `json:"environment"`
	Location    string            `json:"location"`
	Mode        string            `json:"mode"`
	Roles       []string          `json:"roles"`
	Quorum      string            `json:"quorum"`
	Replicas    *Count            `json:"replicas,omitempty"`
	ManagedKeys []string          `json:"managed_keys,omitempty"`
	Listeners   []string          `json:"listeners,omitempty"`
	Settings    map[string]string `json:"settings"`
	Ignored     map[string]string `json:"ignored_settings,omitempty"`
}

type yamlTopic struct {
	Name        string            `json:"name"`
	Environment string            `json:"environment"`
	Location    string            `json:"location"`
	Replicas    string            `json:"replicas,omitempty"`
	Partitions  string            `json:"partitions,omitempty"`
	Settings    map[string]string `json:"settings"`
}

type yamlDuplicate struct {
	Key      string   `json:"key"`
	Location string   `json:"location"`
	Previous []string `json:"previous"`
}

func loc(l Location) string {
	return l.File + ":" + itoa(l.Line) + ":" + itoa(l.Column)
}

var itoa = strconv.Itoa

// settingText shows an explicit setting as raw @line:col (unknown) [origin].
func settingText(s *Setting) string {
	t := s.Raw + " @" + itoa(s.Loc.Line) + ":" + itoa(s.Loc.Column)
	if s.Unknown {
		t += " (unknown)"
	}
	if s.Origin != "" {
		t += " [" + s.Origin + "]"
	}
	return t
}

func explicitSettings(m map[string]*Setting) map[string]string {
	out := map[string]string{}
	for k, s := range m {
		if s.Source == SourceExplicit {
			out[k] = settingText(s)
		}
	}
	return out
}

func modelOf(res *Result) yamlModel {
	m := yamlModel{Files: res.Files, Skipped: res.Skipped, Errors: nonNil(res.Errors)}
	for _, c := range res.Clusters {
		yc := yamlCluster{Name: c.Name, KafkaVersion: c.KafkaVersion, VersionSource: c.KafkaVersionSource, VersionLoc: c.KafkaVersionLoc,
			BrokerCount: c.BrokerCount, ControllerCount: c.ControllerCount, Nodes: []yamlNode{}}
		for _, f := range c.Files {
			yc.Files = append(yc.Files, f.Path+" ("+f.Format+", "+f.Kind+")")
			for _, d := range f.Duplicates {
				yd := yamlDuplicate{Key: d.Key, Location: loc(d.Loc)}
				for _, p := range d.Previous {
					yd.Previous = append(yd.Previous, loc(p))
				}
				yc.Duplicates = append(yc.Duplicates, yd)
			}
		}
		for _, n := range c.Nodes {
			yn := yamlNode{File: n.File, Environment: n.Environment, Location: loc(n.Loc), Mode: n.Mode, Roles: n.Roles,
				Quorum: n.Quorum.Mode, Replicas: n.Replicas, ManagedKeys: n.ManagedKeys, Settings: explicitSettings(n.Settings)}
			for _, l := range n.Listeners {
				yn.Listeners = append(yn.Listeners, l.Name+" "+l.Protocol+" :"+itoa(l.Port))
			}
			if len(n.IgnoredSettings) > 0 {
				yn.Ignored = map[string]string{}
				for _, s := range n.IgnoredSettings {
					yn.Ignored[s.Key] = settingText(s)
				}
			}
			yc.Nodes = append(yc.Nodes, yn)
		}
		for _, t := range c.Topics {
			yt := yamlTopic{Name: t.Name, Environment: t.Environment, Location: loc(t.Loc), Settings: explicitSettings(t.Settings)}
			if t.ReplicationFactor != nil {
				yt.Replicas = settingText(t.ReplicationFactor)
			}
			if t.Partitions != nil {
				yt.Partitions = settingText(t.Partitions)
			}
			yc.Topics = append(yc.Topics, yt)
		}
		for _, mm := range c.MirrorMakers {
			ym := yamlMirror{File: mm.File, Environment: mm.Environment, Location: loc(mm.Loc), Clusters: mm.Clusters,
				Aliases: []string{}, Flows: []string{}, Settings: explicitSettings(mm.Settings)}
			for _, a := range mm.Aliases {
				t := a.Name
				if a.Declared {
					t += " (declared)"
				}
				if a.BootstrapServers != nil {
					t += " " + a.BootstrapServers.Raw
				}
				ym.Aliases = append(ym.Aliases, t+" @"+itoa(a.Loc.Line)+":"+itoa(a.Loc.Column))
			}
			for _, f := range mm.Flows {
				state := "disabled"
				if f.Enabled {
					state = "enabled"
				}
				ym.Flows = append(ym.Flows, f.Source+"->"+f.Target+" "+state+" @"+itoa(f.Loc.Line)+":"+itoa(f.Loc.Column))
			}
			yc.MirrorMakers = append(yc.MirrorMakers, ym)
		}
		slices.SortFunc(yc.Nodes, func(a, b yamlNode) int { return strings.Compare(a.Location, b.Location) })
		m.Clusters = append(m.Clusters, yc)
	}
	return m
}

// TestYAMLGolden loads each directory of testdata/yaml and compares the
// model the YAML adapter builds with the golden file beside it.
func TestYAMLGolden(t *testing.T) {
	root := filepath.Join("testdata", "yaml")
	cases, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		if !c.IsDir() {
			continue
		}
		t.Run(c.Name(), func(t *testing.T) {
			dir, err := filepath.Abs(filepath.Join(root, c.Name()))
			if err != nil {
				t.Fatal(err)
			}
			res := load(t, dir, Options{DefaultKeys: map[string][]string{}})
			got, err := json.MarshalIndent(modelOf(res), "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			checkGolden(t, filepath.Join(root, c.Name()+".golden.json"), append(got, '\n'))
		})
	}
}

// TestYAMLComments: every doc of a YAML file carries the file's comments,
// trailing ones marked, for inline directives.
func TestYAMLComments(t *testing.T) {
	src := "# kafkalint:ignore-file KFK4002 -- lab\n" +
		"services:\n" +
		"  kafka:\n" +
		"    image: apache/kafka:4.0.0\n" +
		"    environment:\n" +
		"      KAFKA_PROCESS_ROLES: broker,controller # kafkalint:ignore KFK3005 -- lab\n"
	docs := yamlDocs([]yamlSource{{in: Input{Path: "nowhere/compose.yaml", Display: "compose.yaml"}, data: []byte(src)}})
	if len(docs) != 1 || docs[0].Err != nil {
		t.Fatalf("docs: %+v", docs)
	}
	want := []Comment{
		{Line: 1, Text: " kafkalint:ignore-file KFK4002 -- lab"},
		{Line: 6, Text: " kafkalint:ignore KFK3005 -- lab", Trailing: true},
	}
	if diff := cmp.Diff(want, docs[0].Comments); diff != "" {
		t.Errorf("comments (-want +got):\n%s", diff)
	}
}

// TestYAMLSkipsOtherYAML: YAML that is none of the formats yields no doc
// (the file counts as skipped), a template that does not parse is not an
// error, and invalid YAML is an error at its line.
func TestYAMLSkipsOtherYAML(t *testing.T) {
	for name, src := range map[string]string{
		"ci.yml":            "jobs:\n  test:\n    runs-on: ubuntu-latest\n",
		"values.yaml":       "replicaCount: 3\nimage: nginx\n",
		"template.yaml":     "a: 1\n{{- if .Values.x }}\nb: 2\n{{- end }}\n",
		"kustomization.yml": "resources:\n  - kafka.yaml\n",
	} {
		if docs := yamlDocs([]yamlSource{{in: Input{Path: "nowhere/" + name, Display: name}, data: []byte(src)}}); len(docs) != 0 {
			t.Errorf("%s: %d docs, want none", name, len(docs))
		}
	}
	docs := yamlDocs([]yamlSource{{in: Input{Path: "nowhere/kafka.yaml", Display: "kafka.yaml"}, data: []byte("apiVersion: kafka.strimzi.io/v1\nkind: Kafka\n  bad: indent\n")}})
	if len(docs) != 1 || docs[0].Err == nil || docs[0].Err.Line != 3 {
		t.Fatalf("want one error at line 3, got %+v", docs)
	}
}

// A source's environment hint is read as a name of an environment only:
// a namespace that merely sounds like a demo does not hide the
// environment a label states (issue 16's sample words are for paths).
func TestStrimziHintIgnoresSampleWords(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "kafka/cluster.yaml", `apiVersion: kafka.strimzi.io/v1beta2
kind: Kafka
metadata:
  name: shop
  namespace: kafka-demo
  labels:
    env: production
spec:
  kafka:
    replicas: 3
`)
	res := load(t, dir, Options{})
	var got []string
	for _, c := range res.Clusters {
		for _, f := range c.Files {
			got = append(got, f.Path+" "+f.Environment+"/"+f.EnvironmentSource)
		}
	}
	if want := []string{"kafka/cluster.yaml production/config"}; !slices.Equal(got, want) {
		t.Errorf("files = %q, want %q", got, want)
	}
}
