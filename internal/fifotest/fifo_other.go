//go:build !unix

package fifotest

import "testing"

// Make skips the test: this system has no named pipes.
func Make(t testing.TB, _ string) {
	t.Helper()
	t.Skip("no named pipes here")
}
