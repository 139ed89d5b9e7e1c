package lint

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"sync/atomic"
)

// maxTunedGCPercent bounds TuneGC's target: past it, fewer collections
// save little (each one's cost is the live heap, not the garbage).
const maxTunedGCPercent = 300

// TuneGC raises the collector's target (GOGC) above Go's default of 100
// while the heap it lets grow stays within a budget: after each collection
// the target becomes the percent at which the next heap goal is the budget
// for the heap then live, between 100 and maxTunedGCPercent. The budget is
// perFile bytes per input file of the runs in progress (Run counts them
// from when the loader has collected them, before they are read), and at
// least floor. A lint's live heap grows with its files, so a budget that grows
// with them keeps the collector's share of the work the same for twice the
// files. A lint holds little live memory for what it allocates (each
// cluster's Rego values are garbage once it is evaluated), so at the
// default the collector took a fifth to a third of the CPU of a
// 10,000-file lint (GODEBUG=gctrace=1; README "Performance"). The target
// is never below the default, so a heap that outgrows the budget is
// collected as Go would; a large cluster gets the default's tighter target
// (evaluatingLarge), and Compile's pause its own; each hands back to the
// tuner when done.
//
// The target is the process's: a program calls TuneGC when it owns the
// process for a bounded run (the command line does, unless the
// environment sets GOGC or GOMEMLIMIT or the process is the long-running
// language server, whose heap the floor would let grow), one tuner at a
// time. stop ends the tuning (no change to the
// target after it returns) and restores the target in force before.
func TuneGC(perFile, floor uint64) (stop func()) {
	gcSetting.Lock()
	prev := gcPercent()
	gcSetting.Unlock()
	t := &gcTuner{perFile: perFile, floor: floor}
	activeTuner.Store(t)
	t.arm()
	return func() {
		t.mu.Lock()
		t.stopped = true
		t.mu.Unlock()
		activeTuner.CompareAndSwap(t, nil)
		gcSetting.Lock()
		debug.SetGCPercent(prev)
		gcSetting.Unlock()
	}
}

// activeTuner is the tuner TuneGC started, nil when none is running.
var activeTuner atomic.Pointer[gcTuner]

// gcFiles is the number of input files of the runs in progress.
var gcFiles atomic.Int64

// holdFiles counts n input files as held until release is called.
func holdFiles(n int) (release func()) {
	gcFiles.Add(int64(n))
	return func() { gcFiles.Add(-int64(n)) }
}

type gcTuner struct {
	perFile, floor uint64
	mu             sync.Mutex // stopped, and a tune in progress
	stopped        bool
}

// budget is the heap goal for the files now held.
func (t *gcTuner) budget() uint64 {
	return max(t.floor, t.perFile*uint64(max(gcFiles.Load(), 0)))
}

// gcSentinel is garbage as soon as it is armed, so its finalizer runs
// after the next collection. (It holds a pointer: never in a tiny
// allocator block, whose objects are freed together.)
type gcSentinel struct {
	_ *gcTuner
	_ [16]byte
}

func (t *gcTuner) arm() {
	runtime.SetFinalizer(&gcSentinel{}, func(*gcSentinel) {
		t.mu.Lock()
		defer t.mu.Unlock()
		if t.stopped {
			return
		}
		// Another setting in force (setGCPercent holds gcSetting:
		// Compile's pause, a large cluster) is left alone: its restore
		// asks the tuner again.
		if gcSetting.TryLock() {
			debug.SetGCPercent(t.percent())
			gcSetting.Unlock()
		}
		t.arm()
	})
}

// percent is the tuned target for the heap now live. Before the first
// collection the live heap is unknown (the metric reads 0): the heap's
// objects, live or not, bound it. (Read as 0, the target was the default,
// so a one-file lint collected right after the rules were prepared, for
// a fifth of its CPU time, with a heap of a few MB.)
func (t *gcTuner) percent() int {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}, {Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 || s[1].Value.Kind() != metrics.KindUint64 {
		return 100
	}
	return tunedGCPercent(liveBound(s[0].Value.Uint64(), s[1].Value.Uint64()), t.budget())
}

// liveBound is the live heap the tuner assumes: the last collection's,
// or before the first (live reads 0) the heap's objects.
func liveBound(live, objects uint64) uint64 {
	if live == 0 {
		return objects
	}
	return live
}

// tunedGCPercent is the target whose heap goal, live*(1+p/100), is budget,
// within [100, maxTunedGCPercent].
func tunedGCPercent(live, budget uint64) int {
	if live == 0 || budget <= live {
		return 100
	}
	p := float64(budget-live) / float64(live) * 100
	return int(min(max(p, 100), maxTunedGCPercent))
}
