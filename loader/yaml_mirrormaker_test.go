package loader

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// mirrorDefaults are the flow keys the MirrorMaker rules read, so that the
// model holds Kafka's default where a resource does not set them.
var mirrorDefaults = Options{DefaultKeys: map[string][]string{"mirror": {
	"emit.checkpoints.enabled", "emit.offset-syncs.enabled", "sync.group.offsets.enabled",
	"emit.checkpoints.interval.seconds", "replication.factor", "checkpoints.topic.replication.factor",
	"heartbeats.topic.replication.factor", "replication.policy.class", "groups",
}}}

// flowView shows a flow's enabled state and the settings a test names, as
// "raw (source) @line"; "runs" is whether the flow is enabled.
func flowView(f MirrorFlow, keys ...string) map[string]string {
	out := map[string]string{"runs": "false"}
	if f.Enabled {
		out["runs"] = "true"
	}
	for _, k := range keys {
		if s := f.Settings[k]; s != nil {
			out[k] = s.Raw + " (" + s.Source + ") @" + itoa(s.Loc.Line)
		}
	}
	return out
}

// loadedMirror is a MirrorMaker model with its cluster's Kafka version.
type loadedMirror struct {
	*MirrorMaker
	version string
}

// mirrorsOf returns the MirrorMaker models of a load by file base name.
func mirrorsOf(t *testing.T, res *Result) map[string][]loadedMirror {
	t.Helper()
	for _, e := range res.Errors {
		t.Errorf("load error: %v", e)
	}
	out := map[string][]loadedMirror{}
	for _, c := range res.Clusters {
		for _, mm := range c.MirrorMakers {
			out[filepath.Base(mm.File)] = append(out[filepath.Base(mm.File)], loadedMirror{mm, c.KafkaVersion})
		}
	}
	return out
}

func flowOf(t *testing.T, mm *MirrorMaker, source, target string) MirrorFlow {
	t.Helper()
	i := slices.IndexFunc(mm.Flows, func(f MirrorFlow) bool { return f.Source == source && f.Target == target })
	if i < 0 {
		t.Fatalf("%s: no flow %s->%s", mm.File, source, target)
	}
	return mm.Flows[i]
}

// TestStrimziMirrorMakerFlows: a mirror's connectors each give the flow
// only the keys they read. A checkpoint key in sourceConnector, or a mirror
// without checkpointConnector, leaves Kafka's default in the flow (the
// rules then see no checkpoints turned off); a mirror without
// sourceConnector replicates nothing and its flow is not enabled.
func TestStrimziMirrorMakerFlows(t *testing.T) {
	dir, err := filepath.Abs(filepath.Join("testdata", "yaml", "mirrormaker2"))
	if err != nil {
		t.Fatal(err)
	}
	mms := mirrorsOf(t, load(t, dir, mirrorDefaults))
	keys := []string{"emit.checkpoints.enabled", "sync.group.offsets.enabled", "replication.factor", "groups",
		"heartbeats.topic.replication.factor", "replication.policy.class", "topics"}
	tests := []struct {
		file           string
		index          int
		source, target string
		want           map[string]string
	}{
		{"v1.yaml", 0, "east", "central", map[string]string{
			"runs": "true", "emit.checkpoints.enabled": "true (default) @2", "sync.group.offsets.enabled": "false (default) @2",
			"replication.factor": "2 (default) @2", "groups": ".* (default) @2", "heartbeats.topic.replication.factor": "3 (default) @2",
			"replication.policy.class": "org.apache.kafka.connect.mirror.DefaultReplicationPolicy (default) @2",
		}},
		{"v1.yaml", 0, "west", "central", map[string]string{
			"runs": "false", "emit.checkpoints.enabled": "true (default) @2", "sync.group.offsets.enabled": "true (explicit) @33",
			"replication.factor": "2 (default) @2", "groups": ".* (default) @2", "heartbeats.topic.replication.factor": "3 (default) @2",
			"replication.policy.class": "org.apache.kafka.connect.mirror.DefaultReplicationPolicy (default) @2", "topics": ".* (explicit) @37",
		}},
		{"v1beta2.yaml", 0, "primary", "backup", map[string]string{
			"runs": "true", "emit.checkpoints.enabled": "true (default) @3", "sync.group.offsets.enabled": "false (default) @3",
			"replication.factor": "2 (explicit) @35", "groups": ".* (default) @3", "heartbeats.topic.replication.factor": "1 (explicit) @44",
			"replication.policy.class": "org.apache.kafka.connect.mirror.DefaultReplicationPolicy (explicit) @31", "topics": "orders.* (explicit) @26",
		}},
	}
	for _, tt := range tests {
		if len(mms[tt.file]) <= tt.index {
			t.Fatalf("%s: %d mirror makers", tt.file, len(mms[tt.file]))
		}
		f := flowOf(t, mms[tt.file][tt.index].MirrorMaker, tt.source, tt.target)
		if diff := cmp.Diff(tt.want, flowView(f, keys...)); diff != "" {
			t.Errorf("%s %s->%s (-want +got):\n%s", tt.file, tt.source, tt.target, diff)
		}
	}
}

// TestCorpusStrimziMirrorMakers reads the real-world KafkaMirrorMaker2
// resources of both API shapes and IBM Event Streams' copy into flows.
func TestCorpusStrimziMirrorMakers(t *testing.T) {
	root := filepath.Join(corpusDir(t), "strimzi")
	mms := mirrorsOf(t, load(t, root, mirrorDefaults))
	const ex = "strimzi__strimzi-kafka-operator__packaging__examples__mirror-maker__"
	tests := []struct {
		file           string
		clusters       string
		version        string
		source, target string
		want           map[string]string
	}{
		{ex + "kafka-mirror-maker-2__v0.45.0.yaml", "cluster-a,cluster-b", "3.9", "cluster-a", "cluster-b", map[string]string{
			"runs": "true", "replication.factor": "-1 (explicit) @26", "checkpoints.topic.replication.factor": "-1 (explicit) @34",
			"sync.group.offsets.enabled": "false (explicit) @35", "topics": ".* (explicit) @37", "groups": ".* (explicit) @38",
		}},
		{ex + "kafka-mirror-maker-2.yaml", "cluster-b,cluster-a", "4.3", "cluster-a", "cluster-b", map[string]string{
			"runs": "true", "replication.factor": "-1 (explicit) @31", "checkpoints.topic.replication.factor": "-1 (explicit) @40",
			"offset-syncs.topic.location": "target (explicit) @35", "sync.group.offsets.enabled": "false (explicit) @41",
		}},
		{ex + "kafka-mirror-maker-2-custom-replication-policy.yaml", "cluster-b,cluster-a", "4.3", "cluster-a", "cluster-b", map[string]string{
			"runs": "true", "replication.policy.class": "org.apache.kafka.connect.mirror.IdentityReplicationPolicy (explicit) @31",
		}},
		{ex + "kafka-mirror-maker-2-sync-groups.yaml", "cluster-b,cluster-a", "4.3", "cluster-a", "cluster-b", map[string]string{
			"runs": "true", "sync.group.offsets.enabled": "true (explicit) @37", "emit.checkpoints.interval.seconds": "60 (explicit) @38",
			"groups": ".* (explicit) @42",
		}},
		{"dalelane__eventstreams-mirrormaker2-demos__01-aggregate-central__templates__mm2.yaml", "northamerica,southamerica,europe", "4.3",
			"southamerica", "europe", map[string]string{
				"runs": "true", "replication.factor": "3 (explicit) @66", "topics": "LH.* (explicit) @57",
				"checkpoints.topic.replication.factor": "3 (default) @1", "sync.group.offsets.enabled": "false (default) @1",
			}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			if len(mms[tt.file]) != 1 {
				t.Fatalf("%d mirror makers", len(mms[tt.file]))
			}
			mm := mms[tt.file][0].MirrorMaker
			if got := strings.Join(mm.Clusters, ","); got != tt.clusters {
				t.Errorf("clusters %s, want %s", got, tt.clusters)
			}
			if v := mms[tt.file][0].version; v != tt.version {
				t.Errorf("Kafka version %s, want %s", v, tt.version)
			}
			var enabled []string
			for _, f := range mm.Flows {
				if f.Enabled {
					enabled = append(enabled, f.Source+"->"+f.Target)
				}
			}
			if tt.file[0] == 'd' {
				if diff := cmp.Diff([]string{"northamerica->europe", "southamerica->europe"}, enabled); diff != "" {
					t.Errorf("enabled flows (-want +got):\n%s", diff)
				}
			} else if diff := cmp.Diff([]string{tt.source + "->" + tt.target}, enabled); diff != "" {
				t.Errorf("enabled flows (-want +got):\n%s", diff)
			}
			var keys []string
			for k := range tt.want {
				keys = append(keys, k)
			}
			if diff := cmp.Diff(tt.want, flowView(flowOf(t, mm, tt.source, tt.target), keys...)); diff != "" {
				t.Errorf("flow (-want +got):\n%s", diff)
			}
		})
	}
}
