package loader

import (
	"context"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/kafkalint/kafkalint/loader/catalog"
	"github.com/kafkalint/kafkalint/loader/safefs"
)

// Source is the content of one file loaded from memory (a policy test's
// snippet) rather than from disk.
type Source struct {
	// Name is the file's path as findings show it: relative and
	// slash-separated. Its segments give the environment (prod/...) and
	// its base name the kind of file (meta.properties, values.yaml,
	// main.tf), exactly as for a file on disk.
	Name string
	// Format names the adapter that reads it: "properties", "terraform" or
	// "yaml"; "" chooses by name, as for a file named on the command line.
	Format string
	Data   []byte
}

// noSuchDir is where in-memory sources pretend to live without
// Options.SourceRoot: a directory that cannot exist (a path below the
// null device), so that the files an adapter reads beside a source (a
// compose .env, a chart's Chart.yaml, a Terraform templatefile) are
// simply absent and never come from the working directory.
var noSuchDir = filepath.Join(os.DevNull, "kafkalint-source")

// SourceFormats are the values Source.Format accepts besides "".
func SourceFormats() []string {
	var out []string
	for _, f := range formats {
		out = append(out, f.name())
	}
	return out
}

// LoadSources loads in-memory files as Load loads files from disk: the same
// adapters, typing, defaults, environments and grouping into clusters.
// Sources whose names share a directory are read together, as the files of
// one directory are (a Terraform module, Strimzi resources). A file read
// beside a source is another source of that name, else, with
// opts.SourceRoot, the file there; else it is missing.
func LoadSources(sources []Source, opts Options) (*Result, error) {
	if opts.Environment != "" && !slices.Contains(Environments, opts.Environment) {
		return nil, fmt.Errorf("unknown environment %q (want one of %s)", opts.Environment, strings.Join(Environments, ", "))
	}
	if opts.KafkaVersion != "" && !catalog.ValidVersion(opts.KafkaVersion) {
		return nil, fmt.Errorf("invalid Kafka version %q (want X.Y, e.g. 3.9)", opts.KafkaVersion)
	}
	dir, root := noSuchDir, (*safefs.Root)(nil)
	if opts.SourceRoot != "" {
		var err error
		if root, err = safefs.OpenRoot(opts.SourceRoot, opts.MaxFileSize); err != nil {
			return nil, fmt.Errorf("source root: %w", err)
		}
		defer root.Close()
		dir = root.Dir()
	}
	byPath := map[string][]byte{}
	seen := map[string]bool{}
	var files []Input
	for _, s := range sources {
		name := path.Clean(filepath.ToSlash(s.Name))
		if s.Name == "" || path.IsAbs(name) || name == ".." || strings.HasPrefix(name, "../") {
			return nil, fmt.Errorf("file name %q: want a relative path such as prod/server.properties", s.Name)
		}
		if seen[name] {
			return nil, fmt.Errorf("file name %q is given twice", name)
		}
		seen[name] = true
		a, err := sourceFormat(s.Format, name)
		if err != nil {
			return nil, err
		}
		data := s.Data
		if data == nil {
			data = []byte{}
		}
		p := filepath.Join(dir, filepath.FromSlash(name))
		byPath[p] = data
		files = append(files, Input{
			Path: p, Display: name,
			Explicit: true, format: a, data: data, root: root, sources: byPath,
		})
	}
	res := &Result{}
	if err := loadInputs(context.Background(), res, files, opts); err != nil {
		return nil, err
	}
	return res, nil
}

// sourceFormat picks the format called name, checking that a format
// that tells files apart by name (Terraform, YAML) accepts the file name.
func sourceFormat(name, file string) (format, error) {
	if name == "" {
		return formatFor(file, true), nil
	}
	for _, f := range formats {
		if f.name() != name {
			continue
		}
		if f != fallback && !f.match(file) {
			return nil, fmt.Errorf("file name %q is not a %s file name (the %s reader tells files apart by name)", file, name, name)
		}
		return f, nil
	}
	return nil, fmt.Errorf("unknown format %q (want %s)", name, strings.Join(SourceFormats(), ", "))
}
