//go:build unix

package safefs

import (
	"os"
	"syscall"
)

// openFlags open without blocking: opening a named pipe for reading waits
// for a writer otherwise. Regular files ignore O_NONBLOCK.
const openFlags = os.O_RDONLY | syscall.O_NONBLOCK
