package cli

import (
	"github.com/spf13/pflag"

	"github.com/kafkalint/kafkalint/loader/safefs"
)

// sizeFlag is a byte count written as 64M, 512K or 1048576.
type sizeFlag struct{ n *int64 }

func (f sizeFlag) String() string {
	if f.n == nil || *f.n == 0 {
		return safefs.Size(safefs.DefaultMaxSize)
	}
	return safefs.Size(*f.n)
}

func (f sizeFlag) Set(s string) error {
	n, err := safefs.ParseSize(s)
	if err != nil {
		return err
	}
	*f.n = n
	return nil
}

func (f sizeFlag) Type() string { return "SIZE" }

// addMaxFileSize declares --max-file-size (loader.Options.MaxFileSize).
func addMaxFileSize(fl *pflag.FlagSet, n *int64) {
	fl.Var(sizeFlag{n}, "max-file-size", "largest file read, e.g. 64M; a larger one is a load error (docs/security.md)")
}
