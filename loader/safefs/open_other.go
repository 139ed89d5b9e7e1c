//go:build !unix

package safefs

import "os"

// openFlags: outside Unix there are no named pipes in the file system to
// block on.
const openFlags = os.O_RDONLY
