package lint

import (
	"runtime"
	"runtime/debug"
	"strings"
	"sync/atomic"
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

// TestLiveBound: before the first collection (live 0) the tuner bounds
// the live heap by the heap's objects, so a target set right after the
// rules are prepared is the tuned one, not Go's default.
func TestLiveBound(t *testing.T) {
	const mb = 1 << 20
	if got := liveBound(0, 6*mb); got != 6*mb {
		t.Errorf("liveBound(0, 6 MB) = %d, want the objects' 6 MB", got)
	}
	if got := liveBound(3*mb, 6*mb); got != 3*mb {
		t.Errorf("liveBound(3 MB, 6 MB) = %d, want the live 3 MB", got)
	}
	if got := tunedGCPercent(liveBound(0, 6*mb), 128*mb); got != maxTunedGCPercent {
		t.Errorf("a 6 MB heap before the first collection gets %d, want %d", got, maxTunedGCPercent)
	}
}

// TestGCBudget: the budget is perFile per file held, at least floor.
func TestGCBudget(t *testing.T) {
	tu := &gcTuner{perFile: 10, floor: 1000}
	if base := gcFiles.Load(); base != 0 {
		t.Fatalf("%d files held before the test", base)
	}
	if got := tu.budget(); got != 1000 {
		t.Errorf("no files held: budget %d, want the floor 1000", got)
	}
	release := holdFiles(50)
	if got := tu.budget(); got != 1000 {
		t.Errorf("50 files held: budget %d, want the floor 1000", got)
	}
	release2 := holdFiles(100)
	if got := tu.budget(); got != 1500 {
		t.Errorf("150 files held: budget %d, want 1500", got)
	}
	release()
	release2()
	if got := tu.budget(); got != 1000 {
		t.Errorf("files released: budget %d, want the floor 1000", got)
	}
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
// for a budget far above the live heap; the default for a budget of 0,
// with no floor and no file held); a large cluster gets the default and,
// when done, the tuner's target for the files then held (not
// the one before it); stop restores the target in force before TuneGC and
// changes nothing after.
// (Not parallel: the collector's setting is the process's.)
func TestTuneGC(t *testing.T) {
	orig := debug.SetGCPercent(120)
	t.Cleanup(func() { debug.SetGCPercent(orig) })

	stop := TuneGC(1<<40, 0)
	if !collectUntil(func() bool { return gcPercent() == 100 }) {
		t.Errorf("GOGC %d with no file held, want the default 100", gcPercent())
	}
	release := holdFiles(1)
	if !collectUntil(func() bool { return gcPercent() == maxTunedGCPercent }) {
		t.Fatalf("GOGC %d after collections with a file held, want the tuned %d", gcPercent(), maxTunedGCPercent)
	}

	done := evaluatingLarge()
	for range 3 {
		runtime.GC()
		time.Sleep(time.Millisecond)
	}
	if got := gcPercent(); got != largeGCPercent {
		t.Errorf("GOGC %d while a large cluster is evaluated, want largeGCPercent %d, not the tuned target", got, largeGCPercent)
	}
	release() // the budget is gone: done must not restore the tuned 300
	done()
	if got := gcPercent(); got != 100 {
		t.Errorf("GOGC %d after the large cluster with no file held, want the tuner's 100", got)
	}

	stop()
	if got := gcPercent(); got != 120 {
		t.Errorf("GOGC %d after stop, want the 120 in force before TuneGC", got)
	}
	release = holdFiles(1)
	defer release()
	for range 3 {
		runtime.GC()
		time.Sleep(time.Millisecond)
	}
	if got := gcPercent(); got != 120 {
		t.Errorf("GOGC %d after stop and collections, want 120 (the tuner stopped)", got)
	}
}

// TestRunHoldsItsFiles: while Run evaluates, its files count in the
// tuner's budget, and not once it returns. (Not parallel: beforeEvaluate
// and gcFiles are shared.)
func TestRunHoldsItsFiles(t *testing.T) {
	var during atomic.Int64 // two clusters: two workers
	beforeEvaluate = func(*loader.Cluster) { during.Store(gcFiles.Load()) }
	t.Cleanup(func() { beforeEvaluate = nil })
	before := gcFiles.Load()
	_, err := Run(t.Context(), nil, Options{Sources: []loader.Source{
		{Name: "a/server.properties", Data: []byte(cleanBroker)},
		{Name: "b/server.properties", Data: []byte(strings.Replace(cleanBroker, "c1.example.com", "c9.example.com", 1))},
	}})
	if err != nil {
		t.Fatal(err)
	}
	if during.Load() != before+2 || gcFiles.Load() != before {
		t.Errorf("files held: %d while evaluating, %d after (%d before), want 2 more, then none", during.Load(), gcFiles.Load(), before)
	}
}
