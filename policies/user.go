package policies

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"

	"github.com/kafkalint/kafkalint/loader"
	"github.com/kafkalint/kafkalint/loader/safefs"
	"github.com/kafkalint/kafkalint/report"
)

// Custom policies live next to the built-in bundle and follow its
// conventions (docs/custom-policies.md):
//
//   - a rule is a package under data.custom (`package custom.acme["slug"]`)
//     whose package METADATA has custom.id (any prefix but KFK),
//     custom.severity and custom.scope, a title and a description, and
//     declares `schemas: - input: schema.cluster`, so that the compiler
//     checks every input reference against the model;
//   - it reports findings in `report` through data.kafkalint.lib.result;
//   - the data.kafkalint namespace belongs to the bundle: a custom module
//     can neither shadow nor extend a built-in rule or library.
//
// Custom and built-in modules are compiled together, once, with the same
// capabilities; any problem is an error naming file:line, never a smaller
// rule set. They are evaluated by two queries over that compiled set (see
// Engine), so that only the custom rules run within --policy-timeout.

// CustomRoot is the package prefix of custom rules.
const CustomRoot = "custom"

// customCategory is the category of a custom rule whose METADATA names none.
const customCategory = "custom"

var (
	customIDRE   = regexp.MustCompile(`^[A-Z][A-Z0-9]*-?\d+$`)
	kebabRE      = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)
	bundleRoot   = ast.MustParseRef("data.kafkalint")
	customPrefix = ast.MustParseRef("data." + CustomRoot)
	clusterRef   = ast.MustParseRef("schema.cluster")
	reportRef    = ast.Ref{ast.VarTerm("report")}
)

// Options extend the built-in rules for one run.
type Options struct {
	// Policies are directories (walked recursively) and .rego files of
	// custom policies.
	Policies []string
	// Data are YAML or JSON files merged, in order, over the built-in
	// parameters at data.kafkalint.params.
	Data []string
	// PoliciesRoot and DataRoot, when set, confine the reading of
	// Policies and Data to that directory, after resolving symlinks: the
	// repository whose configuration named them (a .rego file symlinked to
	// another repository's data is refused). "" reads anywhere: paths
	// given on the command line. Either way only regular files of at most
	// safefs.DefaultMaxSize are read.
	PoliciesRoot, DataRoot string
	// Engine evaluates the built-in rules: "" is EngineCompiled. Custom
	// rules run on OPA's interpreter either way.
	Engine EngineKind
}

// Load returns the engine for the built-in rules extended by opts, compiled
// and prepared once. Without custom policies or data it is Builtin() (or,
// with EngineInterpreter, its interpreter's twin). Rego is compiled only
// for custom policies, or for the interpreter.
func Load(ctx context.Context, opts Options) (*Engine, error) {
	kind, err := ParseEngineKind(string(opts.Engine))
	if err != nil {
		return nil, err
	}
	if len(opts.Policies) == 0 && len(opts.Data) == 0 {
		return builtinEngine(kind)
	}
	params, err := loadParamsIn(opts.Data, opts.DataRoot)
	if err != nil {
		return nil, err
	}
	if len(opts.Policies) == 0 && kind == EngineCompiled {
		return compiledEngine(params) // the parameters are the plan's data
	}
	custom, err := readPoliciesIn(opts.Policies, false, opts.PoliciesRoot)
	if err != nil {
		return nil, err
	}
	set, err := compileSet(custom)
	if err != nil {
		return nil, err
	}
	if len(opts.Policies) > 0 && !slices.ContainsFunc(set.rules, func(r *Rule) bool { return r.Source != "" }) {
		return nil, fmt.Errorf("no custom rule in %s: a rule is a package under %s. whose METADATA has custom.id (see docs/custom-policies.md)",
			strings.Join(opts.Policies, ", "), CustomRoot)
	}
	return set.engine(ctx, params, kind)
}

// readPoliciesIn reads the .rego files of paths (directories are walked;
// .git, node_modules and vendor are skipped). Test files (_test.rego) are
// read only withTests. A path that holds no .rego file is an error. Only
// what is inside the directory root is read
// ("" = anywhere; see Options.PoliciesRoot).
func readPoliciesIn(paths []string, withTests bool, root string) ([]Module, error) {
	read, done, err := reader(root)
	if err != nil {
		return nil, err
	}
	defer done()
	var files []string
	var ps problems
	seen := map[string]bool{}
	for _, root := range paths {
		n := 0
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				if p != root && (d.Name() == ".git" || d.Name() == "node_modules" || d.Name() == "vendor") {
					return fs.SkipDir
				}
				return nil
			}
			if !strings.HasSuffix(p, ".rego") {
				return nil
			}
			n++
			abs, err := filepath.Abs(p)
			if err != nil || seen[abs] {
				return err
			}
			seen[abs] = true
			if withTests || !strings.HasSuffix(p, "_test.rego") {
				files = append(files, p)
			}
			return nil
		})
		switch {
		case err != nil:
			ps = append(ps, &problem{File: displayPath(root), Message: "cannot read policies: " + unwrapPathError(err).Error()})
		case n == 0:
			ps = append(ps, &problem{File: displayPath(root), Message: "holds no .rego file"})
		}
	}
	if err := ps.Err(); err != nil {
		return nil, err
	}
	mods := make([]Module, 0, len(files))
	for _, p := range files {
		b, err := read(p)
		if err != nil {
			return nil, problems{{File: displayPath(p), Message: "cannot read policy: " + readReason(err)}}
		}
		mods = append(mods, Module{Path: displayPath(p), Text: string(b)})
	}
	return mods, nil
}

// reader reads files inside root, or anywhere when root is "", through
// safefs (regular files, bounded).
func reader(root string) (read func(string) ([]byte, error), done func(), err error) {
	if root == "" {
		return func(p string) ([]byte, error) { return safefs.ReadFile(p, 0) }, func() {}, nil
	}
	r, err := safefs.OpenRoot(root, 0)
	if err != nil {
		return nil, nil, err
	}
	return r.ReadFile, func() { _ = r.Close() }, nil
}

// readReason is why a file could not be read: safefs's refusal ("resolves
// outside the linted root", "not a regular file (named pipe)"), else the
// system's error.
func readReason(err error) string {
	if r := safefs.Reason(err); r != "" {
		return r
	}
	return unwrapPathError(err).Error()
}

func unwrapPathError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// displayPath shows a path relative to the working directory when it is
// under it, slash-separated.
func displayPath(p string) string {
	wd, err1 := os.Getwd()
	abs, err2 := filepath.Abs(p)
	if err1 == nil && err2 == nil {
		if rel, err := filepath.Rel(wd, abs); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return filepath.ToSlash(rel)
		}
	}
	return filepath.ToSlash(p)
}

// ruleSet is the built-in and custom modules compiled together.
type ruleSet struct {
	compiler *ast.Compiler
	rules    []*Rule
	parsed   map[string]*ast.Module // every module, by path
}

// compileSet compiles the bundle's rules (no tests) with custom modules and
// reads every rule's METADATA.
func compileSet(custom []Module) (*ruleSet, error) {
	bundle, err := parsedBundle()
	if err != nil {
		return nil, err
	}
	parsed := maps.Clone(bundle) // the compiler copies the modules it compiles
	if slices.ContainsFunc(custom, func(m Module) bool { return strings.HasSuffix(m.Path, "_test.rego") }) {
		fx, err := parsedFixtures()
		if err != nil {
			return nil, err
		}
		maps.Copy(parsed, fx) // custom tests may build fixtures with data.kafkalint.lib.testing
	}
	customParsed, err := parseCustom(custom)
	if err != nil {
		return nil, err
	}
	for p, m := range customParsed {
		if parsed[p] != nil {
			return nil, problems{{File: p, Message: "has the path of a built-in module; run kafkalint from another directory or move the policy"}}
		}
		parsed[p] = m
	}
	c, err := NewCompiler()
	if err != nil {
		return nil, err
	}
	c.Compile(parsed)
	if c.Failed() {
		return nil, opaProblems(c.Errors).Err()
	}
	rules, err := rulesFrom(c)
	if err != nil {
		return nil, err
	}
	customRules, err := customRulesFrom(c, customParsed, rules)
	if err != nil {
		return nil, err
	}
	rules = append(rules, customRules...)
	slices.SortFunc(rules, func(a, b *Rule) int { return strings.Compare(a.ID, b.ID) })
	return &ruleSet{compiler: c, rules: rules, parsed: parsed}, nil
}

// parsedBundle is the bundle's rules and libraries (no tests), parsed once.
var parsedBundle = sync.OnceValues(func() (map[string]*ast.Module, error) {
	mods, err := bundleModules(false)
	if err != nil {
		return nil, err
	}
	return ParseModules(mods)
})

// parsedFixtures is the test fixtures module (bundle.go), parsed once.
var parsedFixtures = sync.OnceValues(func() (map[string]*ast.Module, error) {
	return ParseModules([]Module{testFixtures()})
})

// parseCustom parses custom modules and keeps them out of the bundle's
// namespace.
func parseCustom(mods []Module) (map[string]*ast.Module, error) {
	out := make(map[string]*ast.Module, len(mods))
	var ps problems
	opts := ast.ParserOptions{ProcessAnnotation: true, RegoVersion: ast.RegoV1}
	for _, m := range mods {
		parsed, err := ast.ParseModuleWithOpts(m.Path, m.Text, opts)
		if err != nil {
			var errs ast.Errors
			if errors.As(err, &errs) {
				ps = append(ps, opaProblems(errs)...)
			} else {
				ps = append(ps, &problem{File: m.Path, Message: err.Error()})
			}
			continue
		}
		if parsed.Package.Path.HasPrefix(bundleRoot) {
			ps = append(ps, problemAt(parsed.Package.Location, m.Path,
				"package %s: the kafkalint namespace belongs to the built-in rules, which a custom policy can neither shadow nor extend; put custom rules under package %s.<name> (turn a built-in rule off or change its severity in .kafkalint.yaml `rules:`)",
				strings.TrimPrefix(parsed.Package.Path.String(), "data."), CustomRoot))
			continue
		}
		out[m.Path] = parsed
	}
	if err := ps.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

// customRulesFrom reads the custom rules' METADATA and checks it, and that
// no custom module defines findings a rule does not own.
func customRulesFrom(c *ast.Compiler, parsed map[string]*ast.Module, builtin []*Rule) ([]*Rule, error) {
	ids, slugs := map[string]string{}, map[string]string{}
	for _, r := range builtin {
		ids[r.ID], slugs[r.Slug] = "built-in rule "+r.ID, "built-in rule "+r.ID
	}
	var rules []*Rule
	var ps problems
	rulePackages := map[string]bool{}
	for _, ref := range c.GetAnnotationSet().Flatten() {
		a := ref.Annotations
		if a.Location == nil || parsed[a.Location.File] == nil || a.Custom["id"] == nil {
			continue
		}
		file := a.Location.File
		if a.Scope != "package" {
			ps = append(ps, problemAt(a.Location, file, "METADATA with custom.id must describe the package: put it directly above the package line (scope %q here)", a.Scope))
			continue
		}
		r, problems := customRule(c, ref.Path, a)
		ps = append(ps, problems...)
		if r == nil {
			continue
		}
		rulePackages[ref.Path.String()] = true
		if other, dup := ids[strings.ToUpper(r.ID)]; dup {
			ps = append(ps, problemAt(a.Location, file, "rule id %s is already used by %s", r.ID, other))
			continue
		}
		if other, dup := slugs[r.Slug]; dup {
			ps = append(ps, problemAt(a.Location, file, "rule slug %s (the package's last name) is already used by %s", r.Slug, other))
			continue
		}
		ids[strings.ToUpper(r.ID)] = fmt.Sprintf("%s (%s:%d)", r.ID, file, a.Location.Row)
		slugs[r.Slug] = ids[strings.ToUpper(r.ID)]
		rules = append(rules, r)
	}
	// A report rule outside a rule package would never run.
	for path, m := range parsed {
		if rulePackages[m.Package.Path.String()] {
			continue
		}
		for _, rule := range m.Rules {
			if rule.Head.Ref().Equal(reportRef) {
				ps = append(ps, problemAt(rule.Location, path,
					"package %s defines report but is not a rule: its METADATA (directly above the package line) needs custom.id, or the findings would never be reported",
					strings.TrimPrefix(m.Package.Path.String(), "data.")))
				break
			}
		}
	}
	if err := ps.Err(); err != nil {
		return nil, err
	}
	return rules, nil
}

// customRule reads and checks one custom rule's package METADATA.
func customRule(c *ast.Compiler, pkg ast.Ref, a *ast.Annotations) (*Rule, problems) {
	file := a.Location.File
	bad := func(format string, args ...any) (*Rule, problems) {
		return nil, problems{problemAt(a.Location, file, format, args...)}
	}
	id, ok := a.Custom["id"].(string)
	switch {
	case !ok || !customIDRE.MatchString(id):
		return bad("custom.id %v: want uppercase letters then digits, as in ACME001 or ACME-001", a.Custom["id"])
	case strings.HasPrefix(strings.ToUpper(id), "KFK"):
		return bad("custom.id %s: the KFK prefix is reserved for built-in rules; use your own, as in ACME001", id)
	case !pkg.HasPrefix(customPrefix) || len(pkg) < 3:
		return bad("rule %s: package %s is not under %s.: custom rules are packages %s.<name>, as in package %s.acme[\"topic-retention\"]",
			id, strings.TrimPrefix(pkg.String(), "data."), CustomRoot, CustomRoot, CustomRoot)
	}
	slug, ok := pkg[len(pkg)-1].Value.(ast.String)
	if !ok || !kebabRE.MatchString(string(slug)) {
		return bad("rule %s: the package's last name is the rule's slug and must be kebab-case, as in package %s.acme[\"topic-retention\"]", id, CustomRoot)
	}
	r := &Rule{
		ID: id, Slug: string(slug), Category: cmp.Or(str(a.Custom["category"]), customCategory),
		Title: a.Title, Description: strings.TrimSpace(a.Description),
		Severity: str(a.Custom["severity"]), Scope: str(a.Custom["scope"]), Since: str(a.Custom["since"]),
		AppliesTo: strs(a.Custom["applies_to"]), Keys: strs(a.Custom["keys"]), Fix: reflow(str(a.Custom["fix"])),
		Path: pkg.String(), Source: file,
	}
	switch {
	case r.Title == "" || r.Description == "":
		return bad("rule %s: METADATA needs a title and a description", id)
	case !slices.Contains(report.Severities, r.Severity):
		return bad("rule %s: custom.severity %q is not one of %s", id, r.Severity, strings.Join(report.Severities, ", "))
	case r.Scope != ScopeAll && r.Scope != ScopeProduction:
		return bad("rule %s: custom.scope %q is not all or production", id, r.Scope)
	case !kebabRE.MatchString(r.Category):
		return bad("rule %s: custom.category %q must be kebab-case", id, r.Category)
	case !slices.ContainsFunc(a.Schemas, func(s *ast.SchemaAnnotation) bool {
		return s.Path.Equal(ast.InputRootRef) && s.Schema.Equal(clusterRef)
	}):
		return bad("rule %s: METADATA needs `schemas: [{input: schema.cluster}]` (YAML: schemas: - input: schema.cluster), so that the compiler checks every input reference against the cluster model", id)
	}
	if !slices.ContainsFunc(c.GetRulesExact(pkg.Append(ast.StringTerm("report"))), func(rule *ast.Rule) bool {
		return rule.Head.RuleKind() == ast.MultiValue
	}) {
		return bad("rule %s: the package defines no `report contains result.fail(...) if { ... }`: findings are the report set", id)
	}
	for _, rr := range a.RelatedResources {
		if rr.Ref.Scheme == "https" || rr.Ref.Scheme == "http" {
			r.DocsURL = rr.Ref.String()
			break
		}
	}
	// The rule's documentation page, when it sits beside the module.
	// It is read inside the module's directory: a page symlinked to a file
	// elsewhere is not copied into SARIF's rule help.
	if root, err := safefs.OpenRoot(filepath.Dir(filepath.FromSlash(file)), 0); err == nil {
		if b, err := root.ReadFile(filepath.Join(root.Dir(), id+".md")); err == nil {
			r.Help = string(b)
		}
		_ = root.Close()
	}
	return r, nil
}

// engine prepares the queries over the one compiled set: the built-in
// rules' (on the interpreter; with EngineCompiled they run on their plan
// instead) and, when there are custom rules, theirs. Every rule reads
// params at data.kafkalint.params.
func (s *ruleSet) engine(ctx context.Context, params map[string]any, kind EngineKind) (*Engine, error) {
	store := paramsStore(params)
	e := &Engine{compiler: s.compiler, store: store, rules: s.rules, byKey: map[string]*Rule{}, limits: defaultLimits}
	p := parser{opts: sync.OnceValue(func() loader.Options { return loader.Options{DefaultKeys: e.DefaultKeys()} })}
	prepare := func(query string) (rego.PreparedEvalQuery, error) {
		opts := append([]func(*rego.Rego){rego.Compiler(s.compiler), rego.Store(store), rego.Query(query)}, p.regoOptions()...)
		q, err := rego.New(opts...).PrepareForEval(ctx)
		if err != nil {
			return q, fmt.Errorf("prepare policies: %w", err)
		}
		return q, nil
	}
	if kind == EngineCompiled {
		c, err := compiledEngine(params)
		if err != nil {
			return nil, err
		}
		e.prog, e.progRules, e.data = c.prog, c.progRules, c.data
	} else {
		var err error
		if e.query, err = prepare(reportsQuery); err != nil {
			return nil, err
		}
		e.byCategory = &categoryQueries{opts: append([]func(*rego.Rego){rego.Compiler(s.compiler), rego.Store(store)}, p.regoOptions()...)}
	}
	if query := customQuery(s.rules); query != "" {
		q, err := prepare(query)
		if err != nil {
			return nil, err
		}
		e.custom = &q
	}
	for _, r := range s.rules {
		e.byKey[ruleKey(r)] = r
	}
	return e, nil
}

// ruleKey is how the engine finds a rule from a result triple: category
// and slug for a built-in rule; for a custom rule, whose package can be
// anywhere under data.custom, an empty category and its id.
func ruleKey(r *Rule) string {
	if r.Source != "" {
		return "/" + r.ID
	}
	return r.Category + "/" + r.Slug
}

// customQuery collects the report set of every custom rule as ["", id,
// finding] triples, the shape of reportsQuery's; "" when there is none.
func customQuery(rules []*Rule) string {
	var parts []string
	for _, r := range rules {
		if r.Source != "" {
			parts = append(parts, fmt.Sprintf("[[%q, %q, finding] | some finding in %s.report]", "", r.ID, r.Path))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "[triple | some part in [" + strings.Join(parts, ", ") + "]; some triple in part]"
}

// CheckCustomRuleName checks a custom rule's id and slug as the engine
// checks its METADATA and package.
func CheckCustomRuleName(id, slug string) error {
	switch {
	case !customIDRE.MatchString(id):
		return fmt.Errorf("rule id %q: want uppercase letters then digits, as in ACME001 or ACME-001", id)
	case strings.HasPrefix(id, "KFK"):
		return fmt.Errorf("rule id %s: the KFK prefix is reserved for built-in rules; use your own, as in ACME001", id)
	case !kebabRE.MatchString(slug):
		return fmt.Errorf("slug %q: want kebab-case, as in topic-retention-max", slug)
	}
	return nil
}
