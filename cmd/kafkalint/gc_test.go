package main

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"
	"time"
)

// gogc reads the collector's target without setting it.
func gogc() int {
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}}
	metrics.Read(s)
	return int(int32(s[0].Value.Uint64()))
}

// TestTuneGC: the collector is tuned (lint.TuneGC) unless the environment
// chooses GOGC or GOMEMLIMIT or the run is the language server: a target
// of 120 changing after collections tells that a tuner runs (the live
// heap of a test is far under the floor: the tuned target is the most).
// (Not parallel: the setting is the process's.)
func TestTuneGC(t *testing.T) {
	orig := debug.SetGCPercent(120)
	t.Cleanup(func() { debug.SetGCPercent(orig) })
	for _, tc := range []struct {
		args  []string
		env   map[string]string
		tuned bool
	}{
		{[]string{"lint", "."}, map[string]string{}, true},
		{[]string{"--no-color", "audit", "."}, map[string]string{}, true},
		{[]string{"lint", "."}, map[string]string{"GOGC": "50"}, false},
		{[]string{"lint", "."}, map[string]string{"GOGC": "off"}, false},
		{[]string{"lint", "."}, map[string]string{"GOMEMLIMIT": "200MiB"}, false},
		{[]string{"lsp"}, map[string]string{}, false},
	} {
		debug.SetGCPercent(120)
		stop := tuneGC(tc.args, func(k string) string { return tc.env[k] })
		tuned := false
		for i := 0; i < 200 && !tuned; i++ {
			runtime.GC()
			time.Sleep(time.Millisecond)
			tuned = gogc() != 120
			if !tc.tuned && i == 10 {
				break // ten collections are enough to see nothing changes
			}
		}
		stop()
		if tuned != tc.tuned {
			t.Errorf("%v, environment %v: tuned = %v, want %v (GOGC %d)", tc.args, tc.env, tuned, tc.tuned, gogc())
		}
		if got := gogc(); got != 120 {
			t.Errorf("%v, environment %v: GOGC %d after stop, want the 120 before", tc.args, tc.env, got)
		}
	}
}
