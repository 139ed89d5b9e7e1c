//go:build kafkalint_prof

package main

// A profiling build for contributors (docs/development.md): built with
// -tags kafkalint_prof, the binary writes a CPU profile of the whole run to
// $KAFKALINT_CPUPROFILE and a heap profile taken at the run's peak live
// heap to $KAFKALINT_MEMPROFILE, and one taken at exit to
// $KAFKALINT_ALLOCPROFILE (its alloc_space covers the whole run: where the
// collector's work comes from). Release builds have no such hook.

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"runtime/pprof"
	"time"
)

func init() {
	var stops []func()
	if path := os.Getenv("KAFKALINT_CPUPROFILE"); path != "" {
		f, err := os.Create(filepath.Clean(path))
		if err == nil {
			err = pprof.StartCPUProfile(f)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "kafkalint: KAFKALINT_CPUPROFILE:", err)
		} else {
			stops = append(stops, func() { pprof.StopCPUProfile(); _ = f.Close() })
		}
	}
	if path := os.Getenv("KAFKALINT_MEMPROFILE"); path != "" {
		stops = append(stops, peakHeapProfile(filepath.Clean(path)))
	}
	if path := os.Getenv("KAFKALINT_ALLOCPROFILE"); path != "" {
		stops = append(stops, func() {
			if err := writeHeapProfile(filepath.Clean(path)); err != nil {
				fmt.Fprintln(os.Stderr, "kafkalint: KAFKALINT_ALLOCPROFILE:", err)
			}
		})
	}
	atExit = func() {
		for _, stop := range stops {
			stop()
		}
	}
}

// peakHeapProfile polls the live heap (as of the last GC) and writes a heap
// profile to path each time it passes its highest value so far by 5%: the
// file left at exit shows what was live at the peak. It returns the stop.
func peakHeapProfile(path string) func() {
	done := make(chan struct{})
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
		var peak uint64
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
			}
			metrics.Read(sample)
			if live := sample[0].Value.Uint64(); live > peak+peak/20 {
				peak = live
				if err := writeHeapProfile(path); err != nil {
					fmt.Fprintln(os.Stderr, "kafkalint: KAFKALINT_MEMPROFILE:", err)
					return
				}
			}
		}
	}()
	return func() { close(done); <-stopped }
}

func writeHeapProfile(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	runtime.GC() // the profile's in-use figures are those of the last GC: make it now
	err = pprof.Lookup("heap").WriteTo(f, 0)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
