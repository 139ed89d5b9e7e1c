// Package cli implements the kafkalint commands. Writers are injected so
// tests run the CLI in-process; only main calls os.Exit.
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/kafkalint/kafkalint/report"
)

// Exit codes (docs/cli.md).
const (
	ExitOK       = 0 // nothing at or above the fail level
	ExitFindings = 1 // findings at or above the fail level
	ExitError    = 2 // usage, configuration or load errors
)

// Streams are the command's output writers.
type Streams struct {
	Out io.Writer
	Err io.Writer
}

// exitError carries an exit code out of a command.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit %d", e.code)
	}
	return e.err.Error()
}

func usageError(format string, args ...any) error {
	return &exitError{code: ExitError, err: fmt.Errorf(format, args...)}
}

// Run executes the command line and returns the exit code.
func Run(ctx context.Context, args []string, s Streams) int {
	root := newRoot(s)
	root.SetArgs(args)
	err := root.ExecuteContext(ctx)
	if err == nil {
		return ExitOK
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.err != nil {
			// One line per problem (a configuration file can have several);
			// input text in a message is escaped (report.OneLine).
			for line := range strings.SplitSeq(ee.err.Error(), "\n") {
				fmt.Fprintf(s.Err, "kafkalint: %s\n", report.OneLine(line))
			}
		}
		return ee.code
	}
	// Anything cobra itself rejects (unknown flag or command) is a usage error.
	fmt.Fprintf(s.Err, "kafkalint: %s\n", report.OneLine(err.Error()))
	return ExitError
}

func newRoot(s Streams) *cobra.Command {
	root := &cobra.Command{
		Use:           "kafkalint",
		Short:         "Lint Apache Kafka cluster configuration before it is deployed",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetOut(s.Out)
	root.SetErr(s.Err)
	root.AddCommand(newLint(s), newAudit(s), newInspect(s), newRules(s), newExplain(s), newTest(s), newNewRule(s), newConfigCmd(s), newVersion(s), newLSP(s))
	versionFlag(root)
	root.InitDefaultHelpCmd()
	root.InitDefaultCompletionCmd()
	plainBoolFlags(root)
	return root
}

// plainBoolFlags makes help show a boolean flag as `--no-color`, not
// `--no-color[=true|false]`: pflag 1.1 adds that to every flag whose value
// has IsBoolFlag, which plainBool hides. Parsing is unchanged (pflag reads
// the flag's NoOptDefVal, "true", when no value is given, and
// --no-color=false still works). Cobra adds its help and version flags
// only when a command runs, so they are added here first.
func plainBoolFlags(cmd *cobra.Command) {
	cmd.InitDefaultHelpFlag()
	cmd.InitDefaultVersionFlag()
	for _, fs := range []*pflag.FlagSet{cmd.Flags(), cmd.PersistentFlags()} {
		fs.VisitAll(func(f *pflag.Flag) {
			if f.Value.Type() == "bool" {
				f.Value = plainBool{f.Value}
			}
		})
	}
	for _, c := range cmd.Commands() {
		plainBoolFlags(c)
	}
}

// plainBool is a flag value without IsBoolFlag (the embedded interface
// promotes only Value's methods).
type plainBool struct{ pflag.Value }

// colorWanted reports whether text output should be colored: not when
// asked not to, not with NO_COLOR set, and only on a terminal.
func colorWanted(w io.Writer, noColor bool) bool {
	if noColor || os.Getenv("NO_COLOR") != "" {
		return false
	}
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}
