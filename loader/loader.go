// Package loader turns Kafka configuration files into the normalized cluster
// model (model.go) that the policies evaluate. Formats differ only here:
// every parser produces the same records, which are then grouped into
// clusters and typed against Kafka's catalog for the cluster's version.
package loader

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/kafkalint/kafkalint/loader/catalog"
)

// Options control loading.
type Options struct {
	// Environment forces the environment of every file ("" = infer from path).
	Environment string
	// KafkaVersion is the target Kafka version ("" = newest cataloged).
	KafkaVersion string
	// DefaultKeys lists, per catalog scope, the keys whose documented
	// default is added to a record's settings when the file does not set
	// them (the keys the policies read).
	DefaultKeys map[string][]string
	// Dir is the directory paths are shown relative to ("" = working directory).
	Dir string
	// Exclude, when set, drops the files (absolute paths) it returns true
	// for, whether walked or named (.kafkalint.yaml `exclude`).
	Exclude func(abs string) bool
	// EnvironmentOf, when set, names a file's environment from its
	// absolute path ("" = no opinion); it wins over the path segments but
	// not over Environment or an environment the source states itself
	// (.kafkalint.yaml `environments`).
	EnvironmentOf func(abs string) string
}

// Error is a file that could not be read or parsed.
type Error struct {
	File    string `json:"file"`
	Line    int    `json:"line"`
	Message string `json:"message"`
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Message)
	}
	return fmt.Sprintf("%s: %s", e.File, e.Message)
}

// Result is everything loaded from a set of paths.
type Result struct {
	Clusters []*Cluster
	Errors   []*Error
	Files    int // files read (parsed or failed)
	Skipped  int // files read that hold no Kafka configuration
	// Directives are the inline `kafkalint:` comments of every file that
	// holds Kafka configuration, by display path (directives.go).
	Directives map[string][]Directive
}

// Environments accepted by Options.Environment.
var Environments = []string{"production", "staging", "development"}

// skipDirs are never walked into.
var skipDirs = map[string]bool{".git": true, "node_modules": true, "vendor": true}

// Load reads every path (files, or directories walked recursively).
func Load(paths []string, opts Options) (*Result, error) {
	return LoadContext(context.Background(), paths, opts)
}

// LoadContext is Load that stops when ctx is done (between files), and then
// returns ctx's error: an audit's --repo-timeout or an interrupted run does
// not keep reading a large tree nobody will see the result of.
func LoadContext(ctx context.Context, paths []string, opts Options) (*Result, error) {
	if opts.Environment != "" && !slices.Contains(Environments, opts.Environment) {
		return nil, fmt.Errorf("unknown environment %q (want one of %s)", opts.Environment, strings.Join(Environments, ", "))
	}
	if opts.KafkaVersion != "" && !catalog.ValidVersion(opts.KafkaVersion) {
		return nil, fmt.Errorf("invalid Kafka version %q (want X.Y, e.g. 3.9)", opts.KafkaVersion)
	}
	if opts.Dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return nil, fmt.Errorf("working directory: %w", err)
		}
		opts.Dir = wd
	}
	res := &Result{}
	files := dropExcluded(collect(ctx, paths, opts.Dir, res), opts)
	if err := loadInputs(ctx, res, files, opts); err != nil {
		return nil, err
	}
	return res, nil
}

// loadInputs parses the files and groups what they hold into clusters.
func loadInputs(ctx context.Context, res *Result, files []Input, opts Options) error {
	docs := parseAll(ctx, files, opts)
	if err := ctx.Err(); err != nil {
		return err
	}
	var all []*Doc
	produced := map[string]bool{}
	for _, d := range docs {
		produced[d.File] = true
		switch {
		case d.Err != nil:
			res.Errors = append(res.Errors, d.Err)
		case d.Kind != "":
			all = append(all, d)
		default:
			produced[d.File] = false
		}
	}
	res.Files = len(files)
	for _, f := range files {
		if !produced[f.Display] {
			res.Skipped++
		}
	}
	res.Directives = collectDirectives(all)
	res.Clusters = buildClusters(ctx, all, opts)
	if err := ctx.Err(); err != nil {
		return err
	}
	slices.SortFunc(res.Errors, func(a, b *Error) int {
		return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line), cmp.Compare(a.Message, b.Message))
	})
	return nil
}

// Input is a file to read.
type Input struct {
	Path    string // as opened
	Display string // relative to Options.Dir when under it, slash-separated
	// Explicit: named on the command line, so read whatever its extension.
	Explicit bool
	adapter  *adapter
	// data is the content of a source loaded from memory (LoadSources);
	// nil: read Path.
	data []byte
}

// collect expands the paths into files, recording unreadable paths as errors.
func collect(ctx context.Context, paths []string, dir string, res *Result) []Input {
	seen := map[string]bool{}
	var out []Input
	add := func(p string, explicit bool) {
		abs, err := filepath.Abs(p)
		if err != nil || seen[abs] {
			return
		}
		seen[abs] = true
		a := adapterFor(p, explicit)
		if a == nil {
			return
		}
		out = append(out, Input{Path: p, Display: displayPath(abs, dir), Explicit: explicit, adapter: a})
	}
	for _, p := range paths {
		info, err := os.Stat(p)
		if err != nil {
			res.Errors = append(res.Errors, &Error{File: filepath.ToSlash(p), Message: readError(err)})
			continue
		}
		if !info.IsDir() {
			add(p, true)
			continue
		}
		err = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			if ctx.Err() != nil {
				return fs.SkipAll // the caller reports ctx's error
			}
			if err != nil {
				res.Errors = append(res.Errors, &Error{File: displayPath(path, dir), Message: readError(err)})
				if d != nil && d.IsDir() {
					return fs.SkipDir
				}
				return nil
			}
			if d.IsDir() {
				if path != p && skipDirs[d.Name()] {
					return fs.SkipDir
				}
				return nil
			}
			if d.Type().IsRegular() {
				add(path, false)
			}
			return nil
		})
		if err != nil {
			res.Errors = append(res.Errors, &Error{File: filepath.ToSlash(p), Message: readError(err)})
		}
	}
	return out
}

// dropExcluded removes the files Options.Exclude rejects.
func dropExcluded(files []Input, opts Options) []Input {
	if opts.Exclude == nil {
		return files
	}
	return slices.DeleteFunc(files, func(in Input) bool {
		abs, err := filepath.Abs(in.Path)
		return err == nil && opts.Exclude(abs)
	})
}

// absPath turns a display path (relative to dir, or absolute) back into
// an absolute path.
func absPath(display, dir string) string {
	p := filepath.FromSlash(display)
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(dir, p)
}

func readError(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return fmt.Sprintf("cannot read: %v", pe.Err)
	}
	return fmt.Sprintf("cannot read: %v", err)
}

func displayPath(p, dir string) string {
	abs, err := filepath.Abs(p)
	if err == nil {
		if rel, err := filepath.Rel(dir, abs); err == nil && !strings.HasPrefix(rel, "..") {
			return filepath.ToSlash(rel)
		}
		p = abs
	}
	return filepath.ToSlash(p)
}

// parseAll parses the inputs in parallel: a file at a time, or a directory
// at a time for adapters that read a directory as one unit (a Terraform
// module). Docs come back in input order.
func parseAll(ctx context.Context, files []Input, opts Options) []*Doc {
	type unit struct{ inputs []Input }
	var units []unit
	dirUnit := map[string]int{}
	for _, f := range files {
		if !f.adapter.perDir {
			units = append(units, unit{[]Input{f}})
			continue
		}
		key := f.adapter.name + " " + filepath.Dir(f.Path)
		if i, ok := dirUnit[key]; ok {
			units[i].inputs = append(units[i].inputs, f)
			continue
		}
		dirUnit[key] = len(units)
		units = append(units, unit{[]Input{f}})
	}
	out := make([][]*Doc, len(units))
	work := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), max(len(units), 1)) {
		wg.Go(func() {
			for i := range work {
				if ctx.Err() != nil {
					continue // drain: the caller reports ctx's error
				}
				out[i] = units[i].inputs[0].adapter.load(units[i].inputs)
				for _, d := range out[i] {
					prepare(d, opts)
				}
			}
		})
	}
	for i := range units {
		work <- i
	}
	close(work)
	wg.Wait()
	var docs []*Doc
	for _, ds := range out {
		docs = append(docs, ds...)
	}
	return docs
}

// readInput reads a file, or returns the doc that reports why it cannot.
func readInput(in Input) ([]byte, *Doc) {
	if in.data != nil {
		return in.data, nil
	}
	data, err := os.ReadFile(in.Path)
	if err != nil {
		return nil, &Doc{File: in.Display, Err: &Error{File: in.Display, Message: readError(err)}}
	}
	return data, nil
}
