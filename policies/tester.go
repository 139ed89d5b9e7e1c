package policies

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/cover"
	"github.com/open-policy-agent/opa/v1/tester"

	"github.com/kafkalint/kafkalint/loader"
)

// TestOptions select the custom policy tests to run.
type TestOptions struct {
	// Paths are directories (walked recursively) and .rego files: the
	// custom rules and their _test.rego files.
	Paths []string
	// Data are --data files merged over the built-in parameters.
	Data []string
	// PathsRoot and DataRoot confine the reads as Options.PoliciesRoot and
	// Options.DataRoot do ("" = anywhere).
	PathsRoot, DataRoot string
	// Run, when set, runs only the tests whose package-qualified name
	// matches this regular expression.
	Run string
	// Coverage records which lines of the custom policies the tests run.
	Coverage bool
	// Timeout limits each test (0: OPA's default of 5 seconds).
	Timeout time.Duration
}

// TestRun is the outcome of RunTests.
type TestRun struct {
	// Results in file and line order.
	Results []*tester.Result
	// Coverage per custom policy file (tests excluded), when asked for.
	Coverage map[string]*cover.FileReport
}

// Failed counts the tests that failed or could not be evaluated.
func (r *TestRun) Failed() int {
	n := 0
	for _, res := range r.Results {
		if res.Fail || res.Error != nil {
			n++
		}
	}
	return n
}

// RunTests runs the custom policies' tests with OPA's test runner, compiled
// as `kafkalint lint` compiles them (the built-in bundle, the capabilities,
// strict mode, the cluster schema), with the parameters in the store and
// kafkalint.parse / kafkalint.parse_files available. A policy the engine
// would refuse is an error here too.
func RunTests(ctx context.Context, opts TestOptions) (*TestRun, error) {
	params, err := loadParamsIn(opts.Data, opts.DataRoot)
	if err != nil {
		return nil, err
	}
	mods, err := readPoliciesIn(opts.Paths, true, opts.PathsRoot)
	if err != nil {
		return nil, err
	}
	set, err := compileSet(mods)
	if err != nil {
		return nil, err
	}
	rules := &Engine{rules: set.rules}
	p := parser{opts: sync.OnceValue(func() loader.Options { return loader.Options{DefaultKeys: rules.DefaultKeys()} })}

	// The runner compiles the modules itself, with its own test stages.
	parsed, err := ParseModules(append(append(must(bundleModules(false)), testFixtures()), mods...))
	if err != nil {
		return nil, err
	}
	c, err := NewCompiler()
	if err != nil {
		return nil, err
	}
	c.WithEnablePrintStatements(true)
	runner := tester.NewRunner().
		SetCompiler(c).
		SetStore(paramsStore(params)).
		SetModules(parsed).
		AddCustomBuiltins(p.testerBuiltins()).
		CapturePrintOutput(true).
		RaiseBuiltinErrors(true).
		Filter(opts.Run)
	if opts.Timeout > 0 {
		runner.SetTimeout(opts.Timeout)
	}
	var cov *cover.Cover
	if opts.Coverage {
		cov = cover.New()
		runner.SetCoverageQueryTracer(cov)
	}
	ch, err := runner.RunTests(ctx, nil)
	if err != nil {
		var errs ast.Errors
		if errors.As(err, &errs) {
			return nil, opaProblems(errs).Err()
		}
		return nil, err
	}
	run := &TestRun{}
	for r := range ch {
		run.Results = append(run.Results, r)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	slices.SortFunc(run.Results, func(a, b *tester.Result) int {
		return cmp.Or(cmp.Compare(a.Location.File, b.Location.File), cmp.Compare(a.Location.Row, b.Location.Row),
			cmp.Compare(a.Name, b.Name))
	})
	if cov != nil {
		policyFiles := map[string]*ast.Module{}
		for _, m := range mods {
			if !strings.HasSuffix(m.Path, "_test.rego") {
				policyFiles[m.Path] = parsed[m.Path]
			}
		}
		files := cov.Report(policyFiles).Files
		run.Coverage = map[string]*cover.FileReport{}
		for f := range policyFiles {
			run.Coverage[f] = cmp.Or(files[f], &cover.FileReport{})
		}
	}
	return run, nil
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(fmt.Sprintf("embedded bundle: %v", err)) // embedded at build time
	}
	return v
}
