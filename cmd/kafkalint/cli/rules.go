package cli

import (
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/kafkalint/kafkalint/docs"
	"github.com/kafkalint/kafkalint/policies"
)

func newRules(s Streams) *cobra.Command {
	return &cobra.Command{
		Use:   "rules",
		Short: "List the rules: id, slug, default severity, scope and title",
		Args:  cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			engine, err := policies.Builtin()
			if err != nil {
				return &exitError{code: ExitError, err: err}
			}
			tw := tabwriter.NewWriter(s.Out, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "ID\tSLUG\tSEVERITY\tSCOPE\tTITLE")
			for _, r := range engine.Rules() {
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", r.ID, r.Slug, r.Severity, r.Scope, r.Title)
			}
			return tw.Flush()
		},
	}
}

func newExplain(s Streams) *cobra.Command {
	return &cobra.Command{
		Use:   "explain KFKxxxx|SLUG",
		Short: "Print a rule's documentation",
		Args:  cobra.ExactArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			engine, err := policies.Builtin()
			if err != nil {
				return &exitError{code: ExitError, err: err}
			}
			r := engine.Rule(args[0])
			if r == nil {
				return usageError("unknown rule %q (see `kafkalint rules`)", args[0])
			}
			page, err := docs.Rule(r.ID)
			if err != nil {
				return &exitError{code: ExitError, err: err}
			}
			_, err = fmt.Fprintf(s.Out, "%s\nDocs: %s\n", strings.TrimRight(page, "\n"), r.DocsURL)
			return err
		},
	}
}
