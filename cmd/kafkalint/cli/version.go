package cli

import (
	"cmp"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"

	"github.com/spf13/cobra"

	"github.com/kafkalint/kafkalint/loader/catalog"
)

// Build stamps, set by the release build (.goreleaser.yaml) with
//
//	-ldflags "-X github.com/kafkalint/kafkalint/cmd/kafkalint/cli.Version=v1.2.3 ...Commit=... ...Date=..."
//
// Empty ones are read from the binary's build info instead (version).
var (
	Version = "" // release version, e.g. v0.1.0
	Commit  = "" // full commit hash
	Date    = "" // commit or build time, RFC 3339
)

// buildStamp is what `kafkalint version` prints about the build.
type buildStamp struct {
	version, commit, date string
	modified              bool // built from a working tree with uncommitted changes
}

// stamp is the ldflags values, each empty one filled from bi: the module
// version that `go install module@version` records, and the vcs.* settings
// that `go build` in a git checkout records.
func stamp(bi *debug.BuildInfo) buildStamp {
	s := buildStamp{version: Version, commit: Commit, date: Date}
	if bi == nil {
		bi = &debug.BuildInfo{}
	}
	if s.version == "" && bi.Main.Version != "(devel)" {
		s.version = bi.Main.Version
	}
	for _, kv := range bi.Settings {
		switch kv.Key {
		case "vcs.revision":
			s.commit = cmp.Or(s.commit, kv.Value)
		case "vcs.time":
			s.date = cmp.Or(s.date, kv.Value)
		case "vcs.modified":
			s.modified = kv.Value == "true"
		}
	}
	s.version = cmp.Or(s.version, "dev")
	return s
}

// version is the kafkalint version (SARIF's tool version too).
func version() string {
	bi, _ := debug.ReadBuildInfo()
	return stamp(bi).version
}

// writeVersion prints the version, the commit it was built from, the Go
// toolchain and the Kafka versions whose configuration kafkalint knows:
// what a bug report needs.
func writeVersion(w io.Writer) error {
	bi, _ := debug.ReadBuildInfo()
	s := stamp(bi)
	commit := s.commit
	switch {
	case commit == "":
		commit = "unknown"
	case s.modified:
		commit += " (modified)"
	}
	if s.date != "" {
		commit += ", " + s.date
	}
	_, err := fmt.Fprintf(w, "kafkalint %s\ncommit: %s\ngo:     %s %s/%s\nkafka:  %s\n",
		s.version, commit, runtime.Version(), runtime.GOOS, runtime.GOARCH, strings.Join(catalog.Versions(), ", "))
	return err
}

func newVersion(s Streams) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the kafkalint version, its commit, Go version and known Kafka versions",
		Args:  cobra.NoArgs,
		RunE:  func(*cobra.Command, []string) error { return writeVersion(s.Out) },
	}
}

// versionFlag makes `kafkalint --version` print what `kafkalint version`
// does: cobra adds the flag when root.Version is set and prints the
// version template, which calls writeVersion only when the flag is given.
func versionFlag(root *cobra.Command) {
	addVersionFunc()
	root.Version = "set" // any non-empty value enables the flag
	root.SetVersionTemplate("{{kafkalintVersion}}")
}

// addVersionFunc registers the template function once: cobra's template
// functions are global.
var addVersionFunc = sync.OnceFunc(func() {
	cobra.AddTemplateFunc("kafkalintVersion", func() string {
		var b strings.Builder
		_ = writeVersion(&b) // a strings.Builder does not fail
		return b.String()
	})
})
