//go:build kafkalint_prof

package main

// A profiling build for contributors (docs/development.md): built with
// -tags kafkalint_prof, the binary writes a CPU profile of the whole run to
// $KAFKALINT_CPUPROFILE. Release builds have no such hook.

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime/pprof"
)

func init() {
	path := os.Getenv("KAFKALINT_CPUPROFILE")
	if path == "" {
		return
	}
	f, err := os.Create(filepath.Clean(path))
	if err == nil {
		err = pprof.StartCPUProfile(f)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "kafkalint: KAFKALINT_CPUPROFILE:", err)
		return
	}
	atExit = func() {
		pprof.StopCPUProfile()
		_ = f.Close()
	}
}
