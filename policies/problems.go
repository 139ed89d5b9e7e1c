package policies

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"
)

// Problem is one mistake in a custom policy or data file, at file:line:col.
type Problem struct {
	File   string
	Line   int
	Column int
	Msg    string
}

func (p *Problem) Error() string {
	switch {
	case p.Line > 0 && p.Column > 0:
		return fmt.Sprintf("%s:%d:%d: %s", p.File, p.Line, p.Column, p.Msg)
	case p.Line > 0:
		return fmt.Sprintf("%s:%d: %s", p.File, p.Line, p.Msg)
	}
	return fmt.Sprintf("%s: %s", p.File, p.Msg)
}

// Problems are every mistake found, one per line, sorted by position.
type Problems []*Problem

func (ps Problems) Error() string {
	lines := make([]string, len(ps))
	for i, p := range ps {
		lines[i] = p.Error()
	}
	return strings.Join(lines, "\n")
}

// err returns ps sorted, or nil when there is none.
func (ps Problems) err() error {
	if len(ps) == 0 {
		return nil
	}
	slices.SortStableFunc(ps, func(a, b *Problem) int {
		return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line), cmp.Compare(a.Column, b.Column))
	})
	return ps
}

// problemAt is a problem at an OPA location (nil: the file only).
func problemAt(loc *ast.Location, file, format string, args ...any) *Problem {
	p := &Problem{File: file, Msg: fmt.Sprintf(format, args...)}
	if loc != nil {
		p.File = cmp.Or(loc.File, file)
		p.Line, p.Column = loc.Row, loc.Col
	}
	return p
}

// opaProblems turns OPA parse or compile errors into problems, explaining
// the ones kafkalint causes on purpose (a builtin it does not allow).
func opaProblems(errs ast.Errors) Problems {
	var out Problems
	for _, e := range errs {
		msg := e.Message
		if name, ok := strings.CutPrefix(msg, "undefined function "); ok {
			if why, denied := deniedBuiltin(name); denied {
				msg = fmt.Sprintf("%s is not allowed in kafkalint policies (%s): a policy may depend only on the configuration it checks", name, why)
			}
		}
		p := &Problem{Msg: msg + " (" + e.Code + ")"}
		if e.Location != nil {
			p.File, p.Line, p.Column = e.Location.File, e.Location.Row, e.Location.Col
		}
		out = append(out, p)
	}
	return out
}
