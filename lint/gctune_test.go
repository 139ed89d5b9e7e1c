package lint

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strings"
	"testing"
	"time"

	"github.com/kafkalint/kafkalint/loader"
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

// TestGCBudget: the budget is perFile per file held, at least floor.
func TestGCBudget(t *testing.T) {
	tu := &gcTuner{perFile: 10, floor: 1000}
	if got := tu.budget(); got != 1000 {
		t.Errorf("no files held: budget %d, want the floor 1000", got)
	}
	release := holdFiles(150)
	if got := tu.budget(); got != 1500 {
		t.Errorf("150 files held: budget %d, want 1500", got)
	}
	release()
	if got := tu.budget(); got != 1000 {
		t.Errorf("files released: budget %d, want the floor 1000", got)
	}
}

// TestTuneGC: after a collection the target is the tuned one (the most,
// for a budget far above the live heap); a setting held by setGCPercent
// (a large cluster) is left alone; after stop the tuner changes nothing.
// (Not parallel: the collector's setting is the process's.)
func TestTuneGC(t *testing.T) {
	orig := debug.SetGCPercent(100)
	t.Cleanup(func() { debug.SetGCPercent(orig) })

	stop := TuneGC(0, 1<<40)
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

// TestRunHoldsItsFiles: while Run evaluates, its files count in the
// tuner's budget, and not once it returns. (Not parallel: beforeEvaluate
// and gcFiles are shared.)
func TestRunHoldsItsFiles(t *testing.T) {
	var during int64
	beforeEvaluate = func(*loader.Cluster) { during = gcFiles.Load() }
	t.Cleanup(func() { beforeEvaluate = nil })
	before := gcFiles.Load()
	_, err := Run(t.Context(), nil, Options{Sources: []loader.Source{
		{Name: "a/server.properties", Data: []byte(cleanBroker)},
		{Name: "b/server.properties", Data: []byte(strings.Replace(cleanBroker, "c1.example.com", "c9.example.com", 1))},
	}})
	if err != nil {
		t.Fatal(err)
	}
	if during != before+2 || gcFiles.Load() != before {
		t.Errorf("files held: %d while evaluating, %d after (%d before), want 2 more, then none", during, gcFiles.Load(), before)
	}
}
