package policies

import (
	"time"

	"golang.org/x/sys/unix"
)

// threadClock returns a reader of the calling thread's CPU clock, usable
// from any thread of the process (the clock id Linux derives from a thread
// id, as glibc's pthread_getcpuclockid does: CPUCLOCK_SCHED|PERTHREAD).
// The caller must stay locked to its thread while the reader is used.
func threadClock() (func() (time.Duration, error), bool) {
	id := int32((^unix.Gettid())<<3 | 6) //nolint:gosec // thread ids fit the 29 bits Linux leaves them
	return func() (time.Duration, error) {
		var ts unix.Timespec
		if err := unix.ClockGettime(id, &ts); err != nil {
			return 0, err
		}
		return time.Duration(ts.Nano()), nil
	}, true
}
