package lint

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"
	"time"
)

func TestTunedGCPercent(t *testing.T) {
	const mb = 1 << 20
	for _, tc := range []struct {
		live, budget uint64
		want         int
	}{
		{0, 128 * mb, 100},
		{200 * mb, 128 * mb, 100}, // over budget: Go's default, never less
		{128 * mb, 128 * mb, 100},
		{100 * mb, 128 * mb, 100}, // the goal would be under the default's
		{45 * mb, 128 * mb, 184},
		{32 * mb, 128 * mb, 300},
		{1 * mb, 128 * mb, maxTunedGCPercent},
	} {
		if got := tunedGCPercent(tc.live, tc.budget); got != tc.want {
			t.Errorf("tunedGCPercent(%d MB, %d MB) = %d, want %d", tc.live/mb, tc.budget/mb, got, tc.want)
		}
	}
}

// gogc reads the collector's target without setting it.
func gogc() int {
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}}
	metrics.Read(s)
	return int(int32(s[0].Value.Uint64()))
}

// collectUntil runs collections until ok holds (the tuner runs as a
// finalizer, after a collection) or a few seconds pass.
func collectUntil(ok func() bool) bool {
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); {
		runtime.GC()
		time.Sleep(time.Millisecond)
		if ok() {
			return true
		}
	}
	return ok()
}

// TestTuneGC: after a collection the target is the tuned one (the most,
// for a budget far above the live heap); a setting held by setGCPercent
// (a large cluster) is left alone; after stop the tuner changes nothing.
// (Not parallel: the collector's setting is the process's.)
func TestTuneGC(t *testing.T) {
	orig := debug.SetGCPercent(100)
	t.Cleanup(func() { debug.SetGCPercent(orig) })

	stop := TuneGC(1 << 40)
	if !collectUntil(func() bool { return gogc() == maxTunedGCPercent }) {
		t.Fatalf("GOGC %d after collections, want the tuned %d", gogc(), maxTunedGCPercent)
	}

	done := evaluatingLarge()
	held := gogc()
	for range 3 {
		runtime.GC()
		time.Sleep(time.Millisecond)
	}
	if got := gogc(); got != held || held != largeGCPercent {
		t.Errorf("GOGC %d while a large cluster holds %d, want it left alone at %d", got, held, largeGCPercent)
	}
	done()

	stop()
	runtime.GC() // a finalizer armed before stop may still run once
	time.Sleep(10 * time.Millisecond)
	debug.SetGCPercent(100)
	for range 3 {
		runtime.GC()
		time.Sleep(time.Millisecond)
	}
	if got := gogc(); got != 100 {
		t.Errorf("GOGC %d after stop, want 100 (the tuner stopped)", got)
	}
}
