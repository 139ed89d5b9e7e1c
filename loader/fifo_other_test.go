//go:build !unix

package loader

import "testing"

func mkfifo(t *testing.T, _ string) {
	t.Helper()
	t.Skip("no named pipes here")
}
