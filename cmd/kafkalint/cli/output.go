package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/kafkalint/kafkalint/report"
)

// output is one --format: a format written to a file, or to stdout when
// path is "".
type output struct {
	format string
	path   string
}

// parseOutputs reads the --format values, FORMAT or FORMAT=PATH (PATH "-"
// is stdout). At most one output may go to stdout.
func parseOutputs(specs []string) ([]output, error) {
	return parseOutputsOf(specs, report.Formats())
}

// parseOutputsOf is parseOutputs for a command with the given formats.
func parseOutputsOf(specs, formats []string) ([]output, error) {
	var outs []output
	stdout := ""
	seen := map[string]bool{}
	for _, spec := range specs {
		format, path, _ := strings.Cut(spec, "=")
		format = strings.TrimSpace(format)
		if !slices.Contains(formats, format) {
			return nil, usageError("unknown --format %q (want %s, optionally =PATH)", format, strings.Join(formats, ", "))
		}
		if path == "-" {
			path = ""
		}
		if path == "" {
			if stdout != "" {
				return nil, usageError("--format %s and --format %s both write to stdout; give one of them a file: --format %s=PATH", stdout, format, format)
			}
			stdout = format
		} else {
			clean := filepath.Clean(path)
			if seen[clean] {
				return nil, usageError("two --format outputs write to %s", path)
			}
			seen[clean] = true
		}
		outs = append(outs, output{format: format, path: path})
	}
	return outs, nil
}

// writeOutputs renders the report in every requested format. The text
// format is colored only on a terminal stdout and wrapped to its width
// (else to COLUMNS or 80; outputWidth), with each finding's why and fix
// when verbose and its fix on a wide terminal; github also writes the job
// summary to $GITHUB_STEP_SUMMARY when that is set; SARIF keeps at most
// maxResults results (0: all); JUnit fails only findings at failLevel or above.
func writeOutputs(s Streams, outs []output, rep *report.Report, noColor, verbose bool, maxResults int, failLevel string) error {
	var errs []error
	var summary io.Writer
	if p := os.Getenv("GITHUB_STEP_SUMMARY"); p != "" && slices.ContainsFunc(outs, func(o output) bool { return o.format == report.FormatGitHub }) {
		f, err := os.OpenFile(p, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644) //nolint:gosec // the CI runner names this file
		if err != nil {
			errs = append(errs, fmt.Errorf("GITHUB_STEP_SUMMARY: %w", err))
		} else {
			defer f.Close()
			summary = f
		}
	}
	for _, o := range outs {
		opts := report.Options{ToolVersion: version(), MaxResults: maxResults, FailLevel: failLevel, Verbose: verbose}
		if o.format == report.FormatGitHub {
			opts.StepSummary = summary
		}
		// A file is no terminal: COLUMNS or 80.
		opts.Width, _ = outputWidth(nil)
		if o.path == "" {
			opts.Width, opts.Terminal = outputWidth(s.Out)
			opts.Color = o.format == report.FormatText && colorWanted(s.Out, noColor)
			if err := report.Write(s.Out, o.format, rep, opts); err != nil {
				errs = append(errs, fmt.Errorf("write %s output: %w", o.format, err))
			}
			continue
		}
		if err := writeFileOutput(o, rep, opts); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

func writeFileOutput(o output, rep *report.Report, opts report.Options) error {
	return writeToFile(o, func(w io.Writer) error { return report.Write(w, o.format, rep, opts) })
}

// writeToFile creates o.path (and its directory) and writes one output
// into it, reporting the format and path of any failure.
func writeToFile(o output, write func(io.Writer) error) (err error) {
	if dir := filepath.Dir(o.path); dir != "." {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return fmt.Errorf("write %s output: %w", o.format, err)
		}
	}
	f, err := os.Create(o.path)
	if err != nil {
		return fmt.Errorf("write %s output: %w", o.format, err)
	}
	defer func() {
		if cerr := f.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("write %s output: %w", o.format, cerr)
		}
	}()
	if err := write(f); err != nil {
		return fmt.Errorf("write %s output %s: %w", o.format, o.path, err)
	}
	return nil
}
