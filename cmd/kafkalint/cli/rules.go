package cli

import (
	"cmp"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/kafkalint/kafkalint/docs"
	"github.com/kafkalint/kafkalint/report"
)

// rulesColumns are the columns of `kafkalint rules`: id, severity and
// scope whole; on a narrow terminal the slug is cut (the id names the rule
// as well) and the title wraps.
var rulesColumns = []report.Column{
	{Header: "ID", Fit: report.Keep}, {Header: "SLUG", Fit: report.Cut}, {Header: "SEVERITY", Fit: report.Keep},
	{Header: "SCOPE", Fit: report.Keep}, {Header: "TITLE", Fit: report.Wrap},
}

func newRules(s Streams) *cobra.Command {
	var p policyFlags
	var configFile string
	cmd := &cobra.Command{
		Use:   "rules",
		Short: "List the rules, built-in and custom: id, slug, default severity, scope and title",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			engine, err := policyEngine(cmd.Context(), configFile, p)
			if err != nil {
				return err
			}
			var rows [][]string
			for _, r := range engine.Rules() {
				// A custom rule's METADATA is input: escaped.
				rows = append(rows, []string{report.OneLine(r.ID), report.OneLine(r.Slug), r.Severity, r.Scope, report.OneLine(r.Title)})
			}
			width, _ := outputWidth(s.Out)
			return report.WriteTable(s.Out, width, rulesColumns, rows)
		},
	}
	addPolicyFlags(cmd.Flags(), &p, false)
	cmd.Flags().StringVar(&configFile, "config", "", "configuration `FILE` naming custom policies (default: .kafkalint.yaml in the working directory or its parents)")
	return cmd
}

func newExplain(s Streams) *cobra.Command {
	var p policyFlags
	var configFile string
	cmd := &cobra.Command{
		Use:   "explain KFKxxxx|SLUG",
		Short: "Print a rule's documentation",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			engine, err := policyEngine(cmd.Context(), configFile, p)
			if err != nil {
				return err
			}
			r := engine.Rule(args[0])
			if r == nil {
				return usageError("unknown rule %q (see `kafkalint rules`)", args[0])
			}
			if r.Source != "" {
				page := cmp.Or(r.Help, customRulePage(r))
				if r.DocsURL != "" {
					page = strings.TrimRight(page, "\n") + "\nDocs: " + r.DocsURL
				}
				_, err = fmt.Fprintf(s.Out, "%s\n", strings.TrimRight(page, "\n"))
				return err
			}
			page, err := docs.Rule(r.ID)
			if err != nil {
				return &exitError{code: ExitError, err: err}
			}
			_, err = fmt.Fprintf(s.Out, "%s\nDocs: %s\n", strings.TrimRight(page, "\n"), r.DocsURL)
			return err
		},
	}
	addPolicyFlags(cmd.Flags(), &p, false)
	cmd.Flags().StringVar(&configFile, "config", "", "configuration `FILE` naming custom policies (default: .kafkalint.yaml in the working directory or its parents)")
	return cmd
}
