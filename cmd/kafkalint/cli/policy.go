package cli

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/kafkalint/kafkalint/cmd/kafkalint/config"
	"github.com/kafkalint/kafkalint/lint"
	"github.com/kafkalint/kafkalint/policies"
)

// DefaultPolicyTimeout is the CPU time the custom policies may spend on
// one cluster unless --policy-timeout says otherwise: far beyond what a
// sound policy needs on the largest cluster, short enough that a runaway
// one fails CI clearly instead of hanging it. The built-in rules are never
// timed out.
const DefaultPolicyTimeout = 30 * time.Second

// policyFlags select custom policies and parameters (docs/custom-policies.md).
type policyFlags struct {
	paths   []string
	data    []string
	timeout time.Duration
	engine  string // --engine: how the built-in rules are evaluated
}

// engineUsage is the help of --engine.
const engineUsage = "how the built-in rules are evaluated: compiled (their plan, built into kafkalint) or interpreter (OPA's interpreter, the reference; custom policies always run on it)"

// addPolicyFlags declares --policy and --data, and --policy-timeout for
// the commands that evaluate.
func addPolicyFlags(fl *pflag.FlagSet, p *policyFlags, evaluates bool) {
	fl.StringArrayVar(&p.paths, "policy", nil, "custom policies: a `DIR` (walked recursively) or .rego file, repeatable (default: .kafkalint.yaml policies)")
	fl.StringArrayVar(&p.data, "data", nil, "parameters for the policies at data.kafkalint.params: a YAML or JSON `FILE`, repeatable (default: .kafkalint.yaml data)")
	if evaluates {
		fl.StringVar(&p.engine, "engine", string(policies.EngineCompiled), engineUsage)
		fl.DurationVar(&p.timeout, "policy-timeout", DefaultPolicyTimeout, "CPU time the custom policies may spend on one cluster: past it their findings on that cluster are an error entry (exit 2), the built-in rules are never timed out (0: no limit)")
	}
}

// policyEngine returns the engine for a run: the built-in rules plus the
// custom policies and parameters of the flags, else of the configuration
// file (--config, or the .kafkalint.yaml lint would use). Any problem is a
// usage error (exit 2) naming file:line.
func policyEngine(ctx context.Context, configFile string, p policyFlags) (*policies.Engine, error) {
	opts, err := policyOptions(configFile, p)
	if err != nil {
		return nil, err
	}
	engine, err := lint.Compile(ctx, opts)
	if err != nil {
		return nil, &exitError{code: ExitError, err: err}
	}
	return engine.WithTimeout(p.timeout), nil
}

// policyOptions merges the flags with the configuration file: a flag
// replaces the file's list, as every flag wins over the file. Paths from
// the file are read only inside its repository (config.Load checks them,
// policies.Options.*Root confine the reads); the flags may name any path.
func policyOptions(configFile string, p policyFlags) (policies.Options, error) {
	return policyOptionsIn(configFile, "", p)
}

// policyOptionsIn is policyOptions for a configuration file that belongs
// to the repository directory repo (an audited repository); "" = the
// repository config.RepoRoot finds.
func policyOptionsIn(configFile, repo string, p policyFlags) (policies.Options, error) {
	kind, err := policies.ParseEngineKind(p.engine)
	if err != nil {
		return policies.Options{}, usageError("--%v", err)
	}
	opts := policies.Options{Policies: p.paths, Data: p.data, Engine: kind}
	if len(p.paths) > 0 && len(p.data) > 0 {
		return opts, nil
	}
	path := configFile
	if path == "" {
		found, err := config.Find(".")
		if err != nil {
			return opts, usageError("%v", err)
		}
		path = found
	}
	if path == "" {
		return opts, nil
	}
	// The configuration's rules may name custom rules, which exist only
	// once its policies are loaded: read the file for its paths here,
	// accepting any rule name; loadConfig checks it all with the engine.
	anyRule := func(s string) (string, bool) { return s, true }
	var cfg *config.Config
	if repo != "" {
		cfg, err = config.LoadIn(path, displayName(path), repo, anyRule)
	} else {
		cfg, err = config.Load(path, displayName(path), anyRule)
	}
	if err != nil {
		return opts, &exitError{code: ExitError, err: err}
	}
	if len(opts.Policies) == 0 {
		opts.Policies, opts.PoliciesRoot = cfg.Policies, cfg.Repo
	}
	if len(opts.Data) == 0 {
		opts.Data, opts.DataRoot = cfg.Data, cfg.Repo
	}
	return opts, nil
}

// customRulePage describes a custom rule that has no <ID>.md page.
func customRulePage(r *policies.Rule) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s %s\n\n%s\n\n| Severity | Scope | Category | Source |\n|---|---|---|---|\n| %s | %s | %s | %s |\n\n%s\n",
		r.ID, r.Slug, r.Title, r.Severity, r.Scope, r.Category, r.Source, r.Description)
	return b.String()
}
