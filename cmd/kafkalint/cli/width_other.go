//go:build !(aix || darwin || dragonfly || freebsd || linux || netbsd || openbsd || solaris || zos || windows)

package cli

import "os"

// terminalWidth is unknown on this system: text is wrapped to COLUMNS or 80.
func terminalWidth(*os.File) int { return 0 }
