package terraform

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/zclconf/go-cty/cty"

	"github.com/kafkalint/kafkalint/loader/doc"
)

// maxModuleDepth bounds the nesting of local module calls. Cycles are
// caught by path; a directory symlinked into itself makes every path new,
// so the depth is bounded too (real modules nest a few levels).
const maxModuleDepth = 16

// metaArguments of a module block are Terraform's, not the module's inputs.
var metaArguments = map[string]bool{
	"source": true, "version": true, "count": true, "for_each": true, "providers": true, "depends_on": true,
}

// isLocalSource reports a module source that is a local path: Terraform
// takes only sources starting with ./ or ../ as one (anything else is a
// registry, Git or archive address).
func isLocalSource(source string) bool {
	return strings.HasPrefix(source, "./") || strings.HasPrefix(source, "../")
}

// run reads the module: its own Kafka resources and module calls, then the
// modules it calls by local path.
func (m *module) run(res *Result) {
	m.setup()
	m.extract(res)
	if m.opts.Module == nil {
		return
	}
	if m.followed == nil { // the root module
		m.followed, m.rel, m.stack = new(int), ".", []string{m.dir()}
	}
	for _, c := range m.calls {
		if isLocalSource(c.source) {
			m.follow(c, res)
		}
	}
}

// scopeDir is the root module's directory: a called module's clusters are
// its caller's, one per call, so their groups are named from the root.
func (m *module) scopeDir() string {
	if m.scope != "" {
		return m.scope
	}
	return m.dir()
}

// groupOf names the cluster group of a unit id.
func (m *module) groupOf(id string) string { return "terraform " + m.scopeDir() + " " + id }

// follow loads the module a call names by a local path once per instance
// of the call, with the call's arguments as its variables, as Terraform
// does. The called module's clusters and topics are the caller's: they are
// located at the module block (where the values that differ are passed,
// and the file whose path says which environment it is), their addresses
// start with the call's (module.msk.aws_msk_cluster.this) and their values
// keep where they are written, in either module. Evaluation shares the
// root module's budget (Limits). A module that cannot be read, a cycle or
// nesting past maxModuleDepth is an error at the call; the caller's other
// resources are still read.
func (m *module) follow(c *moduleCall, res *Result) {
	rel := path.Clean(path.Join(m.rel, c.source))
	shown := path.Join(m.stack[0], rel) // the directory as positions show it
	fail := func(msg string) {
		p := m.pos(c.block.DefRange)
		e := &doc.Error{File: c.src.name, Line: p.Line, Column: p.Column,
			Message: fmt.Sprintf("module %q (source %q): %s; its resources are not read", c.name, c.source, msg)}
		e.EndLine, e.EndColumn = endOf(c.block.DefRange)
		res.Errors = append(res.Errors, e)
	}
	if i := slices.Index(m.stack, shown); i >= 0 {
		fail("the module calls itself (" + strings.Join(append(slices.Clone(m.stack[i:]), shown), " → ") + ")")
		return
	}
	if len(m.stack) > maxModuleDepth {
		fail(fmt.Sprintf("local modules nest deeper than %d levels", maxModuleDepth))
		return
	}
	files, read, err := m.opts.Module(rel)
	if err != nil {
		fail(err.Error())
		return
	}
	ctx := m.ctx(c.src)
	seen := map[doc.Error]bool{}
	for _, e := range res.Errors {
		seen[*e] = true
	}
	for _, in := range m.expand("module."+c.name, c.attrs, ctx) {
		if *m.followed >= maxInstances {
			if *m.followed == maxInstances { // reported once, where it was hit
				*m.followed++
				fail(fmt.Sprintf("more than %d local module instances under one root module", maxInstances))
			}
			return
		}
		*m.followed++
		ictx := instanceCtx(ctx, in)
		inputs := map[string]cty.Value{}
		for name, a := range c.attrs {
			if !metaArguments[name] {
				inputs[name] = m.evalDefinition(a.Expr, ictx, true)
			}
		}
		opts := m.opts
		opts.ReadFile = read
		child := parse(files, opts)
		child.assigned, child.vars = map[string]*assignment{}, nil
		child.prefix, child.scope, child.rel, child.inputs = in.addr+".", m.scopeDir(), rel, inputs
		child.stack, child.followed = append(slices.Clone(m.stack), shown), m.followed
		child.budget = m.budget
		sub := &Result{Brokers: []*Brokers{}, Topics: []*Topic{}, Errors: child.errors, Comments: child.comments}
		child.run(sub)
		m.budget = child.budget
		at := m.pos(c.block.DefRange)
		for _, b := range sub.Brokers {
			b.Sources = append(b.Sources, b.File) // where the called module declares it
			slices.Sort(b.Sources)
			b.Sources = slices.DeleteFunc(slices.Compact(b.Sources), func(f string) bool { return f == c.src.name })
			b.File, b.Loc = c.src.name, at
			b.UnknownMultiplicity = b.UnknownMultiplicity || in.unknown
		}
		for _, t := range sub.Topics {
			if t.File != c.src.name && !slices.Contains(t.Sources, t.File) {
				t.Sources = append(t.Sources, t.File)
			}
			t.File, t.Loc = c.src.name, at
			t.UnknownMultiplicity = t.UnknownMultiplicity || in.unknown
		}
		res.Brokers = append(res.Brokers, sub.Brokers...)
		res.Topics = append(res.Topics, sub.Topics...)
		for _, e := range sub.Errors {
			if !seen[*e] { // a called module's syntax errors, once
				seen[*e] = true
				res.Errors = append(res.Errors, e)
			}
		}
		for file, cs := range sub.Comments {
			res.Comments[file] = append(res.Comments[file], cs...)
		}
	}
}
