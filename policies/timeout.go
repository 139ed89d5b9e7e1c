package policies

import (
	"context"
	"errors"
	"runtime"
	"time"
)

// WithTimeout returns an engine that shares e's compiled rules and gives
// its custom rules d of CPU time per cluster (0: no limit). The built-in
// rules are never timed out: they are ours, and a busy machine must not
// cost a run its report.
func (e *Engine) WithTimeout(d time.Duration) *Engine {
	c := *e
	c.timeout = d
	return &c
}

// Timeout is the budget set by WithTimeout.
func (e *Engine) Timeout() time.Duration { return e.timeout }

// errBudget is the cause of a context ended by withCPUBudget.
var errBudget = errors.New("CPU budget exhausted")

// withCPUBudget runs f with a context that ends (cause errBudget) once f
// has used d of CPU time. OPA evaluates a query on the calling goroutine,
// so f runs locked to its thread and a watcher reads that thread's CPU
// clock: time the thread waits for a core on a loaded machine is not
// counted. Where no thread clock is available, d is wall time.
func withCPUBudget(ctx context.Context, d time.Duration, f func(context.Context) error) error {
	if d <= 0 {
		return f(ctx)
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	clock, ok := threadClock()
	if !ok {
		ctx, cancel := context.WithTimeoutCause(ctx, d, errBudget)
		defer cancel()
		return f(ctx)
	}
	start, err := clock()
	if err != nil {
		ctx, cancel := context.WithTimeoutCause(ctx, d, errBudget)
		defer cancel()
		return f(ctx)
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	done := make(chan struct{})
	defer close(done) // before the thread is unlocked: the watcher reads its clock
	go func() {
		tick := time.NewTicker(min(max(d/20, time.Millisecond), 50*time.Millisecond))
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-tick.C:
				if now, err := clock(); err != nil || now-start >= d {
					cancel(errBudget)
					return
				}
			}
		}
	}()
	return f(ctx)
}

// HasCustom reports whether the engine has custom rules.
func (e *Engine) HasCustom() bool { return e.custom != nil }

// BuiltinOnly returns an engine that shares e's compiled rules and
// evaluates only the built-in ones (a run stops its custom rules this way
// once they have run out of time).
func (e *Engine) BuiltinOnly() *Engine {
	c := *e
	c.custom = nil
	return &c
}
