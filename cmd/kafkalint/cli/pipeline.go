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
//
// Only loading can fail as a whole (invalid options, or ctx ended while
// loading); whatever goes wrong in evaluation is an errors entry of the
// report (see evaluate).
//
// Evaluation releases each cluster's model (res keeps only its name and
// files), so the values of the settings written in the files, which
// baselines hash, are taken before it when withValues is set.
func analyze(ctx context.Context, engine *policies.Engine, paths []string, opts loader.Options, cfg *config.Config, inlineIgnores, withValues bool) (*loader.Result, settingValueMap, *report.Report, error) {
	res, err := loader.LoadContext(ctx, paths, opts)
	if err != nil {
		return nil, nil, nil, err
	}
	var values settingValueMap
	if withValues {
		values = settingValues(res)
	}
	rep := evaluate(ctx, engine, res)
	rep.Findings = slices.DeleteFunc(rep.Findings, func(f report.Finding) bool { return cfg.Rules[f.ID] == config.Off })
	if inlineIgnores {
		applyDirectives(rep, res, engine, cfg)
	}
	for i := range rep.Findings {
		if sev := cfg.Rules[rep.Findings[i].ID]; sev != "" {
			rep.Findings[i].Severity = sev
		}
	}
	return res, values, rep, nil
}
