package terraform

import (
	"bytes"
	"cmp"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	hcljson "github.com/hashicorp/hcl/v2/json"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/kafkalint/kafkalint/loader/doc"
	"github.com/kafkalint/kafkalint/loader/safefs"
)

// File is one file of a module.
type File struct {
	Name string // display path, used in every position
	Data []byte
}

// Options configure Load.
type Options struct {
	// ReadFile reads a file named relative to the module directory, for
	// templatefile(). Nil: templatefile() results are unknown.
	ReadFile func(name string) ([]byte, error)
	// CommentMarker, when set, lists the HCL comments of only the files
	// whose text contains it (the comments of server_properties text are
	// listed either way): kafkalint reads comments only for its
	// "kafkalint:" directives, and listing a file's HCL comments lexes it a
	// second time (a fifth of the bytes a bulk tree's loading allocated).
	CommentMarker string
	// Limits bound evaluation (zero fields: DefaultLimits).
	Limits Limits
	// Module reads the directory of a module called by a local path
	// (source = "./modules/kafka", "../.."), named relative to the root
	// module's directory, slash-separated: its module files (display
	// names) and the ReadFile of that directory. An error says why the
	// module cannot be read (missing, outside the linted root); it is
	// reported at the call. Nil: local modules are not followed.
	Module func(rel string) ([]File, func(name string) ([]byte, error), error)
}

// DirReader returns an Options.ReadFile that reads files inside dir and
// refuses names that leave it, before and after resolving symlinks, and
// files that are not regular or exceed safefs.DefaultMaxSize (loader/safefs).
func DirReader(dir string) func(string) ([]byte, error) {
	return func(name string) ([]byte, error) {
		clean := path.Clean(filepath.ToSlash(name))
		if path.IsAbs(clean) || clean == ".." || strings.HasPrefix(clean, "../") {
			return nil, os.ErrPermission
		}
		root, err := safefs.OpenRoot(dir, 0)
		if err != nil {
			return nil, err
		}
		defer root.Close()
		return root.ReadFile(filepath.Join(root.Dir(), filepath.FromSlash(clean)))
	}
}

// kinds of files in a module.
const (
	kindConfig   = iota // .tf, .tf.json
	kindAutoVars        // terraform.tfvars(.json), *.auto.tfvars(.json): applied
	kindVars            // other .tfvars: read for syntax and comments, not applied
)

// IsModuleFile reports whether name is read as part of a module.
func IsModuleFile(name string) bool {
	_, ok := fileKind(name)
	return ok
}

func fileKind(name string) (int, bool) {
	base := strings.ToLower(path.Base(filepath.ToSlash(name)))
	switch {
	case strings.HasSuffix(base, ".tf") || strings.HasSuffix(base, ".tf.json"):
		return kindConfig, true
	case base == "terraform.tfvars" || base == "terraform.tfvars.json" ||
		strings.HasSuffix(base, ".auto.tfvars") || strings.HasSuffix(base, ".auto.tfvars.json"):
		return kindAutoVars, true
	case strings.HasSuffix(base, ".tfvars") || strings.HasSuffix(base, ".tfvars.json"):
		return kindVars, true
	}
	return 0, false
}

// source is a parsed file.
type source struct {
	name string
	data []byte
	file *hcl.File
	kind int
	json bool
	// lines are the file's lines, for columns and expression text.
	lines []string
}

// text returns the source text of a range in this file.
func (s *source) text(r hcl.Range) string {
	if r.Start.Byte < 0 || r.End.Byte > len(s.data) || r.Start.Byte > r.End.Byte {
		return ""
	}
	return string(s.data[r.Start.Byte:r.End.Byte])
}

// firstColumn is the column of the first non-blank character of a line.
func (s *source) firstColumn(line int) int {
	if line < 1 || line > len(s.lines) {
		return 1
	}
	l := s.lines[line-1]
	return len(l) - len(strings.TrimLeft(l, " \t")) + 1
}

// module is the parsed content of one directory.
type module struct {
	opts   Options
	limits Limits
	budget budget
	// plain > 0 while evaluating inside an expression that HCL itself
	// would evaluate (for bodies, templates, operands): no position marks
	// are added there, as before this evaluator walked them itself.
	plain int
	// sized is the size of the last value a constructor made.
	sized sized
	// site is the call being evaluated, for a limit a function hits.
	site hcl.Range
	// failed counts the evaluation errors turned into unknown values.
	failed    int
	sources   map[string]*source
	files     []*source // config files, by name
	vars      []*source // tfvars applied, in Terraform's precedence order
	variables map[string][]*variable
	locals    map[string][]*local
	resources []*resource
	calls     []*moduleCall
	providers []*provider
	errors    []*doc.Error
	comments  map[string][]doc.Comment
	// traversals are every variable reference of the config files.
	traversals []hcl.Traversal
	// assigned are the tfvars assignments, last one wins.
	assigned map[string]*assignment

	ctxs map[*source]*hcl.EvalContext
	// addrCount counts the blocks of each address; refAttrs are the
	// attribute names references to each address use (see addresses,
	// linkValue).
	addrCount map[[2]string]int
	refAttrs  map[[2]string][]string
	// read are the files file() and templatefile() read, by name.
	read map[string]readResult
	// readBytes counts what read holds (readOnce).
	readBytes int
	// templates are the files templatefile() parsed, by name.
	templates map[string]template
	// localBase are the contexts locals are evaluated in, by file.
	localBase map[*source]*hcl.EvalContext
	funcs     map[string]function.Function
	// linkables are the resource and module values built for references.
	linkables map[string]map[string]*instanceSet
	// passthrough are the values of other resources' attributes, for
	// references (see passValues).
	passthrough map[string]map[string]cty.Value

	// A module called by a local path (local.go): prefix starts every
	// address ("module.msk."), scope is the root module's directory (the
	// clusters are the root's), rel is this module's directory relative
	// to the root's, inputs are the call's arguments (variables take them
	// over their defaults; tfvars are the root module's only) and stack
	// are the directories being loaded (as positions show them), root
	// first, to stop cycles.
	prefix, scope, rel string
	inputs             map[string]cty.Value
	stack              []string
	// passing: textOf is inside a pass-through attribute (passExpr).
	passing bool
	// followed counts the module instances loaded under the root.
	followed *int
}

type variable struct {
	name  string
	src   *source
	block *hcl.Block
	attrs hcl.Attributes
	value valueCache
}

type local struct {
	name  string
	src   *source
	attr  *hcl.Attribute
	value valueCache
}

type assignment struct {
	src  *source
	attr *hcl.Attribute
}

type resource struct {
	typ, name string
	src       *source
	block     *hcl.Block
	attrs     hcl.Attributes
}

type moduleCall struct {
	name   string
	src    *source
	block  *hcl.Block
	attrs  hcl.Attributes
	source string // the source argument, when literal
}

type provider struct {
	name, alias string
	src         *source
	block       *hcl.Block
	attrs       hcl.Attributes
}

var topSchema = &hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{
	{Type: "variable", LabelNames: []string{"name"}},
	{Type: "locals"},
	{Type: "resource", LabelNames: []string{"type", "name"}},
	{Type: "data", LabelNames: []string{"type", "name"}},
	{Type: "module", LabelNames: []string{"name"}},
	{Type: "provider", LabelNames: []string{"name"}},
	{Type: "output", LabelNames: []string{"name"}},
	{Type: "terraform"},
}}

// parse reads every file; files with syntax errors are reported and left
// out of the module.
func parse(files []File, opts Options) *module {
	m := &module{
		opts: opts, limits: opts.Limits.withDefaults(), sources: map[string]*source{}, variables: map[string][]*variable{},
		locals: map[string][]*local{}, comments: map[string][]doc.Comment{},
		assigned: map[string]*assignment{}, ctxs: map[*source]*hcl.EvalContext{},
	}
	sorted := slices.Clone(files)
	slices.SortFunc(sorted, func(a, b File) int { return cmp.Compare(a.Name, b.Name) })
	var autoVars []*source
	for _, f := range sorted {
		kind, ok := fileKind(f.Name)
		if !ok {
			continue
		}
		s := &source{name: f.Name, data: f.Data, kind: kind, json: strings.HasSuffix(strings.ToLower(f.Name), ".json")}
		s.lines = strings.Split(string(f.Data), "\n")
		var diags hcl.Diagnostics
		if s.json {
			refuse, dups := jsonError(f.Name, f.Data, m.limits.MaxNesting)
			if refuse != nil {
				m.errors = append(m.errors, refuse)
				continue
			}
			m.errors = append(m.errors, dups...)
			s.file, diags = hcljson.Parse(f.Data, f.Name)
		} else {
			if err := cmp.Or(nestingError(f.Name, f.Data, m.limits.MaxNesting), heredocError(f.Name, f.Data, m.limits.MaxTemplateLines)); err != nil {
				m.errors = append(m.errors, err)
				continue
			}
			s.file, diags = hclsyntax.ParseConfig(f.Data, f.Name, hcl.InitialPos)
			if opts.CommentMarker == "" || bytes.Contains(f.Data, []byte(opts.CommentMarker)) {
				m.comments[f.Name] = hclComments(f.Data, f.Name)
			}
		}
		if err := firstError(f.Name, diags); err != nil {
			m.errors = append(m.errors, err)
			continue
		}
		m.sources[f.Name] = s
		switch kind {
		case kindConfig:
			m.files = append(m.files, s)
		case kindAutoVars:
			autoVars = append(autoVars, s)
		}
	}
	// Terraform loads terraform.tfvars, then terraform.tfvars.json, then
	// *.auto.tfvars(.json) in lexical order; later files win.
	rank := func(s *source) int {
		switch strings.ToLower(path.Base(s.name)) {
		case "terraform.tfvars":
			return 0
		case "terraform.tfvars.json":
			return 1
		}
		return 2
	}
	slices.SortStableFunc(autoVars, func(a, b *source) int {
		return cmp.Or(cmp.Compare(rank(a), rank(b)), cmp.Compare(path.Base(a.name), path.Base(b.name)))
	})
	m.vars = autoVars
	for _, s := range m.vars {
		attrs, _ := s.file.Body.JustAttributes()
		for _, a := range sortedAttrs(attrs) {
			m.assigned[a.Name] = &assignment{src: s, attr: a}
		}
	}
	for _, s := range m.files {
		m.collect(s)
	}
	return m
}

// endOf is where r ends: the line and column just past its last
// character, as HCL (and SARIF) count; none for an empty range.
func endOf(r hcl.Range) (line, column int) {
	if r.End.Byte <= r.Start.Byte {
		return 0, 0
	}
	return r.End.Line, r.End.Column
}

// firstError turns the first error diagnostic into an Error with HCL's own
// message.
func firstError(file string, diags hcl.Diagnostics) *doc.Error {
	for _, d := range diags {
		if d.Severity != hcl.DiagError {
			continue
		}
		msg := d.Summary
		if d.Detail != "" {
			msg += ": " + d.Detail
		}
		e := &doc.Error{File: file, Line: 1, Message: "invalid HCL: " + msg}
		if r := d.Subject; r != nil {
			e.Line, e.Column = r.Start.Line, r.Start.Column
			e.EndLine, e.EndColumn = endOf(*r)
		}
		return e
	}
	return nil
}

// hclComments lists the comments of a native-syntax file.
func hclComments(data []byte, name string) []doc.Comment {
	toks, _ := hclsyntax.LexConfig(data, name, hcl.InitialPos)
	var out []doc.Comment
	codeLine := 0 // last line holding a non-comment token
	for _, t := range toks {
		switch t.Type {
		case hclsyntax.TokenComment:
			text := string(t.Bytes)
			switch {
			case strings.HasPrefix(text, "#"):
				text = text[1:]
			case strings.HasPrefix(text, "//"):
				text = text[2:]
			case strings.HasPrefix(text, "/*"):
				text = strings.TrimSuffix(text[2:], "*/")
			}
			out = append(out, doc.Comment{Line: t.Range.Start.Line, Text: strings.TrimSpace(text), Trailing: codeLine == t.Range.Start.Line})
		case hclsyntax.TokenNewline, hclsyntax.TokenEOF:
		default:
			codeLine = t.Range.End.Line
		}
	}
	return out
}

func sortedAttrs(attrs hcl.Attributes) []*hcl.Attribute {
	out := make([]*hcl.Attribute, 0, len(attrs))
	for _, a := range attrs {
		out = append(out, a)
	}
	slices.SortFunc(out, func(a, b *hcl.Attribute) int {
		return cmp.Or(cmp.Compare(a.Range.Start.Byte, b.Range.Start.Byte), cmp.Compare(a.Name, b.Name))
	})
	return out
}

// attributes returns a body's attributes, ignoring nested blocks.
func attributes(body hcl.Body) hcl.Attributes {
	attrs, _ := body.JustAttributes()
	if attrs == nil {
		attrs = hcl.Attributes{}
	}
	return attrs
}

// blocks returns a body's nested blocks of one type.
func blocks(body hcl.Body, typ string, labels ...string) []*hcl.Block {
	content, _, _ := body.PartialContent(&hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{{Type: typ, LabelNames: labels}}})
	if content == nil {
		return nil
	}
	return content.Blocks
}

// hasDynamic reports a `dynamic "typ"` block in a body.
func hasDynamic(body hcl.Body, typ string) bool {
	for _, b := range blocks(body, "dynamic", "type") {
		if b.Labels[0] == typ {
			return true
		}
	}
	return false
}

func (m *module) collect(s *source) {
	content, _, _ := s.file.Body.PartialContent(topSchema)
	if content == nil {
		return
	}
	for _, b := range content.Blocks {
		switch b.Type {
		case "variable":
			m.variables[b.Labels[0]] = append(m.variables[b.Labels[0]], &variable{name: b.Labels[0], src: s, block: b, attrs: attributes(b.Body)})
		case "locals":
			for _, a := range sortedAttrs(attributes(b.Body)) {
				m.locals[a.Name] = append(m.locals[a.Name], &local{name: a.Name, src: s, attr: a})
			}
		case "resource":
			m.resources = append(m.resources, &resource{typ: b.Labels[0], name: b.Labels[1], src: s, block: b, attrs: attributes(b.Body)})
		case "module":
			c := &moduleCall{name: b.Labels[0], src: s, block: b, attrs: attributes(b.Body)}
			if a, ok := c.attrs["source"]; ok {
				if v, diags := a.Expr.Value(nil); !diags.HasErrors() && v.IsKnown() && v.Type().FriendlyName() == "string" && !v.IsNull() {
					c.source = v.AsString()
				}
			}
			m.calls = append(m.calls, c)
		case "provider":
			p := &provider{name: b.Labels[0], src: s, block: b, attrs: attributes(b.Body)}
			if a, ok := p.attrs["alias"]; ok {
				if v, diags := a.Expr.Value(nil); !diags.HasErrors() && v.IsKnown() && !v.IsNull() && v.Type().FriendlyName() == "string" {
					p.alias = v.AsString()
				}
			}
			m.providers = append(m.providers, p)
		}
		m.collectRoots(b.Body)
	}
}

// collectRoots records the references that the expressions of a body use.
func (m *module) collectRoots(body hcl.Body) {
	var walk func(hcl.Body)
	walk = func(body hcl.Body) {
		if sb, ok := body.(*hclsyntax.Body); ok {
			for _, a := range sb.Attributes {
				m.addTraversals(a.Expr.Variables())
			}
			for _, b := range sb.Blocks {
				walk(b.Body)
			}
			return
		}
		// JSON bodies: every property may be an expression.
		for _, a := range attributes(body) {
			m.addTraversals(a.Expr.Variables())
		}
	}
	walk(body)
}

func (m *module) addTraversals(ts []hcl.Traversal) {
	m.traversals = append(m.traversals, ts...)
}
