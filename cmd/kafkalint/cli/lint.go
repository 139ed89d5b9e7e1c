package cli

import (
	"cmp"
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/kafkalint/kafkalint/baseline"
	"github.com/kafkalint/kafkalint/cmd/kafkalint/config"
	"github.com/kafkalint/kafkalint/lint"
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
	verbose         bool
	maxResults      int
	configFile      string
	noInlineIgnores bool
	baseline        string
	writeBaseline   string
	baselinePrune   bool
	newFromRev      string
	contexts        []string
	maxFileSize     int64
	strictPaths     bool
	policy          policyFlags
}

func newLint(s Streams) *cobra.Command {
	var f lintFlags
	cmd := &cobra.Command{
		Use:   "lint [flags] [PATH...]",
		Short: "Lint Kafka configuration files and directories",
		Long: "Lint Kafka configuration files and directories (walked recursively; .git, node_modules and vendor are skipped).\n\n" +
			"With no PATH, the working directory is linted. A PATH holding no Kafka configuration is reported on stderr (exit 2 with --strict-paths).\n\n" +
			"Settings come from .kafkalint.yaml in the working directory or its parents (or --config); flags win over it.\n\n" +
			"Exit codes: 0 nothing at or above --fail-level, 1 findings at or above it, 2 usage, configuration or load errors.",
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				args = []string{"."}
			}
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
	fl.BoolVarP(&f.verbose, "verbose", "v", false, "text output: print each finding's why and fix below it (without it, a terminal at least 100 columns wide shows the fix)")
	fl.IntVar(&f.maxResults, "max-results", report.GitHubMaxResults, "most results `N` in the SARIF output, the most severe kept (GitHub code scanning rejects more than 25000 per run); 0: no limit")
	fl.StringVar(&f.configFile, "config", "", "configuration `FILE` (default: .kafkalint.yaml in the working directory or its parents)")
	fl.BoolVar(&f.noInlineIgnores, "no-inline-ignores", false, "ignore every # kafkalint:ignore directive (audits)")
	fl.StringVar(&f.baseline, "baseline", "", "hide the findings recorded in baseline `FILE`")
	fl.StringVar(&f.writeBaseline, "write-baseline", "", "record the current findings in baseline `FILE` (and hide them from this run's report)")
	fl.BoolVar(&f.baselinePrune, "baseline-prune", false, "with --baseline: list and remove the entries that no longer match a finding")
	fl.StringVar(&f.newFromRev, "new-from-rev", "", "report only findings in or related to files changed since git `REV` (everything is still analyzed)")
	fl.StringArrayVar(&f.contexts, "context", nil, "analyze `DIR` (repeatable) and report only findings in or related to the PATH arguments (pre-commit: --context . FILE...)")
	fl.BoolVar(&f.strictPaths, "strict-paths", false, "exit 2 when a PATH holds no Kafka configuration (a typo in a CI path otherwise passes)")
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
	resolved := realPaths{}
	loadPaths, only := args, (*pathFilter)(nil)
	if len(st.contexts) > 0 {
		loadPaths = st.contexts
		if only, err = existingPaths(args, resolved); err != nil {
			return err
		}
	}
	var changed *pathFilter
	if st.newFromRev != "" {
		if changed, err = gitChanged(ctx, st.newFromRev, resolved); err != nil {
			return usageError("--new-from-rev %s: %v", st.newFromRev, err)
		}
	}
	opts := lint.Options{
		Engine: engine, Load: loadOptions(st.env, st.kafkaVersion, st.cfg, engine),
		Severity: st.cfg.Rules, NoInlineIgnores: st.noInlineIgnores,
	}
	opts.Load.MaxFileSize = st.maxFileSize
	switch {
	case st.writeBaseline != "":
		opts.Baseline = &lint.Baseline{
			Dir: baseline.RealPath(filepath.Dir(st.writeBaseline)), Why: "recorded in baseline " + st.writeBaseline, Record: true,
		}
	case st.baseline != "":
		b, err := readBaseline(st.baseline)
		if err != nil {
			return &exitError{code: ExitError, err: err}
		}
		opts.Baseline = &lint.Baseline{
			Dir: baseline.RealPath(filepath.Dir(st.baseline)), Why: "recorded in baseline " + filepath.ToSlash(st.baseline), File: b,
		}
	}
	rep, err := lint.Run(ctx, loadPaths, opts)
	if err != nil { // invalid options: nothing was attempted
		return &exitError{code: ExitError, err: err}
	}
	switch {
	case st.writeBaseline != "":
		n := len(opts.Baseline.File.Findings)
		if err := saveBaseline(st.writeBaseline, opts.Baseline.File); err != nil {
			return &exitError{code: ExitError, err: err}
		}
		fmt.Fprintf(s.Err, "kafkalint: recorded %d %s in %s\n", n, plural(n, "finding"), st.writeBaseline)
	case st.baseline != "":
		if err := reportBaseline(s, st.baseline, opts.Baseline.Outcome, st.baselinePrune); err != nil {
			return &exitError{code: ExitError, err: err}
		}
	}
	empty := emptyPaths(loadPaths, rep, resolved)
	for _, p := range empty {
		fmt.Fprintf(s.Err, "kafkalint: no Kafka configuration found in %s\n", report.OneLine(p))
	}
	filtered := false
	for _, keep := range []*pathFilter{only, changed} {
		if keep != nil {
			keep.apply(rep)
			rep.Linted = slices.DeleteFunc(rep.Linted, func(f string) bool { return !keep.match(f) })
			filtered = true
		}
	}
	if filtered {
		// lint.Run finished the report (sorted, fingerprinted, counted);
		// again for what the filters left: a fingerprint numbers the
		// findings of one rule, file and key.
		rep.Finish()
	}
	if err := writeOutputs(s, st.outputs, rep, st.noColor, st.verbose, st.maxResults, st.failLevel); err != nil {
		return &exitError{code: ExitError, err: err}
	}
	switch {
	case len(rep.Errors) > 0, st.strictPaths && len(empty) > 0:
		return &exitError{code: ExitError}
	case rep.AtOrAbove(st.failLevel) > 0:
		return &exitError{code: ExitFindings}
	}
	return nil
}

// emptyPaths are the paths under which no file was linted or failed to
// load: they hold no Kafka configuration, which a clean summary alone
// would not reveal (a mistyped directory in CI lints nothing and passes).
func emptyPaths(paths []string, rep *report.Report, resolved realPaths) []string {
	// Every directory holding a linted file or a load error, each marked
	// once: a lookup per PATH argument (pre-commit passes thousands).
	covered := map[string]bool{}
	mark := func(display string) {
		ancestors(resolved.of(display), func(q string) bool {
			seen := covered[q]
			covered[q] = true
			return !seen // its parents are marked already
		})
	}
	for _, f := range rep.Linted {
		mark(f)
	}
	for _, e := range rep.Errors {
		mark(e.File)
	}
	var out []string
	for _, p := range paths {
		if !covered[resolved.of(p)] {
			out = append(out, p)
		}
	}
	return out
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
