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

// TestTuneGC: the collector is tuned (lint.TuneGC) only when the
// environment chooses neither GOGC nor GOMEMLIMIT. With no lint in
// progress a tuner sets Go's default, 100, so a target of 120 changing to
// 100 after collections tells that one runs. (Not parallel: the setting
// is the process's.)
func TestTuneGC(t *testing.T) {
	orig := debug.SetGCPercent(120)
	t.Cleanup(func() { debug.SetGCPercent(orig) })
	for _, tc := range []struct {
		env   map[string]string
		tuned bool
	}{
		{map[string]string{}, true},
		{map[string]string{"GOGC": "50"}, false},
		{map[string]string{"GOGC": "off"}, false},
		{map[string]string{"GOMEMLIMIT": "200MiB"}, false},
	} {
		debug.SetGCPercent(120)
		stop := tuneGC(func(k string) string { return tc.env[k] })
		tuned := false
		for i := 0; i < 200 && !tuned; i++ {
			runtime.GC()
			time.Sleep(time.Millisecond)
			tuned = gogc() == 100
			if !tc.tuned && i == 10 {
				break // ten collections are enough to see nothing changes
			}
		}
		stop()
		if tuned != tc.tuned {
			t.Errorf("environment %v: tuned = %v, want %v (GOGC %d)", tc.env, tuned, tc.tuned, gogc())
		}
		if got := gogc(); got != 120 {
			t.Errorf("environment %v: GOGC %d after stop, want the 120 before", tc.env, got)
		}
	}
}
