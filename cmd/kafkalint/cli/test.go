package cli

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/open-policy-agent/opa/v1/cover"
	"github.com/open-policy-agent/opa/v1/tester"

	"github.com/kafkalint/kafkalint/policies"
)

type testFlags struct {
	data       []string
	configFile string
	run        string
	coverage   bool
	verbose    bool
	timeout    time.Duration
}

func newTest(s Streams) *cobra.Command {
	var f testFlags
	cmd := &cobra.Command{
		Use:   "test [flags] [PATH...]",
		Short: "Run the tests (_test.rego) of custom policies",
		Long: "Run the tests of custom policies with OPA's test runner, compiled as `kafkalint lint` compiles them: with the built-in\n" +
			"rules and libraries (data.kafkalint.lib.result, data.kafkalint.lib.testing), the parameters at data.kafkalint.params,\n" +
			"and kafkalint.parse(format, name, text) / kafkalint.parse_files({name: text}), which build the cluster model from\n" +
			"configuration text with kafkalint's own loader (docs/custom-policies.md).\n\n" +
			"PATH: directories (walked recursively) and .rego files; default: .kafkalint.yaml policies, else the working directory.\n\n" +
			"Exit codes: 0 every test passed, 1 a test failed or could not be evaluated, 2 usage errors, policies that do not\n" +
			"compile or no test at all.",
		RunE: func(cmd *cobra.Command, args []string) error {
			paths := args
			var pathsRoot, dataRoot string // paths from .kafkalint.yaml are read inside its repository
			if len(paths) == 0 {
				opts, err := policyOptions(f.configFile, policyFlags{data: f.data})
				if err != nil {
					return err
				}
				if len(opts.Policies) > 0 {
					paths, pathsRoot = opts.Policies, opts.PoliciesRoot
				}
				if len(f.data) == 0 {
					f.data, dataRoot = opts.Data, opts.DataRoot
				}
			}
			if len(paths) == 0 {
				paths = []string{"."}
			}
			run, err := policies.RunTests(cmd.Context(), policies.TestOptions{
				Paths: paths, Data: f.data, PathsRoot: pathsRoot, DataRoot: dataRoot, Run: f.run, Coverage: f.coverage, Timeout: f.timeout,
			})
			if err != nil {
				return &exitError{code: ExitError, err: err}
			}
			if len(run.Results) == 0 {
				return usageError("no test in %s: tests are rules named test_... in _test.rego files", strings.Join(paths, ", "))
			}
			if err := reportTests(s.Out, run, f.verbose); err != nil {
				return &exitError{code: ExitError, err: err}
			}
			if run.Failed() > 0 {
				return &exitError{code: ExitFindings}
			}
			return nil
		},
	}
	fl := cmd.Flags()
	fl.StringArrayVar(&f.data, "data", nil, "parameters at data.kafkalint.params: a YAML or JSON `FILE`, repeatable (default: .kafkalint.yaml data when no PATH is given)")
	fl.StringVar(&f.configFile, "config", "", "configuration `FILE` whose policies and data are tested when no PATH is given")
	fl.StringVar(&f.run, "run", "", "run only the tests whose package-qualified name matches `REGEX`")
	fl.BoolVar(&f.coverage, "coverage", false, "report which lines of the policies (not the tests) the tests evaluate")
	fl.BoolVarP(&f.verbose, "verbose", "v", false, "list every test, with its print() output")
	fl.DurationVar(&f.timeout, "timeout", 5*time.Second, "fail a test that runs longer than `DURATION`")
	return cmd
}

// reportTests prints the results as `opa test` does, then the coverage.
func reportTests(w io.Writer, run *policies.TestRun, verbose bool) error {
	ch := make(chan *tester.Result, len(run.Results))
	for _, r := range run.Results {
		ch <- r
	}
	close(ch)
	if err := (tester.PrettyReporter{Output: w, Verbose: verbose, FailureLine: true}).Report(ch); err != nil {
		return err
	}
	if run.Coverage == nil {
		return nil
	}
	fmt.Fprintln(w, "coverage (lines of the policies the tests evaluate):")
	covered, total := 0, 0
	for _, file := range slices.Sorted(maps.Keys(run.Coverage)) {
		fr := run.Coverage[file]
		covered += fr.CoveredLines
		total += fr.CoveredLines + fr.NotCoveredLines
		line := fmt.Sprintf("  %s: %s", file, percent(fr.CoveredLines, fr.CoveredLines+fr.NotCoveredLines))
		if len(fr.NotCovered) > 0 {
			line += " (not covered: " + ranges(fr.NotCovered) + ")"
		}
		fmt.Fprintln(w, line)
	}
	_, err := fmt.Fprintf(w, "  total: %s\n", percent(covered, total))
	return err
}

func percent(n, total int) string {
	if total == 0 {
		return "no evaluated lines"
	}
	return fmt.Sprintf("%.1f%% of %d lines", 100*float64(n)/float64(total), total)
}

// ranges renders line ranges as "3, 7-9".
func ranges(rs []cover.Range) string {
	parts := make([]string, len(rs))
	for i, r := range rs {
		parts[i] = strconv.Itoa(r.Start.Row)
		if r.End.Row != r.Start.Row {
			parts[i] += fmt.Sprintf("-%d", r.End.Row)
		}
	}
	return strings.Join(parts, ", ")
}
