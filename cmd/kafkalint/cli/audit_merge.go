package cli

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/kafkalint/kafkalint/lint"
	"github.com/kafkalint/kafkalint/policies"
	"github.com/kafkalint/kafkalint/report"
)

func newAuditMerge(s Streams) *cobra.Command {
	var formats []string
	var failLevel string
	var quiet bool
	cmd := &cobra.Command{
		Use:   "merge [flags] FILE.json...",
		Short: "Combine the JSON reports of audit shards (--shard I/N) into one report",
		Long: "Combine `kafkalint audit --format json` reports, typically one per --shard, into one report in any audit format.\n\n" +
			"Reports of another version, a repository in two reports, or the same shard twice are errors (exit 2, nothing written).\n" +
			"A missing shard (e.g. 0/4, 1/4 and 3/4 merged) is reported on stderr after the merged report is written, with exit 2.\n\n" +
			"Exit codes: as for audit, computed from the merged report.",
		Args: cobra.MinimumNArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			return runAuditMerge(s, formats, failLevel, quiet, args)
		},
	}
	fl := cmd.Flags()
	fl.StringArrayVar(&formats, "format", []string{report.FormatText},
		"output `FORMAT[=PATH]`, repeatable: "+strings.Join(report.AuditFormats(), ", ")+"; PATH - or none is stdout")
	fl.StringVar(&failLevel, "fail-level", report.Error, "lowest severity that makes the exit code 1: error, warning or info")
	fl.BoolVarP(&quiet, "quiet", "q", false, "no summary on stderr")
	return cmd
}

func runAuditMerge(s Streams, formats []string, failLevel string, quiet bool, files []string) error {
	outs, err := parseOutputsOf(formats, report.AuditFormats())
	if err != nil {
		return err
	}
	if !slices.Contains(report.Severities, failLevel) {
		return usageError("unknown --fail-level %q (want %s)", failLevel, strings.Join(report.Severities, ", "))
	}
	engine, err := policies.Builtin()
	if err != nil {
		return &exitError{code: ExitError, err: err}
	}
	store, err := newRepoStore()
	if err != nil {
		return &exitError{code: ExitError, err: err}
	}
	defer store.close()
	shards := shardSet{}
	for _, file := range files {
		if err := mergeFile(store, &shards, file); err != nil {
			return err
		}
	}
	err = finishAudit(s, outs, store.audit(nil, lint.Rules(engine, nil)), failLevel, quiet)
	if missing := shards.missing(); len(missing) > 0 {
		fmt.Fprintf(s.Err, "kafkalint: the merged report is incomplete: no report of shard %s was given\n", strings.Join(missing, ", "))
		var ee *exitError
		if err == nil || (errors.As(err, &ee) && ee.code != ExitError) {
			err = &exitError{code: ExitError}
		}
	}
	return err
}

// mergeFile adds one report's repositories to the store, after checking
// its shard against the others'.
func mergeFile(store *repoStore, shards *shardSet, file string) error {
	f, err := os.Open(file)
	if err != nil {
		return usageError("%s: %s", file, strings.TrimPrefix(readErrorText(err), "cannot read: "))
	}
	defer f.Close()
	var shardErr error
	checked := false
	check := func(h report.AuditHeader) error {
		checked = true
		shardErr = shards.add(h.Shard, file)
		return shardErr
	}
	h, err := report.ReadAuditJSON(f, check, func(r *report.AuditRepo) error { return store.add(r, file) })
	if err == nil && !checked {
		err = check(h)
	}
	var dup *errDuplicateRepo
	switch {
	case err == nil:
		return nil
	case shardErr != nil:
		return usageError("%v", shardErr)
	case errors.As(err, &dup):
		return usageError("%v: each repository must be in one report only (the same shard merged twice, or overlapping audits?)", err)
	}
	return usageError("%s: %v", file, err)
}

// shardSet checks the shards of the merged reports: one count, each
// index once.
type shardSet struct {
	count int
	from  map[int]string // index → file
}

func (s *shardSet) add(sh *report.Shard, file string) error {
	if sh == nil {
		return nil
	}
	if s.from == nil {
		s.count, s.from = sh.Count, map[int]string{}
	}
	if sh.Count != s.count {
		return fmt.Errorf("%s is shard %s but another report is of %d shards: merge the reports of one split", file, sh, s.count)
	}
	if first, ok := s.from[sh.Index]; ok {
		return fmt.Errorf("%s and %s are both shard %s", first, file, sh)
	}
	s.from[sh.Index] = file
	return nil
}

// missing lists the shards no report covered, as I/N.
func (s *shardSet) missing() []string {
	var out []string
	for i := range s.count {
		if _, ok := s.from[i]; !ok {
			out = append(out, report.Shard{Index: i, Count: s.count}.String())
		}
	}
	return out
}
