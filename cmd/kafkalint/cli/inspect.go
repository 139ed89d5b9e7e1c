package cli

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/kafkalint/kafkalint/loader"
	"github.com/kafkalint/kafkalint/report"
)

func newInspect(s Streams) *cobra.Command {
	var env, kafkaVersion, configFile string
	var showSecrets bool
	var maxFileSize int64
	var p policyFlags
	cmd := &cobra.Command{
		Use:   "inspect [flags] PATH...",
		Short: "Print the normalized cluster model as JSON (the exact input the policies see, secrets redacted)",
		Long: "Print the normalized cluster model as JSON: the exact input the policies see, except that the value of every\n" +
			"sensitive setting (a password-type or secret key, a Terraform variable declared sensitive) is shown as\n" +
			"\"(sensitive)\" unless --show-secrets is given.",
		Args: cobra.MinimumNArgs(1),
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
			opts := loadOptions(env, cmp.Or(kafkaVersion, cfg.KafkaVersion), cfg, engine)
			opts.MaxFileSize = maxFileSize
			res, err := loader.LoadContext(cmd.Context(), args, opts)
			if err != nil {
				return usageError("%v", err)
			}
			if !showSecrets {
				for _, c := range res.Clusters {
					loader.RedactSecrets(c)
				}
			}
			if err := writeModel(s.Out, res); err != nil {
				return &exitError{code: ExitError, err: err}
			}
			if len(res.Errors) > 0 {
				// Also on stderr: a user piping the model into jq would
				// otherwise see only exit 2.
				for _, e := range res.Errors {
					fmt.Fprintf(s.Err, "kafkalint: %s\n", report.OneLine(e.Error()))
				}
				return &exitError{code: ExitError}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&env, "env", "", "environment of every file: production, staging or development")
	cmd.Flags().StringVar(&kafkaVersion, "kafka-version", "", "target Kafka version X.Y")
	cmd.Flags().StringVar(&configFile, "config", "", "configuration `FILE` (default: .kafkalint.yaml in the working directory or its parents)")
	cmd.Flags().BoolVar(&showSecrets, "show-secrets", false, "print the values of sensitive settings (passwords, secrets, Terraform sensitive variables) instead of (sensitive)")
	addMaxFileSize(cmd.Flags(), &maxFileSize)
	addPolicyFlags(cmd.Flags(), &p, false)
	return cmd
}

// writeModel prints {"version", "clusters", "errors", "files", "skipped"}
// (and "skipped_links" when the walk did not follow a symlink)
// one cluster at a time, so the JSON of a large tree is never held in
// memory as a whole (the output equals encoding the whole value at once).
func writeModel(w io.Writer, res *loader.Result) error {
	encode := func(v any, prefix string) ([]byte, error) {
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetIndent(prefix, "  ")
		enc.SetEscapeHTML(false)
		if err := enc.Encode(v); err != nil {
			return nil, err
		}
		return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
	}
	if _, err := io.WriteString(w, "{\n  \"version\": 1,\n  \"clusters\": ["); err != nil {
		return err
	}
	for i, c := range res.Clusters {
		b, err := encode(c, "    ")
		if err != nil {
			return err
		}
		sep := ",\n    "
		if i == 0 {
			sep = "\n    "
		}
		if _, err := fmt.Fprintf(w, "%s%s", sep, b); err != nil {
			return err
		}
	}
	if len(res.Clusters) > 0 {
		if _, err := io.WriteString(w, "\n  "); err != nil {
			return err
		}
	}
	errs := res.Errors
	if errs == nil {
		errs = []*loader.Error{}
	}
	b, err := encode(errs, "  ")
	if err != nil {
		return err
	}
	if _, err := fmt.Fprintf(w, "],\n  \"errors\": %s,\n  \"files\": %d,\n  \"skipped\": %d", b, res.Files, res.Skipped); err != nil {
		return err
	}
	if len(res.SkippedLinks) > 0 {
		b, err := encode(res.SkippedLinks, "  ")
		if err != nil {
			return err
		}
		if _, err := fmt.Fprintf(w, ",\n  \"skipped_links\": %s", b); err != nil {
			return err
		}
	}
	_, err = io.WriteString(w, "\n}\n")
	return err
}
