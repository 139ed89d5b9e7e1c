//go:build unix

package fifotest

import (
	"syscall"
	"testing"
)

// Make makes a named pipe at path, for the tests that a FIFO must not
// hang; the test is skipped where the system refuses one.
func Make(t testing.TB, path string) {
	t.Helper()
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
}
