//go:build !linux

package policies

import "time"

// threadClock: no per-thread CPU clock here; the budget is wall time.
func threadClock() (func() (time.Duration, error), bool) { return nil, false }
