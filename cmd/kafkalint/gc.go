package main

import (
	"strings"

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

// tuneGC tunes the collector for a run of kafkalint with args, unless the
// user chose its setting (GOGC or GOMEMLIMIT in the environment, read
// through getenv, keeps Go's rules) or the run is the language server,
// which lives as long as the editor and should hold no more than it must.
func tuneGC(args []string, getenv func(string) string) (stop func()) {
	if getenv("GOGC") != "" || getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	for _, a := range args {
		if !strings.HasPrefix(a, "-") {
			if a == "lsp" {
				return func() {}
			}
			break
		}
	}
	return lint.TuneGC(gcPerFile, gcFloor)
}
