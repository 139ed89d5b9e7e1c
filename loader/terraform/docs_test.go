package terraform

import (
	"slices"
	"testing"

	"github.com/kafkalint/kafkalint/loader/doc"
)

// TestDocs: what the platforms decide reaches the docs — MSK runs the
// quorum and sets its managed keys, Confluent Cloud fixes a topic's
// replication factor — and an MSK cluster's environment tag is a hint for
// its topics too.
func TestDocs(t *testing.T) {
	docs := loadDir(t, "testdata/topics").Docs()
	byName := map[string]doc.Doc{}
	for _, d := range docs {
		if d.Err != nil {
			t.Fatalf("error doc: %v", d.Err)
		}
		byName[d.Name] = d
	}
	msk, ok := byName["aws_msk_cluster.main"]
	if !ok {
		t.Fatalf("no doc for aws_msk_cluster.main in %d docs", len(docs))
	}
	if msk.Kind != doc.KindNode || !msk.QuorumManaged || !slices.Contains(msk.ManagedKeys, "listeners") {
		t.Errorf("MSK cluster: kind %q, quorum managed %v, managed keys %v", msk.Kind, msk.QuorumManaged, msk.ManagedKeys)
	}
	orders := byName["confluent_kafka_topic.orders"].Topic
	if orders == nil || !orders.FixedReplication || orders.ReplicationFactor == nil || orders.ReplicationFactor.Value != "3" ||
		orders.ReplicationFactor.Origin != "Confluent Cloud (every topic has replication factor 3)" {
		t.Errorf("Confluent topic: %+v", orders)
	} else if rf := byName["aws_msk_topic.audit"].Topic.ReplicationFactor; rf == nil || rf.Origin != "aws_msk_topic replication factor" {
		t.Errorf("MSK topic replication factor: %+v", rf)
	}

	env := loadDir(t, "testdata/environment").Docs()
	hints := map[string][]doc.EnvHint{}
	for _, d := range env {
		hints[d.Name] = d.EnvHints
	}
	if h := hints["aws_msk_cluster.tagged"]; len(h) != 1 || h[0].Value != "prod-eu" {
		t.Errorf("tagged cluster hints = %+v, want its Environment tag", h)
	}
}
