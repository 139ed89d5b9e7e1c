package policies

import (
	"cmp"
	"fmt"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/kafkalint/kafkalint/loader"
)

// problem is one mistake in a custom policy or data file, at file:line:col.
type problem = loader.Problem

// problems are every mistake found in the policies or data of a run.
type problems = loader.Problems

// problemAt is a problem at an OPA location (nil: the file only).
func problemAt(loc *ast.Location, file, format string, args ...any) *problem {
	p := &problem{File: file, Message: fmt.Sprintf(format, args...)}
	if loc != nil {
		p.File = cmp.Or(loc.File, file)
		p.Line, p.Column = loc.Row, loc.Col
	}
	return p
}

// opaProblems turns OPA parse or compile errors into problems, explaining
// the ones kafkalint causes on purpose (a builtin it does not allow).
func opaProblems(errs ast.Errors) problems {
	var out problems
	for _, e := range errs {
		msg := e.Message
		if name, ok := strings.CutPrefix(msg, "undefined function "); ok {
			if why, denied := deniedBuiltin(name); denied {
				msg = fmt.Sprintf("%s is not allowed in kafkalint policies (%s): a policy may depend only on the configuration it checks", name, why)
			}
		}
		p := &problem{Message: msg + " (" + e.Code + ")"}
		if e.Location != nil {
			p.File, p.Line, p.Column = e.Location.File, e.Location.Row, e.Location.Col
		}
		out = append(out, p)
	}
	return out
}
