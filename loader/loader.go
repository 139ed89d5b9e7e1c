// Package loader turns Kafka configuration files into the normalized cluster
// model (model.go) that the policies evaluate. Formats differ only here:
// every format (formats.go, one adapter_*.go each, its parser in a
// subpackage) produces the same docs (loader/doc), which are then grouped
// into clusters and typed against Kafka's catalog for the cluster's
// version.
package loader

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/kafkalint/kafkalint/loader/catalog"
	"github.com/kafkalint/kafkalint/loader/doc"
	"github.com/kafkalint/kafkalint/loader/safefs"
)

// Options control loading.
type Options struct {
	// Environment forces the environment of every file ("" = infer from path).
	Environment string
	// KafkaVersion is the target Kafka version ("" = newest cataloged).
	KafkaVersion string
	// DefaultKeys lists, per catalog scope, the keys whose documented
	// default is added to a doc's settings when the file does not set
	// them (the keys the policies read).
	DefaultKeys map[string][]string
	// Dir is the directory paths are shown relative to ("" = working
	// directory). It is also the linted root of the paths inside it:
	// nothing outside it is read for them (walk.go).
	Dir string
	// Exclude, when set, drops the files (absolute paths) it returns true
	// for, whether walked or named (.kafkalint.yaml `exclude`).
	Exclude func(abs string) bool
	// EnvironmentOf, when set, names a file's environment from its
	// absolute path ("" = no opinion); it wins over the path segments but
	// not over Environment or an environment the source states itself
	// (.kafkalint.yaml `environments`).
	EnvironmentOf func(abs string) string
	// Serial loads on the calling goroutine only: a custom policy's
	// kafkalint.parse, whose work must count against the policy's CPU
	// budget (the evaluating thread's clock).
	Serial bool
	// MaxFileSize is the largest file read, in bytes (0 =
	// safefs.DefaultMaxSize, 16 MiB); a larger one is an errors[] entry.
	MaxFileSize int64
	// SourceRoot, for LoadSources: the directory the sources' names are
	// relative to (an editor's workspace folder, its unsaved buffers the
	// sources). The files an adapter reads beside a source that are not
	// sources themselves (a compose .env, a chart's Chart.yaml, a
	// Terraform file()) are read from it, confined to it as Load's are.
	// "" = nothing beside a source exists.
	SourceRoot string
	// TypeLater leaves the settings of the clusters' nodes and clients
	// untyped (nil) until Cluster.Type is called. A caller evaluating
	// one cluster at a time types each as it evaluates it, so that the
	// typed settings (with Kafka's defaults, twice the memory of what the
	// files write) exist only for the clusters in flight, not for the
	// whole tree at once.
	TypeLater bool
	// Collected, when set, is told how many files will be read, before
	// they are (a caller sizing its memory to the input: lint.TuneGC).
	Collected func(files int)
}

// Error is a file that could not be read or parsed, at the place that
// says why when known (line, column, end).
type Error = doc.Error

// Result is everything loaded from a set of paths.
type Result struct {
	Clusters []*Cluster
	Errors   []*Error
	Files    int // files read (parsed or failed)
	Skipped  int // files read that hold no Kafka configuration
	// SkippedLinks are the symlinks met while walking a directory that were
	// not followed (they leave the linted root, dangle or loop), by
	// display path.
	SkippedLinks []SkippedLink
	// Directives are the inline `kafkalint:` comments of every file that
	// holds Kafka configuration, by display path (directives.go).
	Directives map[string][]Directive
}

// SkippedLink is a symlink the directory walk did not follow.
type SkippedLink struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
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
	if abs, err := filepath.Abs(opts.Dir); err == nil {
		opts.Dir = abs
	}
	res := &Result{}
	roots := &rootSet{max: opts.MaxFileSize, byDir: map[string]*safefs.Root{}}
	defer roots.close() // after parsing: the adapters read files beside their inputs
	files := dropExcluded(collect(ctx, paths, opts.Dir, res, roots), opts)
	if err := loadInputs(ctx, res, files, opts); err != nil {
		return nil, err
	}
	return res, nil
}

// loadInputs parses the files and groups what they hold into clusters.
func loadInputs(ctx context.Context, res *Result, files []Input, opts Options) error {
	if opts.Collected != nil {
		opts.Collected(len(files))
	}
	docs := parseAll(ctx, files, opts)
	if err := ctx.Err(); err != nil {
		return err
	}
	var all []*Doc
	produced, supplies := map[string]bool{}, map[string]bool{}
	for _, d := range docs {
		produced[d.File] = true
		switch {
		case d.Err != nil:
			res.Errors = append(res.Errors, d.Err)
		case d.Kind != "":
			all = append(all, d)
			for _, f := range supplying(d) {
				supplies[f] = true // it holds a value of d: part of d's cluster
			}
		default:
			produced[d.File] = false
		}
	}
	res.Files = len(files)
	for _, f := range files {
		if !produced[f.Display] && !supplies[f.Display] {
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
	// A file can be refused both as an input and as the file beside one (a
	// FIFO Chart.yaml is a YAML file of its directory too): report it once.
	res.Errors = slices.CompactFunc(res.Errors, func(a, b *Error) bool { return *a == *b })
	return nil
}

// Input is a file to read.
type Input struct {
	Path    string // as opened
	Display string // relative to Options.Dir when under it, slash-separated
	abs     string // Path made absolute (by the walk; "" for in-memory sources)
	// listed: the walk's listing of its directory described Path as a
	// regular file (safefs.Root.ReadListed).
	listed bool
	// Explicit: named on the command line, so read whatever its extension.
	Explicit bool
	format   format
	// root confines every read of this input and of the files read beside
	// it (a compose .env, a chart's Chart.yaml, Terraform's file()); nil
	// for in-memory sources without Options.SourceRoot, which have nothing
	// beside them.
	root *safefs.Root
	// sources are the in-memory sources by path, which the files read
	// beside one are read from before root (readFile).
	sources map[string][]byte
	// data is the content of a source loaded from memory (LoadSources),
	// or of a *.config file the walk sniffed; nil: read Path.
	data []byte
}

// collect expands the paths into files, recording unreadable paths as
// errors. Each path is read inside its linted root (rootFor).
func collect(ctx context.Context, paths []string, dir string, res *Result, roots *rootSet) []Input {
	w := &walker{ctx: ctx, dir: dir, res: res, seen: map[string]bool{}}
	for _, p := range paths {
		root, err := roots.forPath(p, dir)
		if err != nil {
			res.Errors = append(res.Errors, &Error{File: filepath.ToSlash(p), Message: readMessage(err)})
			continue
		}
		info, err := root.Stat(p)
		if err != nil {
			res.Errors = append(res.Errors, &Error{File: filepath.ToSlash(p), Message: readMessage(err)})
			continue
		}
		if !info.IsDir() {
			w.add(p, true, false, root)
			continue
		}
		w.walk(root, p)
	}
	return w.out
}

// dropExcluded removes the files Options.Exclude rejects.
func dropExcluded(files []Input, opts Options) []Input {
	if opts.Exclude == nil {
		return files
	}
	return slices.DeleteFunc(files, func(in Input) bool { return opts.Exclude(in.abs) })
}

// absPath turns a display path (relative to dir, or absolute) back into
// an absolute path.
func absPath(display, dir string) string {
	p := filepath.FromSlash(display)
	if filepath.IsAbs(p) {
		return p
	}
	return safefs.Join(dir, p)
}

// readMessage is why a file could not be read, as its errors[] message:
// safefs's reason for a refusal ("not a regular file (named pipe)"), else
// the system's.
func readMessage(err error) string {
	if r := safefs.Reason(err); r != "" {
		if errors.Is(err, safefs.ErrTooLarge) {
			r += " (--max-file-size)"
		}
		return r
	}
	return readError(err)
}

func readError(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return fmt.Sprintf("cannot read: %v", pe.Err)
	}
	return fmt.Sprintf("cannot read: %v", err)
}

func displayPath(p, dir string) string {
	abs, err := safefs.Abs(p)
	if err == nil {
		if rel, err := safefs.Rel(dir, abs); err == nil && !strings.HasPrefix(rel, "..") {
			return filepath.ToSlash(rel)
		}
		p = abs
	}
	return filepath.ToSlash(p)
}

// parseAll parses the inputs in parallel: a file at a time, or a directory
// at a time for formats that read a directory as one unit (a Terraform
// module). Docs come back in input order.
func parseAll(ctx context.Context, files []Input, opts Options) []*Doc {
	type unit struct{ inputs []Input }
	var units []unit
	dirUnit := map[string]int{}
	for _, f := range files {
		if !f.format.perDir() {
			units = append(units, unit{[]Input{f}})
			continue
		}
		key := f.format.name() + " " + filepath.Dir(f.Path)
		if i, ok := dirUnit[key]; ok {
			units[i].inputs = append(units[i].inputs, f)
			continue
		}
		dirUnit[key] = len(units)
		units = append(units, unit{[]Input{f}})
	}
	out := make([][]*Doc, len(units))
	load := func(i int) {
		if ctx.Err() != nil {
			return // the caller reports ctx's error
		}
		out[i] = units[i].inputs[0].format.load(units[i].inputs)
		for _, d := range out[i] {
			prepare(d, opts)
		}
	}
	if opts.Serial {
		for i := range units {
			load(i)
		}
	} else {
		work := make(chan int)
		var wg sync.WaitGroup
		for range min(runtime.GOMAXPROCS(0), max(len(units), 1)) {
			wg.Go(func() {
				for i := range work {
					load(i)
				}
			})
		}
		for i := range units {
			work <- i
		}
		close(work)
		wg.Wait()
	}
	var docs, held []*Doc
	for _, ds := range out {
		for _, d := range ds {
			if d.held != nil {
				held = append(held, d)
				continue
			}
			docs = append(docs, d)
		}
	}
	for _, f := range formats {
		if j, ok := f.(joiner); ok && len(held) > 0 {
			for _, d := range j.join(held, opts.Dir) {
				prepare(d, opts)
				docs = append(docs, d)
			}
		}
	}
	return docs
}

// readInput reads a file, or returns the doc that reports why it cannot.
func readInput(in Input) ([]byte, *Doc) {
	if in.data != nil {
		return in.data, nil
	}
	read := in.root.ReadFile
	if in.listed {
		read = in.root.ReadListed
	}
	data, err := read(in.Path)
	if err != nil {
		return nil, failed(in.Display, readMessage(err))
	}
	return data, nil
}

// readFile reads the file p beside in: an in-memory source of the same
// load (an unsaved buffer), else the file inside in's root.
func (in Input) readFile(p string) ([]byte, error) {
	if data, ok := in.sources[p]; ok {
		return data, nil
	}
	return in.root.ReadFile(p)
}

// readBeside reads the file called name in the directory of in (a
// compose file's .env, a values file's Chart.yaml), inside in's root. A
// missing file is (nil, nil); any other failure is the doc that reports it
// (the caller goes on without the file).
func readBeside(in Input, name string) ([]byte, *Doc) {
	data, err := in.readFile(filepath.Join(filepath.Dir(in.Path), name))
	switch {
	case err == nil:
		return data, nil
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil
	}
	display := path.Join(path.Dir(in.Display), name)
	return nil, failed(display, readMessage(err))
}
