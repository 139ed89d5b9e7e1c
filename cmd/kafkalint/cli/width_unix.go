//go:build aix || darwin || dragonfly || freebsd || linux || netbsd || openbsd || solaris || zos

package cli

import (
	"os"

	"golang.org/x/sys/unix"
)

// terminalWidth asks the terminal f is for its width (TIOCGWINSZ), 0 when
// it does not say.
func terminalWidth(f *os.File) int {
	ws, err := unix.IoctlGetWinsize(int(f.Fd()), unix.TIOCGWINSZ)
	if err != nil {
		return 0
	}
	return int(ws.Col)
}
