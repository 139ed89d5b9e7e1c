package catalog

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestClassify: one case per verdict on a key the version does not define
// in the unit's own scopes.
func TestClassify(t *testing.T) {
	tests := []struct {
		name, version, key string
		own, others        []string
		want               Verdict
	}{
		{"removed in 4.0", "4.0", "zookeeper.connect", []string{Broker}, nil, Verdict{Status: StatusRemoved, RemovedAfter: "3.9"}},
		{"removed, a patch version", "4.1.2", "zookeeper.connect", []string{Broker}, nil, Verdict{Status: StatusRemoved, RemovedAfter: "3.9"}},
		{"internal in 3.9, documented around it", "3.9", "group.consumer.migration.policy", []string{Broker}, nil, Verdict{Status: StatusKnown}},
		{"added later", "4.0", "group.share.assignors", []string{Broker}, nil, Verdict{Status: StatusUnknown, AddedIn: "4.1"}},
		{"another kind's key", "4.0", "acks", []string{Broker}, []string{Topic, Producer, Consumer}, Verdict{Status: StatusUnknown, KnownFor: []string{Producer}}},
		{"a typo", "4.0", "log.retention.hour", []string{Broker}, []string{Topic}, Verdict{Status: StatusUnknown, Suggestion: "log.retention.hours"}},
		{"nothing like it", "4.0", "schema.registry.url", []string{Producer}, []string{Broker}, Verdict{Status: StatusUnknown}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, Classify(tt.version, tt.key, tt.own, tt.others)); diff != "" {
				t.Errorf("Classify(%s, %s) (-want +got):\n%s", tt.version, tt.key, diff)
			}
		})
	}
}

func TestLookupIn(t *testing.T) {
	if k, ok := LookupIn("4.0", []string{Consumer, Producer}, "acks"); !ok || k.Type != "string" {
		t.Errorf("acks in consumer, producer: %+v %v, want the producer's string key", k, ok)
	}
	if DefinedIn("4.0", []string{Consumer, Admin}, "acks") {
		t.Error("acks is no consumer or admin key")
	}
	if !DefinedIn("3.9", []string{Broker}, "zookeeper.connect") || DefinedIn("4.0", []string{Broker}, "zookeeper.connect") {
		t.Error("zookeeper.connect: a 3.9 broker key, not a 4.0 one")
	}
}
