package loader

import (
	"cmp"
	"slices"
	"strings"

	"github.com/kafkalint/kafkalint/loader/doc"
)

// Problem is a mistake at file:line:col in an input that kafkalint reads
// besides Kafka configuration: its own configuration file, custom policies,
// parameter files. It is the one positioned error (doc.Error); Line and
// Column are 0 when unknown.
type Problem = doc.Error

// Problems are every mistake found, one per line.
type Problems []*Problem

func (ps Problems) Error() string {
	lines := make([]string, len(ps))
	for i, p := range ps {
		lines[i] = p.Error()
	}
	return strings.Join(lines, "\n")
}

// Err returns ps sorted by position, or nil when there is none.
func (ps Problems) Err() error {
	if len(ps) == 0 {
		return nil
	}
	slices.SortStableFunc(ps, func(a, b *Problem) int {
		return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line), cmp.Compare(a.Column, b.Column))
	})
	return ps
}
