package cli

import (
	"context"
	"slices"

	"github.com/kafkalint/kafkalint/cmd/kafkalint/config"
	"github.com/kafkalint/kafkalint/loader"
	"github.com/kafkalint/kafkalint/policies"
	"github.com/kafkalint/kafkalint/report"
)

// analyze is the lint pipeline shared by lint and audit: load the paths,
// evaluate every cluster, drop the rules the configuration turns off, apply
// inline directives (unless ignored) and the configured severities. The
// report is not finished: baselines and report filters come next.
func analyze(ctx context.Context, engine *policies.Engine, paths []string, opts loader.Options, cfg *config.Config, inlineIgnores bool) (*loader.Result, *report.Report, error) {
	res, err := loader.Load(paths, opts)
	if err != nil {
		return nil, nil, err
	}
	rep, err := evaluate(ctx, engine, res)
	if err != nil {
		return nil, nil, err
	}
	rep.Findings = slices.DeleteFunc(rep.Findings, func(f report.Finding) bool { return cfg.Rules[f.ID] == config.Off })
	if inlineIgnores {
		applyDirectives(rep, res, engine, cfg)
	}
	for i := range rep.Findings {
		if sev := cfg.Rules[rep.Findings[i].ID]; sev != "" {
			rep.Findings[i].Severity = sev
		}
	}
	return res, rep, nil
}
