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
// environment chooses neither GOGC nor GOMEMLIMIT. (Not parallel: the
// setting is the process's.)
func TestTuneGC(t *testing.T) {
	orig := debug.SetGCPercent(100)
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
		debug.SetGCPercent(100)
		stop := tuneGC(func(k string) string { return tc.env[k] })
		tuned := false
		for deadline := time.Now().Add(2 * time.Second); !tuned && time.Now().Before(deadline); {
			runtime.GC()
			time.Sleep(time.Millisecond)
			tuned = gogc() != 100
			if !tc.tuned && time.Until(deadline) < 1900*time.Millisecond {
				break // a few collections are enough to see nothing changes
			}
		}
		stop()
		if tuned != tc.tuned {
			t.Errorf("environment %v: tuned = %v, want %v (GOGC %d)", tc.env, tuned, tc.tuned, gogc())
		}
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
}
