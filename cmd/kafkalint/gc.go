package main

import (
	"github.com/kafkalint/kafkalint/lint"
)

// gcBudget is the heap the collector's target lets grow to (lint.TuneGC)
// in a kafkalint process whose environment sets neither GOGC nor
// GOMEMLIMIT. The peak RSS of a lint is about the heap goal plus 50 MB;
// README "Performance" has the measurements.
const gcBudget = 128 << 20

// tuneGC tunes the collector unless the user chose its setting: GOGC or
// GOMEMLIMIT in the environment (read through getenv) keeps Go's rules.
func tuneGC(getenv func(string) string) (stop func()) {
	if getenv("GOGC") != "" || getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	return lint.TuneGC(gcBudget)
}
