// Package lint is kafkalint's lint pipeline, what `kafkalint lint` and
// `kafkalint audit` run, for a Go program that embeds kafkalint: load the
// files, evaluate the rules on every cluster, apply severity overrides,
// inline directives and a baseline, and return the report, which package
// report renders in every output format.
//
//	rep, err := lint.Run(ctx, []string{"config/"}, lint.Options{})
//	if err != nil { ... } // invalid options: nothing was attempted
//	for _, f := range rep.Findings { ... }
//	if len(rep.Errors) > 0 { ... } // files that did not load, clusters not evaluated
//
// What the CLI adds is flags, .kafkalint.yaml (Options is what it turns
// into), the --context and --new-from-rev report filters, output files and
// exit codes.
package lint

import (
	"context"
	"math"
	"runtime/debug"
	"runtime/metrics"
	"slices"
	"sync"

	"github.com/kafkalint/kafkalint/baseline"
	"github.com/kafkalint/kafkalint/docs"
	"github.com/kafkalint/kafkalint/loader"
	"github.com/kafkalint/kafkalint/policies"
	"github.com/kafkalint/kafkalint/report"
)

// Off turns a rule off in Options.Severity.
const Off = "off"

// Options control a run. The zero value lints files on disk with the
// built-in rules, as `kafkalint lint` does without a configuration file.
type Options struct {
	// Engine evaluates the rules; nil = the built-in rules (Compile).
	Engine *policies.Engine
	// Load controls loading; its DefaultKeys are always the engine's.
	Load loader.Options
	// Sources, when set, are linted instead of the paths: files held in
	// memory (an editor's unsaved buffers), read by the same adapters.
	Sources []loader.Source
	// Severity maps a rule id to the severity its findings get, or Off:
	// its findings are dropped and its directives never reported
	// (.kafkalint.yaml `rules:`).
	Severity map[string]string
	// NoInlineIgnores ignores every kafkalint:ignore directive (audits).
	NoInlineIgnores bool
	// Baseline, when set, hides the findings a baseline records, or
	// records them.
	Baseline *Baseline
	// Cache, when set, keeps each cluster's findings for the next run
	// with the same engine, which then evaluates only the clusters that
	// changed (an editor's lint after an edit). The report is the same
	// as without it.
	Cache *Cache
}

// Baseline is the baseline step of a run. Run reads File and Record, and
// writes back what the caller saves: the recorded File, or the Outcome.
type Baseline struct {
	// Dir is the directory of the baseline file, symlinks resolved
	// (baseline.RealPath): entries name files relative to it.
	Dir string
	// Why is the justification of the findings it hides, e.g. "recorded
	// in baseline ci/baseline.json".
	Why string
	// File holds the entries to apply. With Record, Run replaces it by
	// the entries of every finding, which it then hides.
	File   baseline.File
	Record bool
	// Outcome is set by Run when it applies File: the stale entries and
	// the file without them.
	Outcome baseline.Outcome
}

// Run lints paths (files, or directories walked recursively) or
// opts.Sources, and returns the finished report.
//
// Only invalid options are an error; then nothing was attempted. Whatever
// goes wrong later is an entry of the report's Errors: a file that does
// not load, a cluster whose evaluation failed or was interrupted (the
// findings computed are reported), or ctx ending while loading ("not
// analyzed").
func Run(ctx context.Context, paths []string, opts Options) (*report.Report, error) {
	engine := opts.Engine
	if engine == nil {
		var err error
		if engine, err = Compile(ctx, policies.Options{}); err != nil {
			return nil, err
		}
	}
	lo := opts.Load
	lo.DefaultKeys = engine.DefaultKeys()
	lo.TypeLater = true // evaluate types each cluster as it evaluates it
	// The files count in the collector's budget (TuneGC) from the moment
	// they are known, before they are read, until the run returns.
	var release func() // set by Collected: a deferred call reads it then
	defer func() {
		if release != nil {
			release()
		}
	}()
	collected := lo.Collected
	lo.Collected = func(n int) { // once per load
		release = holdFiles(n)
		if collected != nil {
			collected(n)
		}
	}
	var res *loader.Result
	var err error
	if opts.Sources != nil {
		res, err = loader.LoadSources(opts.Sources, lo)
	} else {
		res, err = loader.LoadContext(ctx, paths, lo)
	}
	var rep *report.Report
	var files []clusterFiles
	var values baseline.Values
	switch {
	case err != nil && ctx.Err() == nil:
		return nil, err
	case err != nil:
		// Interrupted while loading: the report still says so.
		res = &loader.Result{}
		rep = &report.Report{Errors: []report.LoadError{{File: ".", Message: "not analyzed: " + context.Cause(ctx).Error()}}}
	default:
		if opts.Baseline != nil {
			values = baseline.Values{}
		}
		rep, files = evaluate(ctx, engine, res, values, opts.Cache)
	}
	rep.Findings = slices.DeleteFunc(rep.Findings, func(f report.Finding) bool { return opts.Severity[f.ID] == Off })
	if !opts.NoInlineIgnores {
		applyDirectives(rep, res.Directives, files, engine, opts.Severity)
	}
	for i := range rep.Findings {
		if sev := opts.Severity[rep.Findings[i].ID]; sev != "" {
			rep.Findings[i].Severity = sev
		}
	}
	for _, c := range files {
		for _, f := range c.files {
			rep.Linted = append(rep.Linted, f.Path)
			if c.version != "" {
				if rep.KafkaVersions == nil {
					rep.KafkaVersions = map[string]string{}
				}
				rep.KafkaVersions[f.Path] = c.version
			}
		}
	}
	if b := opts.Baseline; b != nil {
		if b.Record {
			b.File = baseline.Record(rep.Findings, b.Dir, values)
			baseline.HideAll(rep, b.Why)
		} else {
			b.Outcome = baseline.Apply(rep, b.File, b.Dir, b.Why, values, rep.Linted)
		}
	}
	rep.Rules = Rules(engine, opts.Severity)
	rep.Finish()
	return rep, nil
}

// gcSetting serializes the runs' changes to the collector's setting
// (Compile's pause, a large cluster's tighter target in evaluate), so that
// concurrent runs restore them in order.
var gcSetting sync.Mutex

// setGCPercent sets the collector's target (GOGC) to target(the one in
// force; -1 when off) until restore puts it back, holding gcSetting
// meanwhile; with a tuner running (TuneGC), restore asks it for the
// target of the heap then live instead, since the one in force before was
// tuned for another. The setting is read from runtime/metrics, not by
// setting it: debug.SetGCPercent(-1) waits for a collection under way to
// finish.
func setGCPercent(target func(prev int) int) (restore func()) {
	gcSetting.Lock()
	prev := gcPercent()
	debug.SetGCPercent(target(prev))
	return func() {
		if t := activeTuner.Load(); t != nil && prev >= 0 {
			debug.SetGCPercent(t.percent())
		} else {
			debug.SetGCPercent(prev)
		}
		gcSetting.Unlock()
	}
}

// gcPercent is the collector's target in force, -1 when off.
func gcPercent() int {
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}}
	metrics.Read(s)
	if v := s[0].Value.Uint64(); v <= math.MaxInt32 {
		return int(v)
	}
	return -1 // off: the runtime stores -1, which reads as a huge unsigned
}

// Compile builds the engine of a run: the built-in rules plus the custom
// policies and parameters of opts (docs/custom-policies.md).
func Compile(ctx context.Context, opts policies.Options) (*policies.Engine, error) {
	if len(opts.Policies) == 0 && len(opts.Data) == 0 {
		// Preparing the built-in rules allocates a fixed amount, most of it
		// garbage once prepared (a few MB for their plan, a few tens of MB
		// to compile the Rego for --engine=interpreter): collecting
		// meanwhile only costs time (a fifth of an interpreter one-file run). Users' policies and
		// data have no such bound, so with them the collector runs as usual.
		defer setGCPercent(func(int) int { return -1 })()
	}
	return policies.Load(ctx, opts)
}

// Rules describes every rule for the formats that list rules (SARIF),
// with the severity the options give it.
func Rules(engine *policies.Engine, severity map[string]string) []report.Rule {
	var out []report.Rule
	for _, r := range engine.Rules() {
		info := report.Rule{
			ID: r.ID, Slug: r.Slug, Category: r.Category, Title: r.Title, Description: r.Description,
			Severity: r.Severity, Scope: r.Scope, DocsURL: r.DocsURL, Help: help(r), Fix: r.Fix,
		}
		switch sev := severity[r.ID]; sev {
		case "":
		case Off:
			info.Disabled = true
		default:
			info.Severity = sev
		}
		out = append(out, info)
	}
	return out
}

// help is a rule's documentation page: the built-in page, or the <ID>.md
// beside a custom rule.
func help(r *policies.Rule) string {
	if r.Source != "" {
		return r.Help
	}
	help, _ := docs.Rule(r.ID) // every built-in rule has a page (policies meta test)
	return help
}

// clusterFile is the first file of a cluster, where an evaluation error is
// reported.
func clusterFile(c clusterFiles) string {
	if len(c.files) > 0 {
		return c.files[0].Path
	}
	return c.name
}
