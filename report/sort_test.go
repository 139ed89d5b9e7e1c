package report

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestFinishIndependentOfOrder: findings that tie on file, line, id, column
// and message (one message about a key set in two clusters' views of a
// file, with other related locations or keys) come out in one order, and
// the same repeat is kept, whatever order they were produced in.
func TestFinishIndependentOfOrder(t *testing.T) {
	base := []Finding{
		{ID: "KFK1", File: "a", Line: 1, Message: "m", Key: "k2", Cluster: "c1"},
		{ID: "KFK1", File: "a", Line: 1, Message: "m", Key: "k1", Cluster: "c1"},
		{ID: "KFK1", File: "a", Line: 1, Message: "m", Key: "k1", Cluster: "c2", Related: []Location{{File: "b", Line: 2}}},
		{ID: "KFK1", File: "a", Line: 1, Message: "m", Key: "k1", Cluster: "c2", Related: []Location{{File: "b", Line: 1}}},
		{ID: "KFK1", File: "a", Line: 1, Message: "m", Why: "w", Severity: "error"},
		{ID: "KFK1", File: "a", Line: 1, Message: "m", Why: "w", Severity: "warning"},
		{ID: "KFK2", File: "a", Line: 1, Message: "m"},
	}
	var want []byte
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 50 {
		fs := slices.Clone(base)
		for j := range fs {
			fs[j].Related = slices.Clone(fs[j].Related)
		}
		rng.Shuffle(len(fs), func(a, b int) { fs[a], fs[b] = fs[b], fs[a] })
		r := &Report{Findings: fs}
		r.Finish()
		got, err := json.Marshal(r.Findings)
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			want = got
			if len(r.Findings) != 2 { // the repeats of KFK1 are dropped
				t.Fatalf("%d findings, want 2: %s", len(r.Findings), got)
			}
			continue
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("order %d gives\n%s\nthe first gave\n%s", i, got, want)
		}
	}
}
