package policies

import (
	"math/rand"
	"testing"
	"time"
)

func TestZZHunt(t *testing.T) {
	seeds := []string{
		"quorum:\n  min_voters: 5\n",
		"custom:\n  tiers:\n    tier-1: {clusters: [\"**/payments\"], min_voters: 5}\n",
		`{"mirrormaker": {"max_sync_interval_seconds": 120}, "custom": {"a": [1, 2.5, null, true]}}`,
		"quorum: &q {min_voters: 5}\ncustom: {x: *q}\n",
	}
	alphabet := []byte("&*[]{}:,-?!|>'\"\n #ab1.<")
	r := rand.New(rand.NewSource(1))
	deadline := time.Now().Add(60 * time.Second)
	n := 0
	for time.Now().Before(deadline) {
		b := []byte(seeds[r.Intn(len(seeds))])
		for k := r.Intn(8); k >= 0; k-- {
			i := r.Intn(len(b) + 1)
			c := alphabet[r.Intn(len(alphabet))]
			b = append(b[:i], append([]byte{c}, b[i:]...)...)
		}
		done := make(chan struct{})
		go func() {
			p, _ := DefaultParams()
			_ = MergeParams(p, "d", b)
			close(done)
		}()
		select {
		case <-done:
		case <-time.After(3 * time.Second):
			t.Fatalf("slow: %q", b)
		}
		n++
	}
	t.Log(n)
}
