package main

import (
	"github.com/kafkalint/kafkalint/lint"
)

// The heap the collector's target lets grow to (lint.TuneGC) in a
// kafkalint process whose environment sets neither GOGC nor GOMEMLIMIT:
// 13 KiB per input file, at least 128 MiB, which a lint of 10,000 files
// (the bench trees) does not exceed: its peak RSS stays under 300 MB.
// README "Performance" has the measurements.
const (
	gcPerFile = 13 << 10
	gcFloor   = 128 << 20
)

// tuneGC tunes the collector unless the user chose its setting: GOGC or
// GOMEMLIMIT in the environment (read through getenv) keeps Go's rules.
func tuneGC(getenv func(string) string) (stop func()) {
	if getenv("GOGC") != "" || getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	return lint.TuneGC(gcPerFile, gcFloor)
}
