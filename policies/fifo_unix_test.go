//go:build unix

package policies

import (
	"syscall"
	"testing"
)

// mkfifo makes a named pipe at path, for the tests that a FIFO must not
// hang.
func mkfifo(t *testing.T, path string) {
	t.Helper()
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
}
