package cli

import (
	"cmp"
	"encoding/json"

	"github.com/spf13/cobra"

	"github.com/kafkalint/kafkalint/loader"
)

func newInspect(s Streams) *cobra.Command {
	var env, kafkaVersion, configFile string
	var p policyFlags
	cmd := &cobra.Command{
		Use:   "inspect [flags] PATH...",
		Short: "Print the normalized cluster model as JSON (the exact input the policies see)",
		Args:  cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			// Custom rules' custom.keys add Kafka defaults to the model.
			engine, err := policyEngine(cmd.Context(), configFile, p)
			if err != nil {
				return err
			}
			cfg, err := loadConfig(configFile, engine)
			if err != nil {
				return err
			}
			res, err := loader.Load(args, loadOptions(env, cmp.Or(kafkaVersion, cfg.KafkaVersion), cfg, engine))
			if err != nil {
				return usageError("%v", err)
			}
			out := struct {
				Version  int               `json:"version"`
				Clusters []*loader.Cluster `json:"clusters"`
				Errors   []*loader.Error   `json:"errors"`
				Files    int               `json:"files"`
				Skipped  int               `json:"skipped"`
			}{1, res.Clusters, res.Errors, res.Files, res.Skipped}
			if out.Clusters == nil {
				out.Clusters = []*loader.Cluster{}
			}
			if out.Errors == nil {
				out.Errors = []*loader.Error{}
			}
			enc := json.NewEncoder(s.Out)
			enc.SetIndent("", "  ")
			enc.SetEscapeHTML(false)
			if err := enc.Encode(out); err != nil {
				return &exitError{code: ExitError, err: err}
			}
			if len(res.Errors) > 0 {
				return &exitError{code: ExitError}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&env, "env", "", "environment of every file: production, staging or development")
	cmd.Flags().StringVar(&kafkaVersion, "kafka-version", "", "target Kafka version X.Y")
	cmd.Flags().StringVar(&configFile, "config", "", "configuration `FILE` (default: .kafkalint.yaml in the working directory or its parents)")
	addPolicyFlags(cmd.Flags(), &p, false)
	return cmd
}
