package cli

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/spf13/cobra"

	"github.com/kafkalint/kafkalint/cmd/kafkalint/config"
	"github.com/kafkalint/kafkalint/loader"
	"github.com/kafkalint/kafkalint/policies"
	"github.com/kafkalint/kafkalint/report"
)

type lintFlags struct {
	formats         []string
	env             string
	kafkaVersion    string
	failLevel       string
	noColor         bool
	maxResults      int
	configFile      string
	noInlineIgnores bool
	baseline        string
	writeBaseline   string
	baselinePrune   bool
	newFromRev      string
	contexts        []string
	maxFileSize     int64
	policy          policyFlags
}

func newLint(s Streams) *cobra.Command {
	var f lintFlags
	cmd := &cobra.Command{
		Use:   "lint [flags] PATH...",
		Short: "Lint Kafka configuration files and directories",
		Long: "Lint Kafka configuration files and directories (walked recursively; .git, node_modules and vendor are skipped).\n\n" +
			"Settings come from .kafkalint.yaml in the working directory or its parents (or --config); flags win over it.\n\n" +
			"Exit codes: 0 nothing at or above --fail-level, 1 findings at or above it, 2 usage, configuration or load errors.",
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runLint(cmd.Context(), s, f, args)
		},
	}
	fl := cmd.Flags()
	fl.StringArrayVar(&f.formats, "format", []string{report.FormatText},
		"output `FORMAT[=PATH]`, repeatable: "+strings.Join(report.Formats(), ", ")+"; PATH - or none is stdout")
	fl.StringVar(&f.env, "env", "", "environment of every file: production, staging or development (default: .kafkalint.yaml environments, else from the path)")
	fl.StringVar(&f.kafkaVersion, "kafka-version", "", "target Kafka version X.Y (default: .kafkalint.yaml kafka_version, else the newest cataloged 4.x)")
	fl.StringVar(&f.failLevel, "fail-level", "", "lowest severity that makes the exit code 1: error, warning or info (default: .kafkalint.yaml fail_level, else error)")
	fl.BoolVar(&f.noColor, "no-color", false, "disable color in text output (NO_COLOR is honored too)")
	fl.IntVar(&f.maxResults, "max-results", report.GitHubMaxResults, "most results `N` in the SARIF output, the most severe kept (GitHub code scanning rejects more than 25000 per run); 0: no limit")
	fl.StringVar(&f.configFile, "config", "", "configuration `FILE` (default: .kafkalint.yaml in the working directory or its parents)")
	fl.BoolVar(&f.noInlineIgnores, "no-inline-ignores", false, "ignore every # kafkalint:ignore directive (audits)")
	fl.StringVar(&f.baseline, "baseline", "", "hide the findings recorded in baseline `FILE`")
	fl.StringVar(&f.writeBaseline, "write-baseline", "", "record the current findings in baseline `FILE` (and hide them from this run's report)")
	fl.BoolVar(&f.baselinePrune, "baseline-prune", false, "with --baseline: list and remove the entries that no longer match a finding")
	fl.StringVar(&f.newFromRev, "new-from-rev", "", "report only findings in or related to files changed since git `REV` (everything is still analyzed)")
	fl.StringArrayVar(&f.contexts, "context", nil, "analyze `DIR` (repeatable) and report only findings in or related to the PATH arguments (pre-commit: --context . FILE...)")
	addMaxFileSize(fl, &f.maxFileSize)
	addPolicyFlags(fl, &f.policy, true)
	return cmd
}

// settings are the flags merged with the configuration file.
type settings struct {
	lintFlags
	cfg     *config.Config
	outputs []output
}

func resolve(f lintFlags, engine *policies.Engine) (*settings, error) {
	outs, err := parseOutputs(f.formats)
	if err != nil {
		return nil, err
	}
	cfg, err := loadConfig(f.configFile, engine)
	if err != nil {
		return nil, err
	}
	st := &settings{lintFlags: f, cfg: cfg, outputs: outs}
	if st.failLevel == "" {
		st.failLevel = cmp.Or(cfg.FailLevel, report.Error)
	}
	if st.kafkaVersion == "" {
		st.kafkaVersion = cfg.KafkaVersion
	}
	if !slices.Contains(report.Severities, st.failLevel) {
		return nil, usageError("unknown --fail-level %q (want %s)", st.failLevel, strings.Join(report.Severities, ", "))
	}
	switch {
	case f.maxResults < 0:
		return nil, usageError("--max-results %d: want 0 (no limit) or more", f.maxResults)
	case f.baselinePrune && f.baseline == "":
		return nil, usageError("--baseline-prune needs --baseline FILE")
	case f.writeBaseline != "" && f.baseline != "":
		return nil, usageError("--write-baseline and --baseline cannot be combined: --write-baseline re-records every current finding, --baseline-prune drops entries that no longer match")
	}
	return st, nil
}

func runLint(ctx context.Context, s Streams, f lintFlags, args []string) error {
	engine, err := policyEngine(ctx, f.configFile, f.policy)
	if err != nil {
		return err
	}
	st, err := resolve(f, engine)
	if err != nil {
		return err
	}
	// With --context the PATH arguments only select what is reported.
	loadPaths, only := args, pathFilter(nil)
	if len(st.contexts) > 0 {
		loadPaths = st.contexts
		if only, err = existingPaths(args); err != nil {
			return err
		}
	}
	var changed pathFilter
	if st.newFromRev != "" {
		if changed, err = gitChanged(ctx, st.newFromRev); err != nil {
			return usageError("--new-from-rev %s: %v", st.newFromRev, err)
		}
	}
	opts := loadOptions(st.env, st.kafkaVersion, st.cfg, engine)
	opts.MaxFileSize = st.maxFileSize
	res, values, rep, err := analyze(ctx, engine, loadPaths, opts, st.cfg, !st.noInlineIgnores,
		st.writeBaseline != "" || st.baseline != "")
	switch {
	case err != nil && ctx.Err() == nil: // invalid options: nothing was attempted
		return &exitError{code: ExitError, err: err}
	case err != nil:
		// Interrupted while loading: the outputs still say so.
		res, rep = &loader.Result{}, &report.Report{Errors: []report.LoadError{{File: ".", Message: "not analyzed: " + context.Cause(ctx).Error()}}}
	}
	switch {
	case st.writeBaseline != "":
		n, err := writeBaseline(st.writeBaseline, rep.Findings, values)
		if err != nil {
			return &exitError{code: ExitError, err: err}
		}
		fmt.Fprintf(s.Err, "kafkalint: recorded %d %s in %s\n", n, plural(n, "finding"), st.writeBaseline)
		hideAll(rep, "recorded in baseline "+st.writeBaseline)
	case st.baseline != "":
		if err := applyBaseline(s, rep, res, values, st.baseline, st.baselinePrune); err != nil {
			return err
		}
	}
	for _, keep := range []pathFilter{only, changed} {
		if keep != nil {
			keep.apply(rep)
		}
	}
	rep.Rules = ruleInfos(engine, st.cfg)
	rep.Linted = lintedFiles(res, only, changed)
	rep.Finish()
	if err := writeOutputs(s, st.outputs, rep, st.noColor, st.maxResults, st.failLevel); err != nil {
		return &exitError{code: ExitError, err: err}
	}
	switch {
	case len(rep.Errors) > 0:
		return &exitError{code: ExitError}
	case rep.AtOrAbove(st.failLevel) > 0:
		return &exitError{code: ExitFindings}
	}
	return nil
}

// loadOptions builds the loader's options from the flags and the
// configuration file.
func loadOptions(env, kafkaVersion string, cfg *config.Config, engine *policies.Engine) loader.Options {
	opts := loader.Options{Environment: env, KafkaVersion: kafkaVersion, DefaultKeys: engine.DefaultKeys()}
	if cfg.Path != "" || len(cfg.Exclude) > 0 {
		// The configuration file itself is never a Kafka configuration.
		opts.Exclude = func(abs string) bool { return abs == cfg.Path || cfg.Excluded(abs) }
	}
	if len(cfg.Environments) > 0 {
		opts.EnvironmentOf = cfg.EnvironmentOf
	}
	return opts
}

// ruleInfos describes every rule for the formats that list rules (SARIF),
// with the severity configuration gives it.
func ruleInfos(engine *policies.Engine, cfg *config.Config) []report.Rule {
	var out []report.Rule
	for _, r := range engine.Rules() {
		help := ruleHelp(r)
		info := report.Rule{
			ID: r.ID, Slug: r.Slug, Category: r.Category, Title: r.Title, Description: r.Description,
			Severity: r.Severity, Scope: r.Scope, DocsURL: r.DocsURL, Help: help,
		}
		switch sev := cfg.Rules[r.ID]; sev {
		case "":
		case config.Off:
			info.Disabled = true
		default:
			info.Severity = sev
		}
		out = append(out, info)
	}
	return out
}

// lintedFiles lists the files that hold Kafka configuration, limited to
// those the report filters keep.
func lintedFiles(res *loader.Result, filters ...pathFilter) []string {
	var out []string
	for _, c := range res.Clusters {
		for _, f := range c.Files {
			keep := true
			for _, p := range filters {
				if p != nil && !p.match(f.Path) {
					keep = false
				}
			}
			if keep {
				out = append(out, f.Path)
			}
		}
	}
	return out
}

// beforeEvaluate, when set (by tests), runs as a cluster's evaluation
// starts.
var beforeEvaluate func(c *loader.Cluster)

// evaluate runs the engine on every cluster in parallel and builds the
// report (not yet finished: suppressions and filters come next). It leaves
// each cluster of res with only its name and files.
//
// Nothing that goes wrong on one cluster hides the others: a custom policy
// over --policy-timeout or failing, a panic, an interruption each become an
// errors entry saying what was not evaluated (so the run exits 2), and
// every finding that was computed is reported.
func evaluate(ctx context.Context, engine *policies.Engine, res *loader.Result) *report.Report {
	rep := &report.Report{Summary: report.Summary{Files: res.Files, Skipped: res.Skipped}}
	for _, l := range res.SkippedLinks {
		rep.Summary.SkippedLinks = append(rep.Summary.SkippedLinks, report.SkippedLink(l))
	}
	for _, e := range res.Errors {
		rep.Errors = append(rep.Errors, *e)
	}
	for _, c := range res.Clusters {
		if len(c.Nodes) > 0 {
			rep.Summary.Clusters++
		}
	}
	results := make([][]report.Finding, len(res.Clusters))
	errs := make([]error, len(res.Clusters))
	// A custom policy that runs out of time on one cluster usually does on
	// all: after the first timeout the others run the built-in rules only,
	// so that a runaway policy costs one budget, not one per cluster.
	var timedOut atomic.Pointer[policies.CustomError]
	skipped := make([]bool, len(res.Clusters))
	errTexts := make([]string, len(res.Clusters))
	builtinOnly := engine.BuiltinOnly()
	work := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), max(len(res.Clusters), 1)) {
		wg.Go(func() {
			for i := range work {
				c := res.Clusters[i]
				e := engine
				if timedOut.Load() != nil && engine.HasCustom() {
					e, skipped[i] = builtinOnly, true
				}
				if errs[i] = ctx.Err(); errs[i] == nil { // interrupted: skip the rest
					results[i], errs[i] = evaluateCluster(ctx, e, c)
				}
				if ce, ok := errors.AsType[*policies.CustomError](errs[i]); ok && ce.TimedOut {
					timedOut.CompareAndSwap(nil, ce)
				}
				if errs[i] != nil { // it becomes an errors[] entry: no secret of the cluster may show in it
					errTexts[i] = policies.RedactText(c, clusterErrorText(ctx, engine, c, errs[i]))
				}
				// What comes after evaluation needs only each cluster's
				// name and files; dropping the rest lets the garbage
				// collector free every model as soon as it is evaluated
				// (a 10,000-file tree holds about 100 MB of model).
				res.Clusters[i] = &loader.Cluster{Name: c.Name, Files: c.Files}
			}
		})
	}
	for i := range res.Clusters {
		work <- i
	}
	close(work)
	wg.Wait()
	nSkipped := 0
	for i, fs := range results {
		// A custom policy's failure keeps the cluster's built-in findings.
		rep.Findings = append(rep.Findings, fs...)
		if skipped[i] && errs[i] == nil {
			nSkipped++
		}
		if errs[i] != nil {
			rep.Errors = append(rep.Errors, report.LoadError{File: clusterFile(res.Clusters[i]), Message: errTexts[i]})
		}
	}
	if ce := timedOut.Load(); ce != nil && nSkipped > 0 {
		rep.Errors = append(rep.Errors, report.LoadError{File: ".", Message: fmt.Sprintf(
			"the custom policies were not run on %d more %s, after they exceeded --policy-timeout on cluster %s; the built-in rules were",
			nSkipped, plural(nSkipped, "cluster"), ce.Cluster)})
	}
	return rep
}

// evaluateCluster evaluates one cluster; a panic (a bug, in kafkalint or
// OPA) becomes that cluster's error.
func evaluateCluster(ctx context.Context, engine *policies.Engine, c *loader.Cluster) (fs []report.Finding, err error) {
	defer func() {
		if r := recover(); r != nil {
			fs, err = nil, fmt.Errorf("internal error (please report it): %v", r)
		}
	}()
	if beforeEvaluate != nil {
		beforeEvaluate(c)
	}
	return engine.Evaluate(ctx, c)
}

// clusterErrorText says what was not evaluated on a cluster, and why.
func clusterErrorText(ctx context.Context, engine *policies.Engine, c *loader.Cluster, err error) string {
	if ce, ok := errors.AsType[*policies.CustomError](err); ok {
		if ce.TimedOut {
			return fmt.Sprintf("cluster %s: the custom policies did not finish within --policy-timeout %s of CPU time (a policy that iterates over every combination of a large input?); their findings on this cluster are missing, the built-in rules' are reported; fix the policy, or raise --policy-timeout",
				c.Name, engine.Timeout())
		}
		return fmt.Sprintf("cluster %s: the custom policies failed, their findings on this cluster are missing (the built-in rules' are reported): %v", c.Name, ce.Err)
	}
	if ctx.Err() != nil {
		return fmt.Sprintf("cluster %s was not evaluated: %v", c.Name, context.Cause(ctx))
	}
	return fmt.Sprintf("cluster %s was not evaluated: %v", c.Name, err)
}

// clusterFile is the first file of a cluster, where an evaluation error is
// reported.
func clusterFile(c *loader.Cluster) string {
	if len(c.Files) > 0 {
		return c.Files[0].Path
	}
	return c.Name
}
