package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/kafkalint/kafkalint/cmd/kafkalint/config"
	"github.com/kafkalint/kafkalint/lint"
	"github.com/kafkalint/kafkalint/loader/catalog"
	"github.com/kafkalint/kafkalint/policies"
)

// loadConfig reads --config FILE, else the .kafkalint.yaml found in the
// working directory or its parents; no file is an empty configuration.
// Any problem is a usage error (exit 2) naming file:line:column.
func loadConfig(path string, engine *policies.Engine) (*config.Config, error) {
	if path == "" {
		found, err := config.Find(".")
		if err != nil {
			return nil, usageError("%v", err)
		}
		if found == "" {
			return &config.Config{Rules: map[string]string{}}, nil
		}
		path = found
	}
	cfg, err := config.Load(path, displayName(path), ruleLookup(engine))
	if err != nil {
		return nil, &exitError{code: ExitError, err: err}
	}
	return cfg, nil
}

// ruleLookup resolves rule names with the engine's rules, and suggests the
// nearest id or slug for a name it does not know.
func ruleLookup(engine *policies.Engine) config.RuleLookup {
	return func(s string) (string, bool) {
		if r := engine.Rule(s); r != nil {
			return r.ID, true
		}
		var names []string
		for _, r := range engine.Rules() {
			names = append(names, r.ID, r.Slug)
		}
		return catalog.Closest(s, names), false
	}
}

// displayName shows a path relative to the working directory when it is
// under it.
func displayName(path string) string {
	wd, err1 := os.Getwd()
	abs, err2 := filepath.Abs(path)
	if err1 == nil && err2 == nil {
		if rel, err := filepath.Rel(wd, abs); err == nil && !strings.HasPrefix(rel, "..") {
			return filepath.ToSlash(rel)
		}
	}
	return filepath.ToSlash(path)
}

// verifyRules is the rule lookup config verify checks a file's rule names
// with: the built-in rules and the custom policies the file names, compiled
// with its data. When those do not compile (the error is returned), only
// the built-in names can be checked: a name near a built-in one is
// reported with the suggestion, others are accepted (they may be custom).
func verifyRules(ctx context.Context, cfg *config.Config) (config.RuleLookup, error) {
	opts := policies.Options{Policies: cfg.Policies, PoliciesRoot: cfg.Repo, Data: cfg.Data, DataRoot: cfg.Repo}
	engine, err := lint.Compile(ctx, opts)
	if err == nil {
		return ruleLookup(engine), nil
	}
	builtin, berr := policies.Builtin()
	if berr != nil {
		return nil, errors.Join(err, berr)
	}
	lookup := ruleLookup(builtin)
	return func(s string) (string, bool) {
		id, ok := lookup(s)
		return id, ok || (id == "" && len(cfg.Policies) > 0)
	}, err
}

func newConfigCmd(s Streams) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "config",
		Short: "Check or describe the configuration file (.kafkalint.yaml)",
		Args:  cobra.NoArgs,
	}
	cmd.AddCommand(&cobra.Command{
		Use:   "verify [FILE]",
		Short: "Check a configuration file (default: the one lint would use); exit 2 on any problem",
		Args:  cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			path, err := "", error(nil)
			if len(args) == 1 {
				path = args[0]
			} else if path, err = config.Find("."); err != nil {
				return usageError("%v", err)
			} else if path == "" {
				_, err := fmt.Fprintf(s.Out, "no %s in the working directory or its parents: lint uses the defaults (docs/configuration.md)\n",
					strings.Join(config.FileNames, " or "))
				return err
			}
			cfg, err := config.Verify(path, displayName(path), func(cfg *config.Config) (config.RuleLookup, error) {
				return verifyRules(cmd.Context(), cfg)
			})
			if err != nil {
				return &exitError{code: ExitError, err: err}
			}
			_, err = fmt.Fprintf(s.Out, "%s: ok (%d %s configured, %d exclude %s, %d environment %s)\n", displayName(cfg.Path),
				len(cfg.Rules), plural(len(cfg.Rules), "rule"), len(cfg.Exclude), plural(len(cfg.Exclude), "glob"),
				len(cfg.Environments), plural(len(cfg.Environments), "mapping"))
			return err
		},
	}, &cobra.Command{
		Use:   "schema",
		Short: "Print the JSON Schema of .kafkalint.yaml",
		Args:  cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			_, err := s.Out.Write(config.Schema())
			return err
		},
	})
	return cmd
}
