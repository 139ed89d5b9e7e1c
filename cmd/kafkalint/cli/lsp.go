package cli

import (
	"context"
	"os"
	"sync"

	"github.com/spf13/cobra"

	"github.com/kafkalint/kafkalint/cmd/kafkalint/config"
	"github.com/kafkalint/kafkalint/lint"
	"github.com/kafkalint/kafkalint/lsp"
	"github.com/kafkalint/kafkalint/policies"
)

func newLSP(_ Streams) *cobra.Command {
	var p policyFlags
	cmd := &cobra.Command{
		Use:   "lsp",
		Short: "Run the language server on stdin/stdout (docs/editors.md)",
		Long: "Run kafkalint's language server (LSP over stdin/stdout) for an editor: diagnostics as you type,\n" +
			"Kafka key documentation on hover, completion and quick fixes. The workspace's .kafkalint.yaml is\n" +
			"read before every lint; its custom policies are compiled once, at the first lint.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			err := lsp.Serve(cmd.Context(), stdio{}, lsp.Options{Configure: lspConfigure(p)})
			if err != nil {
				// LSP: exit without shutdown ends the server with code 1.
				return &exitError{code: 1, err: err}
			}
			return nil
		},
	}
	addPolicyFlags(cmd.Flags(), &p, true)
	return cmd
}

// lspConfigure turns the workspace's .kafkalint.yaml into the options of
// each lint, as `kafkalint lint` run in the workspace folder would.
func lspConfigure(p policyFlags) func(ctx context.Context, root string) (lint.Options, error) {
	var mu sync.Mutex
	var engine *policies.Engine
	return func(ctx context.Context, root string) (lint.Options, error) {
		file, err := config.Find(root)
		if err != nil {
			return lint.Options{}, err
		}
		mu.Lock()
		defer mu.Unlock()
		if engine == nil {
			if engine, err = policyEngine(ctx, file, p); err != nil {
				return lint.Options{}, err
			}
		}
		cfg := &config.Config{Rules: map[string]string{}}
		if file != "" {
			if cfg, err = loadConfig(file, engine); err != nil {
				return lint.Options{}, err
			}
		}
		return lint.Options{Engine: engine, Load: loadOptions("", cfg.KafkaVersion, cfg, engine), Severity: cfg.Rules}, nil
	}
}

// stdio is the editor's connection: stdin and stdout.
type stdio struct{}

func (stdio) Read(b []byte) (int, error)  { return os.Stdin.Read(b) }
func (stdio) Write(b []byte) (int, error) { return os.Stdout.Write(b) }
func (stdio) Close() error                { return os.Stdin.Close() }
