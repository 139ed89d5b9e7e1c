//go:build !unix

package safefs

import "testing"

func mkfifo(t *testing.T, _ string) {
	t.Helper()
	t.Skip("no named pipes here")
}
