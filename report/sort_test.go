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

// TestPermute: permute puts fs[order[i]] at i for every permutation of a
// few findings (cycles of every length, fixed points) and resets order.
func TestPermute(t *testing.T) {
	var perms [][]int
	var build func(prefix []int, rest []int)
	build = func(prefix, rest []int) {
		if len(rest) == 0 {
			perms = append(perms, slices.Clone(prefix))
			return
		}
		for i := range rest {
			next := append(slices.Clone(rest[:i]), rest[i+1:]...)
			build(append(prefix, rest[i]), next)
		}
	}
	build(nil, []int{0, 1, 2, 3, 4})
	for _, order := range perms {
		fs := make([]Finding, len(order))
		for i := range fs {
			fs[i].Line = i
		}
		want := make([]int, len(order))
		for i, o := range order {
			want[i] = fs[o].Line
		}
		given := slices.Clone(order)
		permute(fs, order)
		for i := range fs {
			if fs[i].Line != want[i] || order[i] != i {
				t.Fatalf("permute by %v: line %d at %d (want %d), order %v", given, fs[i].Line, i, want[i], order)
			}
		}
	}
}
