package policies

import (
	"context"
	"time"
)

// WithTimeout returns an engine that shares e's compiled rules and limits
// the evaluation of a run to d (0: no limit; see EvaluationContext).
func (e *Engine) WithTimeout(d time.Duration) *Engine {
	c := *e
	c.timeout = d
	return &c
}

// Timeout is the limit set by WithTimeout.
func (e *Engine) Timeout() time.Duration { return e.timeout }

// EvaluationContext bounds a run's evaluation (every Evaluate call made
// with the returned context) by the engine's timeout. OPA checks the
// context while it evaluates, so a runaway policy ends with an error
// instead of hanging the run.
func (e *Engine) EvaluationContext(ctx context.Context) (context.Context, context.CancelFunc) {
	if e.timeout <= 0 {
		return context.WithCancel(ctx)
	}
	return context.WithTimeout(ctx, e.timeout)
}
