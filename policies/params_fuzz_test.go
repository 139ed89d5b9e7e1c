package policies

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// FuzzMergeParams: a data file never crashes the merge; it is either
// refused with problems that name the file, or merged into parameters
// that are still plain JSON (what the store holds).
func FuzzMergeParams(f *testing.F) {
	for _, seed := range []string{
		"quorum:\n  min_voters: 5\n",
		"custom:\n  tiers:\n    tier-1: {clusters: [\"**/payments\"], min_voters: 5}\n",
		`{"mirrormaker": {"max_sync_interval_seconds": 120}, "custom": {"a": [1, 2.5, null, true]}}`,
		"quorum: &q {min_voters: 5}\ncustom: {x: *q}\n",
		"custom:\n  <<: {a: 1}\n",
		"quorum:\n  min_voters: [5\n",
		"- 1\n",
		"custom: {1: 2, ? [a] : b}\n",
		"",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		params, err := DefaultParams()
		if err != nil {
			t.Fatal(err)
		}
		if err := mergeParams(params, "d.yaml", data); err != nil {
			var ps problems
			if !errors.As(err, &ps) || len(ps) == 0 {
				t.Fatalf("error %v is not problems", err)
			}
			for _, p := range ps {
				if p.File != "d.yaml" || p.Message == "" {
					t.Fatalf("problem %+v does not name the file or say what is wrong", p)
				}
			}
			return
		}
		if _, err := json.Marshal(params); err != nil {
			t.Fatalf("merged parameters are not JSON: %v", err)
		}
	})
}

func TestMergeParamsAliasBomb(t *testing.T) {
	var b strings.Builder
	b.WriteString("a: &a [x, x, x, x, x, x, x, x, x, x]\n")
	prev := "a"
	for _, name := range []string{"b", "c", "d", "e", "f", "g", "h"} {
		refs := strings.Repeat("*"+prev+", ", 9) + "*" + prev
		b.WriteString(name + ": &" + name + " [" + refs + "]\n")
		prev = name
	}
	bomb := b.String()
	params, err := DefaultParams()
	if err != nil {
		t.Fatal(err)
	}
	err = mergeParams(params, "d.yaml", []byte("custom:\n  "+strings.ReplaceAll(strings.TrimSuffix(bomb, "\n"), "\n", "\n  ")+"\n"))
	if err == nil || !strings.Contains(err.Error(), "expands to more than") {
		t.Errorf("alias bomb: %v", err)
	}
}
