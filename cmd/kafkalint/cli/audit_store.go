package cli

import (
	"cmp"
	"encoding/json"
	"fmt"
	"os"
	"slices"

	"github.com/kafkalint/kafkalint/report"
)

// repoStore holds an audit's repositories while they arrive, in any
// order: each one's findings and errors go to a temporary file as soon as
// it is done, and memory keeps only its counts. Rendering reads them back
// one at a time in path order, so an audit of thousands of repositories
// needs the memory of its largest one, not of all of them.
type repoStore struct {
	f       *os.File
	size    int64
	entries []storedRepo
	byPath  map[string]string // path → where it came from
	totals  report.AuditTotals
}

type storedRepo struct {
	head report.AuditRepo // without Findings and Errors
	off  int64
	n    int
}

// errDuplicateRepo: two results for one repository path.
type errDuplicateRepo struct{ path, first, second string }

func (e *errDuplicateRepo) Error() string {
	if e.first == e.second {
		return fmt.Sprintf("repository %s appears twice in %s", e.path, e.first)
	}
	return fmt.Sprintf("repository %s is in both %s and %s", e.path, e.first, e.second)
}

func newRepoStore() (*repoStore, error) {
	f, err := os.CreateTemp("", "kafkalint-audit-*.jsonl")
	if err != nil {
		return nil, fmt.Errorf("audit: temporary file: %w", err)
	}
	return &repoStore{f: f, byPath: map[string]string{}, totals: report.NewAuditTotals()}, nil
}

// close removes the temporary file.
func (s *repoStore) close() {
	s.f.Close()
	os.Remove(s.f.Name())
}

// add stores a finished repository; origin names where it came from (a
// merged file) for the error about a repository seen twice.
func (s *repoStore) add(r *report.AuditRepo, origin string) error {
	if first, ok := s.byPath[r.Path]; ok {
		return &errDuplicateRepo{path: r.Path, first: first, second: origin}
	}
	s.byPath[r.Path] = origin
	data, err := json.Marshal(r)
	if err != nil {
		return fmt.Errorf("repository %s: %w", r.Path, err)
	}
	data = append(data, '\n')
	if _, err := s.f.Write(data); err != nil {
		return fmt.Errorf("audit: temporary file: %w", err)
	}
	s.totals.Add(r)
	head := *r
	head.Findings, head.Errors = nil, nil
	s.entries = append(s.entries, storedRepo{head: head, off: s.size, n: len(data)})
	s.size += int64(len(data))
	return nil
}

// audit is the stored audit in path order, for the renderers.
func (s *repoStore) audit(shard *report.Shard, rules []report.Rule) *report.Audit {
	slices.SortFunc(s.entries, func(a, b storedRepo) int { return cmp.Compare(a.head.Path, b.head.Path) })
	a := &report.Audit{Shard: shard, Totals: s.totals, Rules: rules}
	for _, e := range s.entries {
		a.Repos = append(a.Repos, e.head)
	}
	a.Load = func(i int) (*report.AuditRepo, error) {
		e := s.entries[i]
		buf := make([]byte, e.n)
		if _, err := s.f.ReadAt(buf, e.off); err != nil {
			return nil, fmt.Errorf("audit: temporary file: %w", err)
		}
		var r report.AuditRepo
		if err := json.Unmarshal(buf, &r); err != nil {
			return nil, fmt.Errorf("audit: temporary file: %w", err)
		}
		return &r, nil
	}
	return a
}
