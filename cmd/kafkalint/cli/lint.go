package cli

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/spf13/cobra"

	"github.com/kafkalint/kafkalint/loader"
	"github.com/kafkalint/kafkalint/policies"
	"github.com/kafkalint/kafkalint/report"
)

type lintFlags struct {
	format       string
	env          string
	kafkaVersion string
	failLevel    string
	noColor      bool
}

func newLint(s Streams) *cobra.Command {
	var f lintFlags
	cmd := &cobra.Command{
		Use:   "lint [flags] PATH...",
		Short: "Lint Kafka configuration files and directories",
		Long: "Lint Kafka configuration files and directories (walked recursively; .git, node_modules and vendor are skipped).\n\n" +
			"Exit codes: 0 nothing at or above --fail-level, 1 findings at or above it, 2 usage or load errors.",
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runLint(cmd.Context(), s, f, args)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.format, "format", "text", "output format: text or json")
	fl.StringVar(&f.env, "env", "", "environment of every file: production, staging or development (default: from the path)")
	fl.StringVar(&f.kafkaVersion, "kafka-version", "", "target Kafka version X.Y (default: the newest catalogued 4.x)")
	fl.StringVar(&f.failLevel, "fail-level", report.Error, "lowest severity that makes the exit code 1: error, warning or info")
	fl.BoolVar(&f.noColor, "no-color", false, "disable colour in text output (NO_COLOR is honoured too)")
	return cmd
}

func (f lintFlags) validate() error {
	if f.format != "text" && f.format != "json" {
		return usageError("unknown --format %q (want text or json)", f.format)
	}
	if !slices.Contains(report.Severities, f.failLevel) {
		return usageError("unknown --fail-level %q (want %s)", f.failLevel, strings.Join(report.Severities, ", "))
	}
	return nil
}

func runLint(ctx context.Context, s Streams, f lintFlags, paths []string) error {
	if err := f.validate(); err != nil {
		return err
	}
	engine, err := policies.Builtin()
	if err != nil {
		return &exitError{code: ExitError, err: err}
	}
	res, err := loader.Load(paths, loader.Options{Environment: f.env, KafkaVersion: f.kafkaVersion, DefaultKeys: engine.DefaultKeys()})
	if err != nil {
		return usageError("%v", err)
	}
	rep, err := evaluate(ctx, engine, res)
	if err != nil {
		return &exitError{code: ExitError, err: err}
	}
	switch f.format {
	case "json":
		err = report.WriteJSON(s.Out, rep)
	default:
		err = report.WriteText(s.Out, rep, report.TextOptions{Color: colorWanted(s.Out, f.noColor)})
	}
	if err != nil {
		return &exitError{code: ExitError, err: err}
	}
	switch {
	case len(rep.Errors) > 0:
		return &exitError{code: ExitError}
	case rep.AtOrAbove(f.failLevel) > 0:
		return &exitError{code: ExitFindings}
	}
	return nil
}

// evaluate runs the engine on every cluster in parallel and builds the report.
func evaluate(ctx context.Context, engine *policies.Engine, res *loader.Result) (*report.Report, error) {
	rep := &report.Report{Summary: report.Summary{Files: res.Files, Skipped: res.Skipped}}
	for _, e := range res.Errors {
		rep.Errors = append(rep.Errors, report.LoadError{File: e.File, Line: e.Line, Message: e.Message})
	}
	for _, c := range res.Clusters {
		if len(c.Nodes) > 0 {
			rep.Summary.Clusters++
		}
	}
	results := make([][]report.Finding, len(res.Clusters))
	errs := make([]error, len(res.Clusters))
	work := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), max(len(res.Clusters), 1)) {
		wg.Go(func() {
			for i := range work {
				results[i], errs[i] = engine.Evaluate(ctx, res.Clusters[i])
			}
		})
	}
	for i := range res.Clusters {
		work <- i
	}
	close(work)
	wg.Wait()
	for i, fs := range results {
		if errs[i] != nil {
			return nil, fmt.Errorf("policy evaluation failed: %w", errs[i])
		}
		rep.Findings = append(rep.Findings, fs...)
	}
	rep.Finish()
	return rep, nil
}
