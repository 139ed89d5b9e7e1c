package cli

import (
	"bufio"
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"iter"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"github.com/kafkalint/kafkalint/cmd/kafkalint/config"
	"github.com/kafkalint/kafkalint/lint"
	"github.com/kafkalint/kafkalint/loader"
	"github.com/kafkalint/kafkalint/loader/catalog"
	"github.com/kafkalint/kafkalint/policies"
	"github.com/kafkalint/kafkalint/report"
)

type auditFlags struct {
	formats         []string
	reposFile       string
	shard           string
	repoTimeout     time.Duration
	policyTimeout   time.Duration
	jobs            int
	quiet           bool
	list            bool
	env             string
	kafkaVersion    string
	failLevel       string
	configFile      string
	noInlineIgnores bool
	maxFileSize     int64
	// allowRepoPolicies runs the custom policies a repository's own
	// configuration names (code from the repository under audit).
	allowRepoPolicies bool
	engine            string // --engine
}

func newAudit(s Streams) *cobra.Command {
	var f auditFlags
	cmd := &cobra.Command{
		Use:   "audit [flags] ROOT...",
		Short: "Lint many repositories at once: every directory directly under a ROOT is one repository",
		Long: "Lint many repositories at once (docs/audit.md). Every directory directly under a ROOT (a git work tree or a plain folder;\n" +
			"names starting with . are skipped) is one repository, or --repos FILE lists them. Each is linted on its own, as\n" +
			"`kafkalint lint` run in its root would, with its own .kafkalint.yaml when it has one (else --config), in parallel.\n\n" +
			"A repository that cannot be analyzed (unreadable, invalid .kafkalint.yaml, a file that does not load, --repo-timeout)\n" +
			"is recorded as an error in the report and the audit goes on.\n\n" +
			"Exit codes: 0 nothing at or above --fail-level, 1 findings at or above it, 2 usage errors or any repository with an error.",
		RunE: func(cmd *cobra.Command, args []string) error {
			return runAudit(cmd.Context(), s, f, args)
		},
	}
	fl := cmd.Flags()
	fl.StringArrayVar(&f.formats, "format", []string{report.FormatText},
		"output `FORMAT[=PATH]`, repeatable: "+strings.Join(report.AuditFormats(), ", ")+"; PATH - or none is stdout")
	fl.StringVar(&f.reposFile, "repos", "", "read the repositories from `FILE`, one path per line (# comments), instead of or besides ROOTs")
	fl.StringVar(&f.shard, "shard", "", "audit only shard `I/N` (0 <= I < N) of the repositories, chosen by a hash of each path relative to its ROOT")
	fl.DurationVar(&f.repoTimeout, "repo-timeout", 0, "record a repository that takes longer than `DURATION` (e.g. 2m) as an error and go on (default: no limit)")
	fl.StringVar(&f.engine, "engine", string(policies.EngineCompiled), engineUsage)
	fl.DurationVar(&f.policyTimeout, "policy-timeout", DefaultPolicyTimeout, "CPU time the custom policies of a repository may spend on one cluster (0: no limit; the built-in rules are never timed out)")
	fl.IntVar(&f.jobs, "jobs", runtime.GOMAXPROCS(0), "repositories linted at the same time")
	fl.BoolVarP(&f.quiet, "quiet", "q", false, "no progress bar and no summary on stderr")
	fl.BoolVar(&f.list, "list", false, "print the repositories this run would audit (after --shard), one per line, and exit: e.g. to clone only a shard's repositories")
	fl.StringVar(&f.env, "env", "", "environment of every file: production, staging or development (default: each repository's .kafkalint.yaml, else from the path)")
	fl.StringVar(&f.kafkaVersion, "kafka-version", "", "target Kafka version X.Y (default: each repository's .kafkalint.yaml, else the newest cataloged 4.x)")
	fl.StringVar(&f.failLevel, "fail-level", "", "lowest severity that makes the exit code 1: error, warning or info (default: --config's fail_level, else error)")
	fl.StringVar(&f.configFile, "config", "", "configuration `FILE` for the repositories without their own .kafkalint.yaml (its globs match paths inside each repository)")
	fl.BoolVar(&f.noInlineIgnores, "no-inline-ignores", false, "ignore every # kafkalint:ignore directive")
	addMaxFileSize(fl, &f.maxFileSize)
	fl.BoolVar(&f.allowRepoPolicies, "allow-repo-policies", false, "run the custom policies a repository's own .kafkalint.yaml names (they are code from that repository; default: not run, recorded as an error of the repository)")
	cmd.AddCommand(newAuditMerge(s))
	return cmd
}

// repoSpec is one repository to audit.
type repoSpec struct {
	path string // as reported: ROOT/child or the --repos line, slash-separated
	abs  string
	key  string // what --shard hashes: the path relative to its ROOT
}

func runAudit(ctx context.Context, s Streams, f auditFlags, roots []string) error {
	if len(roots) == 0 && f.reposFile == "" {
		return usageError("audit needs a ROOT directory or --repos FILE")
	}
	kind, err := policies.ParseEngineKind(f.engine)
	if err != nil {
		return usageError("--%v", err)
	}
	engine, err := policies.Load(ctx, policies.Options{Engine: kind})
	if err != nil {
		return &exitError{code: ExitError, err: err}
	}
	outs, err := parseOutputsOf(f.formats, report.AuditFormats())
	if err != nil {
		return err
	}
	global := &config.Config{Rules: map[string]string{}}
	if f.configFile != "" {
		if global, err = loadConfig(f.configFile, engine); err != nil {
			return err
		}
	}
	f.failLevel = cmp.Or(f.failLevel, global.FailLevel, report.Error)
	switch {
	case !slices.Contains(report.Severities, f.failLevel):
		return usageError("unknown --fail-level %q (want %s)", f.failLevel, strings.Join(report.Severities, ", "))
	case f.env != "" && !slices.Contains(loader.Environments, f.env):
		return usageError("unknown --env %q (want %s)", f.env, strings.Join(loader.Environments, ", "))
	case f.kafkaVersion != "" && !catalog.ValidVersion(f.kafkaVersion):
		return usageError("invalid --kafka-version %q (want X.Y, e.g. 3.9)", f.kafkaVersion)
	case f.jobs < 1:
		return usageError("--jobs must be at least 1")
	case f.repoTimeout < 0:
		return usageError("--repo-timeout must not be negative")
	}
	shard, err := parseShard(f.shard)
	if err != nil {
		return err
	}
	repos, err := findRepos(roots, f.reposFile)
	if err != nil {
		return err
	}
	if shard != nil {
		repos = slices.DeleteFunc(repos, func(r repoSpec) bool { return shardOf(r.key, shard.Count) != shard.Index })
	}
	if f.list {
		for _, r := range repos {
			if _, err := fmt.Fprintln(s.Out, r.path); err != nil {
				return &exitError{code: ExitError, err: err}
			}
		}
		return nil
	}

	store, err := newRepoStore()
	if err != nil {
		return &exitError{code: ExitError, err: err}
	}
	defer store.close()
	bar := newProgress(s.Err, "repositories", len(repos), f.quiet)
	a := auditor{engine: engine.WithTimeout(f.policyTimeout), flags: f, global: global}
	var storeErr error
	for r := range a.run(ctx, repos) {
		if storeErr == nil {
			storeErr = store.add(r, "")
		}
		bar.step()
	}
	bar.finish()
	if ctx.Err() != nil {
		return &exitError{code: ExitError, err: fmt.Errorf("audit interrupted: %w", context.Cause(ctx))}
	}
	if storeErr != nil {
		return &exitError{code: ExitError, err: storeErr}
	}
	audit := store.audit(shard, lint.Rules(engine, nil))
	return finishAudit(s, outs, audit, f.failLevel, f.quiet)
}

// finishAudit writes the outputs and returns the exit code's error: 2 when
// a repository has an error, 1 for findings at or above failLevel. Unless
// quiet, the summary line goes to stderr when stdout does not already end
// with it.
func finishAudit(s Streams, outs []output, a *report.Audit, failLevel string, quiet bool) error {
	if err := writeAuditOutputs(s, outs, a); err != nil {
		return &exitError{code: ExitError, err: err}
	}
	t := a.Totals
	if !quiet && !slices.Contains(outs, output{format: report.FormatText}) {
		fmt.Fprintf(s.Err, "kafkalint: %s\n", report.AuditSummaryLine(t))
	}
	switch {
	case t.WithErrors > 0:
		return &exitError{code: ExitError}
	case t.AtOrAbove(failLevel) > 0:
		return &exitError{code: ExitFindings}
	}
	return nil
}

// auditor lints repositories.
type auditor struct {
	engine *policies.Engine
	flags  auditFlags
	global *config.Config
}

// beforeRepo, when set (by tests), runs as a repository's analysis starts.
var beforeRepo func(ctx context.Context, path string)

// run lints the repositories on flags.jobs workers and yields each result
// as it is done (in no particular order). When ctx ends, no new repository
// starts and the sequence ends once the running ones return.
func (a *auditor) run(ctx context.Context, repos []repoSpec) iter.Seq[*report.AuditRepo] {
	return func(yield func(*report.AuditRepo) bool) {
		work := make(chan repoSpec)
		results := make(chan *report.AuditRepo)
		stop := make(chan struct{})
		var wg sync.WaitGroup
		for range min(a.flags.jobs, max(len(repos), 1)) {
			wg.Go(func() {
				for spec := range work {
					select {
					case results <- a.one(ctx, spec):
					case <-stop:
						return
					}
				}
			})
		}
		go func() {
			defer close(work)
			for _, r := range repos {
				select {
				case work <- r:
				case <-ctx.Done():
					return
				case <-stop:
					return
				}
			}
		}()
		go func() {
			wg.Wait()
			close(results)
		}()
		// A consumer that stops early makes the workers and the feeder
		// return instead of blocking forever.
		defer close(stop)
		for r := range results {
			if !yield(r) {
				return
			}
		}
	}
}

// one lints a repository within --repo-timeout, on the calling goroutine:
// loading stops at the next file, evaluation inside OPA at its next step
// (custom rules' builtins are bounded by the engine's limits), so a
// repository past its deadline stops working instead of going on in the
// background while the audit moves on. Whatever the repository's content
// does, a panic in its load or evaluation becomes its error.
func (a *auditor) one(ctx context.Context, spec repoSpec) *report.AuditRepo {
	if a.flags.repoTimeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, a.flags.repoTimeout)
		defer cancel()
	}
	r := a.recovered(ctx, spec)
	switch {
	case ctx.Err() == nil:
		return r
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		// What was analyzed before the deadline is incomplete: the
		// repository is recorded as not analyzed, as documented.
		return report.FailedRepo(spec.path, fmt.Sprintf("not analyzed: timed out after %s (--repo-timeout)", a.flags.repoTimeout))
	}
	return report.FailedRepo(spec.path, "not analyzed: "+ctx.Err().Error())
}

// recovered is lint with a panic turned into the repository's error.
func (a *auditor) recovered(ctx context.Context, spec repoSpec) (r *report.AuditRepo) {
	defer func() {
		if p := recover(); p != nil {
			r = report.FailedRepo(spec.path, fmt.Sprintf("not analyzed: internal error (please report it): %v", p))
		}
	}()
	return a.lint(ctx, spec)
}

// lint runs the lint pipeline on one repository, as `kafkalint lint .` in
// its root would (paths in the findings are relative to it).
func (a *auditor) lint(ctx context.Context, spec repoSpec) *report.AuditRepo {
	if beforeRepo != nil {
		beforeRepo(ctx, spec.path)
	}
	info, err := os.Stat(spec.abs)
	switch {
	case err != nil:
		return report.FailedRepo(spec.path, "not analyzed: "+readErrorText(err))
	case !info.IsDir():
		return report.FailedRepo(spec.path, "not analyzed: not a directory")
	}
	engine, notRun, err := a.repoEngine(ctx, spec)
	if err != nil {
		return report.FailedRepo(spec.path, "not analyzed: "+strings.ReplaceAll(err.Error(), "\n", "; "))
	}
	cfg, err := a.config(spec, engine, notRun != nil)
	if err != nil {
		return report.FailedRepo(spec.path, "not analyzed: "+strings.ReplaceAll(err.Error(), "\n", "; "))
	}
	opts := loadOptions(a.flags.env, cmp.Or(a.flags.kafkaVersion, cfg.KafkaVersion), cfg, engine)
	opts.Dir = spec.abs // also the linted root: nothing outside the repository is read
	opts.MaxFileSize = a.flags.maxFileSize
	rep, err := lint.Run(ctx, []string{spec.abs}, lint.Options{
		Engine: engine, Load: opts, Severity: cfg.Rules, NoInlineIgnores: a.flags.noInlineIgnores,
	})
	if err != nil {
		return report.FailedRepo(spec.path, "not analyzed: "+err.Error())
	}
	if notRun != nil {
		rep.Errors = append(rep.Errors, *notRun)
		rep.Finish()
	}
	return report.NewAuditRepo(spec.path, rep)
}

// repoEngine is the shared built-in engine, or, for a repository whose own
// .kafkalint.yaml names custom policies or parameters, an engine compiled
// for that repository (once, for all of its clusters). The files it names
// must be inside the repository. Its custom policies are code from the
// repository under audit: without --allow-repo-policies they do not run,
// and notRun is the error entry that says so (its data: still tunes the
// built-in rules).
func (a *auditor) repoEngine(ctx context.Context, spec repoSpec) (engine *policies.Engine, notRun *report.LoadError, err error) {
	path := a.repoConfigPath(spec)
	if path == "" {
		return a.engine, nil, nil
	}
	opts, err := policyOptionsIn(path, spec.abs, policyFlags{engine: a.flags.engine})
	if err != nil {
		return nil, nil, err
	}
	if len(opts.Policies) > 0 && !a.flags.allowRepoPolicies {
		notRun = &report.LoadError{File: filepath.Base(path), Message: fmt.Sprintf(
			"the custom policies this file names (%d %s) were not run: policies from an audited repository run only with --allow-repo-policies",
			len(opts.Policies), plural(len(opts.Policies), "path"))}
		opts.Policies = nil
	}
	if len(opts.Policies) == 0 && len(opts.Data) == 0 {
		return a.engine, notRun, nil
	}
	engine, err = policies.Load(ctx, opts)
	if err != nil {
		return nil, nil, err
	}
	return engine.WithTimeout(a.engine.Timeout()), notRun, nil
}

// repoConfigPath is the repository's own configuration file, or "".
func (a *auditor) repoConfigPath(spec repoSpec) string {
	for _, name := range config.FileNames {
		p := filepath.Join(spec.abs, name)
		if info, err := os.Stat(p); err == nil && !info.IsDir() {
			return p
		}
	}
	return ""
}

// config is the repository's own .kafkalint.yaml (in its root only, read
// inside the repository), else the --config file with its globs made
// relative to the repository. When the repository's custom policies did
// not run (customNotRun), its rules: may name their rules: those names are
// accepted unchecked.
func (a *auditor) config(spec repoSpec, engine *policies.Engine, customNotRun bool) (*config.Config, error) {
	var found []string
	for _, name := range config.FileNames {
		p := filepath.Join(spec.abs, name)
		if info, err := os.Stat(p); err == nil && !info.IsDir() {
			found = append(found, name)
		}
	}
	switch len(found) {
	case 0:
		cfg := *a.global
		cfg.Dir = spec.abs
		return &cfg, nil
	case 1:
		lookup := ruleLookup(engine)
		if customNotRun {
			known := lookup
			lookup = func(s string) (string, bool) {
				if id, ok := known(s); ok {
					return id, true
				}
				return s, true
			}
		}
		return config.LoadIn(filepath.Join(spec.abs, found[0]), spec.path+"/"+found[0], spec.abs, lookup)
	}
	return nil, fmt.Errorf("both %s and %s exist; keep one", found[0], found[1])
}

func readErrorText(err error) string {
	var pe *os.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return "cannot read: " + err.Error()
}

// findRepos lists the repositories: the directories directly under each
// root (not those whose name starts with a dot), then the --repos lines.
// A path named twice is audited once.
func findRepos(roots []string, reposFile string) ([]repoSpec, error) {
	var out []repoSpec
	seen := map[string]bool{}
	add := func(path, key string) {
		abs, err := filepath.Abs(path)
		if err != nil || seen[abs] {
			return
		}
		seen[abs] = true
		out = append(out, repoSpec{path: filepath.ToSlash(path), abs: abs, key: key})
	}
	for _, root := range roots {
		entries, err := os.ReadDir(root)
		if err != nil {
			var pe *os.PathError
			if errors.As(err, &pe) {
				err = pe.Err
			}
			return nil, usageError("ROOT %s: %v (a ROOT is a directory of repositories)", root, err)
		}
		for _, e := range entries {
			if strings.HasPrefix(e.Name(), ".") {
				continue
			}
			p := filepath.Join(root, e.Name())
			isDir := e.IsDir()
			if e.Type()&os.ModeSymlink != 0 {
				info, err := os.Stat(p)
				isDir = err == nil && info.IsDir()
			}
			if isDir {
				add(p, e.Name())
			}
		}
	}
	if reposFile != "" {
		lines, err := readRepoList(reposFile)
		if err != nil {
			return nil, err
		}
		for _, l := range lines {
			add(filepath.Clean(filepath.FromSlash(l)), filepath.ToSlash(filepath.Clean(l)))
		}
	}
	slices.SortFunc(out, func(a, b repoSpec) int { return cmp.Compare(a.path, b.path) })
	return out, nil
}

// readRepoList reads --repos FILE: one path per line; blank lines and
// lines starting with # are ignored.
func readRepoList(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, usageError("--repos %s: %s", path, strings.TrimPrefix(readErrorText(err), "cannot read: "))
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line != "" && !strings.HasPrefix(line, "#") {
			out = append(out, line)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, usageError("--repos %s: %v", path, err)
	}
	return out, nil
}

// parseShard reads --shard I/N ("" = no sharding).
func parseShard(s string) (*report.Shard, error) {
	if s == "" {
		return nil, nil
	}
	i, n, ok := strings.Cut(s, "/")
	index, err1 := strconv.Atoi(strings.TrimSpace(i))
	count, err2 := strconv.Atoi(strings.TrimSpace(n))
	if !ok || err1 != nil || err2 != nil || count < 1 || index < 0 || index >= count {
		return nil, usageError("invalid --shard %q: want I/N with 0 <= I < N, e.g. 0/4 (a Kubernetes indexed Job's JOB_COMPLETION_INDEX)", s)
	}
	return &report.Shard{Index: index, Count: count}, nil
}

// shardOf is the shard of a repository: the first 8 bytes of the SHA-256
// of its key, big-endian, modulo count. Only the key decides, so every
// machine splits the same repositories the same way.
func shardOf(key string, count int) int {
	sum := sha256.Sum256([]byte(key))
	return int(binary.BigEndian.Uint64(sum[:8]) % uint64(count)) //nolint:gosec // count >= 1 and the result < count fits an int
}

// writeAuditOutputs renders the audit in every requested format.
func writeAuditOutputs(s Streams, outs []output, a *report.Audit) error {
	var errs []error
	opts := report.AuditOptions{ToolVersion: version(), Generated: reportTime()}
	for _, o := range outs {
		// The text table fits the terminal, else COLUMNS or 80.
		opts.Width, _ = outputWidth(nil)
		if o.path == "" {
			opts.Width, _ = outputWidth(s.Out)
			if err := report.WriteAudit(s.Out, o.format, a, opts); err != nil {
				errs = append(errs, fmt.Errorf("write %s output: %w", o.format, err))
			}
			continue
		}
		if err := writeAuditFile(o, a, opts); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// reportTime is the HTML report's date: SOURCE_DATE_EPOCH (Unix seconds)
// when set, for reproducible reports, else now.
func reportTime() time.Time {
	if sec, err := strconv.ParseInt(os.Getenv("SOURCE_DATE_EPOCH"), 10, 64); err == nil {
		return time.Unix(sec, 0).UTC()
	}
	return time.Now().UTC()
}

func writeAuditFile(o output, a *report.Audit, opts report.AuditOptions) error {
	return writeToFile(o, func(w io.Writer) error { return report.WriteAudit(w, o.format, a, opts) })
}
