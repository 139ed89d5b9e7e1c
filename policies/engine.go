package policies

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"path"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/open-policy-agent/opa/v1/storage"

	"github.com/kafkalint/kafkalint/loader"
	"github.com/kafkalint/kafkalint/loader/catalog"
	"github.com/kafkalint/kafkalint/policies/builtinplan"
	"github.com/kafkalint/kafkalint/policies/plan"
	"github.com/kafkalint/kafkalint/report"
)

// docsBase is where rule pages live; a page is docsBase + ID + ".md".
const docsBase = "https://github.com/kafkalint/kafkalint/blob/main/docs/rules/"

// Scopes of a rule.
const (
	ScopeAll        = "all"
	ScopeProduction = "production"
)

// engineGo marks a rule whose findings are computed in Go.
const engineGo = "go"

// Rule is a rule's metadata, read from its package METADATA.
type Rule struct {
	ID          string   `json:"id"`
	Slug        string   `json:"slug"`
	Category    string   `json:"category"`
	Title       string   `json:"title"`
	Description string   `json:"description"`
	Severity    string   `json:"severity"`
	Scope       string   `json:"scope"`
	AppliesTo   []string `json:"applies_to"`
	Keys        []string `json:"keys"`
	Since       string   `json:"since"`
	// Fix is what to change, in general (METADATA custom.fix); a finding
	// may bring its own, as it may its own why.
	Fix     string `json:"fix,omitempty"`
	DocsURL string `json:"docs_url"`
	// Engine is engineGo for a rule computed in Go (its package holds only
	// METADATA; e.g. the inline-directive checks), "" for a Rego rule.
	Engine string `json:"engine,omitempty"`
	// Path is the rule's package path under data.kafkalint.rules (a
	// custom rule's: under data.custom).
	Path string `json:"-"`
	// Source is the .rego file of a custom rule ("" for a built-in rule);
	// Help its documentation page, <ID>.md beside that file, if any.
	Source string `json:"source,omitempty"`
	Help   string `json:"-"`
}

// Engine evaluates the rule set. It is safe for concurrent use.
//
// The built-in rules run on their plan, compiled ahead of time
// (EngineCompiled), or on OPA's interpreter (EngineInterpreter). Custom
// rules always run on the interpreter: they are compiled with the built-in
// rules, once, and evaluated by their own query over that compiler. The
// built-in rules are ours and run without a time limit; the custom rules
// run within a budget per cluster (WithTimeout) and builtin limits
// (withLimits), so a runaway custom policy costs its own findings on that
// cluster, never the run.
type Engine struct {
	// prog is the built-in rules' plan (package builtinplan) when they
	// run compiled (EngineCompiled); nil when they run on OPA's
	// interpreter (query).
	prog *plan.Program
	// progRules[i] is the rule of prog's entrypoint i.
	progRules []*Rule
	// data is the data document prog is evaluated with: the parameters at
	// data.kafkalint.params, what the store holds.
	data  ast.Value
	query rego.PreparedEvalQuery // the built-in rules on the interpreter
	// custom is the custom rules' query; nil when there are none.
	custom *rego.PreparedEvalQuery
	// compiler and store are what the queries were prepared with (tests
	// prepare other queries over them).
	compiler *ast.Compiler
	store    storage.Store
	rules    []*Rule
	byKey    map[string]*Rule // "category/slug"
	// timeout bounds the custom rules' evaluation of one cluster
	// (WithTimeout; 0: none); limits bound what their builtin calls may
	// produce (withLimits).
	timeout time.Duration
	limits  limits
	// byCategory is prepared on the first large cluster; copies of the
	// engine (WithTimeout, withLimits) share it.
	byCategory *categoryQueries
}

// categoryQueries are the built-in rules' queries, one per category.
type categoryQueries struct {
	opts    []func(*rego.Rego) // what the engine's built-in query was prepared with
	once    sync.Once
	queries []rego.PreparedEvalQuery
	err     error
}

// EngineKind says how the built-in rules are evaluated.
type EngineKind string

const (
	// EngineCompiled evaluates the built-in rules' plan, made from the Rego
	// at build time (package builtinplan, `go generate ./policies`): the
	// default, which neither parses nor compiles Rego at start-up.
	EngineCompiled EngineKind = "compiled"
	// EngineInterpreter evaluates the built-in Rego on OPA's interpreter,
	// compiled at start-up: the reference, for debugging.
	EngineInterpreter EngineKind = "interpreter"
)

// EngineKinds are the engines, for flags' help.
var EngineKinds = []EngineKind{EngineCompiled, EngineInterpreter}

// ParseEngineKind reads an engine's name ("" is the default, compiled).
func ParseEngineKind(s string) (EngineKind, error) {
	switch k := EngineKind(s); k {
	case "":
		return EngineCompiled, nil
	case EngineCompiled, EngineInterpreter:
		return k, nil
	}
	return "", fmt.Errorf("engine %q: want %s or %s", s, EngineCompiled, EngineInterpreter)
}

var builtinInterpreter = sync.OnceValues(func() (*Engine, error) {
	mods, err := bundleModules(false)
	if err != nil {
		return nil, err
	}
	return newEngine(context.Background(), mods, true)
})

var builtinCompiled = sync.OnceValues(func() (*Engine, error) {
	p, err := DefaultParams()
	if err != nil {
		return nil, err
	}
	return compiledEngine(p)
})

// Builtin returns the engine for the embedded rules (EngineCompiled),
// prepared once per process.
func Builtin() (*Engine, error) { return builtinCompiled() }

// builtinEngine returns the engine for the embedded rules of that kind.
func builtinEngine(kind EngineKind) (*Engine, error) {
	if kind == EngineInterpreter {
		return builtinInterpreter()
	}
	return builtinCompiled()
}

// memoByValue are the functions the compiled engine keeps the results of
// by argument value (plan.Options.MemoByValue): those that several rules
// (or rule bodies) call with equal arguments built apart, and whose bodies
// cost more than the lookup (a node's voter map, a disagreement's value
// groups, a file's directory, the version test every startup check
// starts with, the entries of a comma-separated value that three checks
// split). Counted on bench/compare.sh's shared tree, each of the first
// seven is called 2.3 to 240 times per distinct argument; at_least some 20
// times per cluster with a handful of arguments. The rest are a node's
// facts that the startup checks and the host comparisons ask again and
// again (counted on the separate tree: controller_names 10 times per node,
// broker_only 10, hosts_differ 6 per pair of hosts, _first_label 12 per
// host, _broker_advertised called per listener): together 4.7 % of the
// separate .properties lint's instructions (15.72 → 14.98 billion); on the
// shared tree, whose large clusters keep more results alive for the
// collector to mark, the count did not move (25.48 → 25.59, within what
// the collector's pacing varies between builds).
var memoByValue = map[string]bool{
	"data.kafkalint.lib.cluster._groups":                                        true,
	"data.kafkalint.lib.cluster.voter_map":                                      true,
	"data.kafkalint.lib.cluster._controller_anchors":                            true,
	"data.kafkalint.lib.cluster.endpoint_key":                                   true,
	"data.kafkalint.lib.cluster.listeners_known":                                true,
	"data.kafkalint.lib.cluster.voter_ids":                                      true,
	"data.kafkalint.lib.result.dir":                                             true,
	"data.kafkalint.lib.version.at_least":                                       true,
	`data.kafkalint.rules.hygiene["kafka-refuses-to-start"]._entries`:           true,
	"data.kafkalint.lib.cluster.controller_names":                               true,
	"data.kafkalint.lib.cluster.without_quorum":                                 true,
	"data.kafkalint.lib.cluster.hosts_differ":                                   true,
	"data.kafkalint.lib.cluster._comparable":                                    true,
	"data.kafkalint.lib.cluster._first_label":                                   true,
	"data.kafkalint.lib.cluster.broker_only":                                    true,
	"data.kafkalint.lib.cluster.dedicated_controller":                           true,
	"data.kafkalint.lib.cluster.role_class":                                     true,
	"data.kafkalint.lib.cluster.loopback_host":                                  true,
	"data.kafkalint.lib.cluster.wildcard_host":                                  true,
	"data.kafkalint.lib.cluster.ip_literal":                                     true,
	"data.kafkalint.lib.cluster.quorum_anchors":                                 true,
	"data.kafkalint.lib.cluster.controller_listeners":                           true,
	"data.kafkalint.lib.result.names_text":                                      true,
	`data.kafkalint.rules.hygiene["kafka-refuses-to-start"]._advertised`:        true,
	`data.kafkalint.rules.hygiene["kafka-refuses-to-start"]._broker_advertised`: true,
}

// builtinProgram is the built-in rules' plan (builtinplan) prepared for the
// runtime, and each entrypoint's rule.
var builtinProgram = sync.OnceValues(func() (*compiledRules, error) {
	pol := builtinplan.Policy()
	if pol == nil {
		return nil, errors.New("the built-in rules' plan is missing (a build with the kafkalint_genplan tag): use the interpreter engine")
	}
	prog, err := plan.Compile(pol, plan.Options{Builtins: unlimited, MemoByValue: memoByValue})
	if err != nil {
		return nil, fmt.Errorf("the built-in rules' plan: %w (regenerate it: go generate ./policies)", err)
	}
	cr := &compiledRules{prog: prog, byKey: map[string]*Rule{}}
	for _, g := range builtinplan.Rules() {
		r := &Rule{
			ID: g.ID, Slug: g.Slug, Category: g.Category, Title: g.Title, Description: g.Description,
			Severity: g.Severity, Scope: g.Scope, AppliesTo: g.AppliesTo, Keys: g.Keys, Since: g.Since,
			Fix: g.Fix, DocsURL: g.DocsURL, Engine: g.Engine, Path: g.Path,
		}
		cr.rules = append(cr.rules, r)
		cr.byKey[ruleKey(r)] = r
	}
	for _, ep := range prog.Entrypoints() {
		cat, slug, ok := strings.Cut(strings.TrimSuffix(strings.TrimPrefix(ep, "kafkalint/rules/"), "/report"), "/")
		r := cr.byKey[cat+"/"+slug]
		if !ok || r == nil || r.Engine != "" {
			return nil, fmt.Errorf("the built-in rules' plan: entrypoint %s is no Rego rule's report (regenerate it: go generate ./policies)", ep)
		}
		cr.entries = append(cr.entries, r)
	}
	return cr, nil
})

// compiledRules are the built-in rules' plan and metadata.
type compiledRules struct {
	prog    *plan.Program
	entries []*Rule // entries[i] is the rule of prog's entrypoint i
	rules   []*Rule // sorted by id
	byKey   map[string]*Rule
}

// compiledEngine is the engine of the built-in rules' plan, evaluated with
// params at data.kafkalint.params.
func compiledEngine(params map[string]any) (*Engine, error) {
	cr, err := builtinProgram()
	if err != nil {
		return nil, err
	}
	data, err := paramsData(params)
	if err != nil {
		return nil, err
	}
	return &Engine{prog: cr.prog, progRules: cr.entries, data: data, rules: cr.rules, byKey: cr.byKey, limits: defaultLimits}, nil
}

// paramsData is the data document of the parameters, as paramsStore holds
// it.
func paramsData(params map[string]any) (ast.Value, error) {
	v, err := ast.InterfaceToValue(map[string]any{"kafkalint": map[string]any{"params": params}})
	if err != nil {
		return nil, fmt.Errorf("parameters: %w", err)
	}
	return v, nil
}

// newEngine compiles modules and prepares the query once. trusted skips
// the type check against the model's schema: only for the embedded bundle,
// which every test run and `opa check --strict --schema` type-check already
// (it is a third of the compile time every process start pays).
func newEngine(ctx context.Context, mods []Module, trusted bool) (*Engine, error) {
	parsed, err := ParseModules(mods)
	if err != nil {
		return nil, err
	}
	c, err := NewCompiler()
	if err != nil {
		return nil, err
	}
	if trusted {
		c = c.WithSkipStages(ast.StageCheckTypes)
	}
	c.Compile(parsed)
	if c.Failed() {
		return nil, fmt.Errorf("compile policies: %w", c.Errors)
	}
	rules, err := rulesFrom(c)
	if err != nil {
		return nil, err
	}
	store, err := defaultStore() // the parameters' defaults (params.go)
	if err != nil {
		return nil, err
	}
	q, err := rego.New(rego.Compiler(c), rego.Store(store), rego.Query(reportsQuery)).PrepareForEval(ctx)
	if err != nil {
		return nil, fmt.Errorf("prepare policies: %w", err)
	}
	e := &Engine{query: q, compiler: c, store: store, rules: rules, byKey: map[string]*Rule{}, limits: defaultLimits}
	e.byCategory = &categoryQueries{opts: []func(*rego.Rego){rego.Compiler(c), rego.Store(store)}}
	for _, r := range rules {
		e.byKey[r.Category+"/"+r.Slug] = r
	}
	return e, nil
}

// rulesFrom reads every rule package's METADATA and checks it is complete.
func rulesFrom(c *ast.Compiler) ([]*Rule, error) {
	var rules []*Rule
	seen := map[string]string{}
	for _, ref := range c.GetAnnotationSet().Flatten() {
		a := ref.Annotations
		if a.Scope != "package" || !ref.Path.HasPrefix(ast.MustParseRef("data.kafkalint.rules")) {
			continue
		}
		if len(ref.Path) != 5 {
			return nil, fmt.Errorf("%s: rule packages are data.kafkalint.rules.<category>[\"<slug>\"]", ref.Path)
		}
		cat, ok1 := ref.Path[3].Value.(ast.String)
		slug, ok2 := ref.Path[4].Value.(ast.String)
		if !ok1 || !ok2 {
			return nil, fmt.Errorf("%s: rule packages are data.kafkalint.rules.<category>[\"<slug>\"]", ref.Path)
		}
		r := &Rule{
			Category: string(cat), Slug: string(slug), Title: a.Title, Description: strings.TrimSpace(a.Description),
			ID: str(a.Custom["id"]), Severity: str(a.Custom["severity"]), Scope: str(a.Custom["scope"]),
			Since: str(a.Custom["since"]), AppliesTo: strs(a.Custom["applies_to"]), Keys: strs(a.Custom["keys"]),
			Engine: str(a.Custom["engine"]), Fix: reflow(str(a.Custom["fix"])),
			Path: ref.Path.String(),
		}
		r.DocsURL = docsBase + r.ID + ".md"
		if err := r.validate(); err != nil {
			return nil, fmt.Errorf("%s: %w", ref.Location, err)
		}
		if other, dup := seen[r.ID]; dup {
			return nil, fmt.Errorf("%s: rule id %s is also used by %s", ref.Location, r.ID, other)
		}
		seen[r.ID] = r.Slug
		rules = append(rules, r)
	}
	slices.SortFunc(rules, func(a, b *Rule) int { return strings.Compare(a.ID, b.ID) })
	return rules, nil
}

func (r *Rule) validate() error {
	switch {
	case r.ID == "" || r.Title == "" || r.Description == "" || r.Since == "":
		return fmt.Errorf("rule %q: METADATA needs title, description, custom.id and custom.since", r.Slug)
	case !slices.Contains(report.Severities, r.Severity):
		return fmt.Errorf("rule %s: custom.severity %q is not one of %v", r.ID, r.Severity, report.Severities)
	case r.Scope != ScopeAll && r.Scope != ScopeProduction:
		return fmt.Errorf("rule %s: custom.scope %q is not all or production", r.ID, r.Scope)
	case r.Engine != "" && r.Engine != engineGo:
		return fmt.Errorf("rule %s: custom.engine %q is not %q (omit it for a Rego rule)", r.ID, r.Engine, engineGo)
	}
	return nil
}

// Why is the rule's description as a finding's why (one paragraph per
// paragraph of the METADATA text).
func (r *Rule) Why() string { return reflow(r.Description) }

// reflow joins the lines of each paragraph of a METADATA text (a YAML
// block wraps at 80 columns; a finding's why or fix is wrapped by whatever
// prints it), keeping blank-line paragraph breaks.
func reflow(text string) string {
	var paras []string
	for p := range strings.SplitSeq(strings.TrimSpace(text), "\n\n") {
		if p = strings.Join(strings.Fields(p), " "); p != "" {
			paras = append(paras, p)
		}
	}
	return strings.Join(paras, "\n\n")
}

func str(v any) string {
	s, _ := v.(string)
	return s
}

func strs(v any) []string {
	list, _ := v.([]any)
	out := []string{}
	for _, x := range list {
		if s, ok := x.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// Rules returns the rules' metadata, sorted by id.
func (e *Engine) Rules() []*Rule { return e.rules }

// Rule finds a rule by id or slug.
func (e *Engine) Rule(idOrSlug string) *Rule {
	for _, r := range e.rules {
		if strings.EqualFold(r.ID, idOrSlug) || r.Slug == idOrSlug {
			return r
		}
	}
	return nil
}

// DefaultKeys maps each catalog scope to the keys the rules read, so the
// loader adds Kafka's default for the ones a file leaves out.
func (e *Engine) DefaultKeys() map[string][]string {
	out := map[string][]string{}
	scopes := []string{catalog.Broker, catalog.Producer, catalog.Consumer, catalog.Admin, catalog.Mirror}
	for _, r := range e.rules {
		for _, key := range r.Keys {
			for _, s := range scopes {
				if _, ok := catalog.Default(catalog.Newest(), s, key); ok && !slices.Contains(out[s], key) {
					out[s] = append(out[s], key)
				}
			}
		}
	}
	for s := range out {
		slices.Sort(out[s])
	}
	return out
}

// rawFinding is what a rule's report set holds (see lib/result.rego).
type rawFinding struct {
	Message string `json:"message"`
	// Why and Fix are the finding's own explanation, when it differs from
	// its rule's (METADATA description and custom.fix); "" otherwise.
	Why      string            `json:"why"`
	Fix      string            `json:"fix"`
	Key      string            `json:"key"`
	Location report.Location   `json:"location"`
	Related  []report.Location `json:"related"`
	// RelatedOmitted counts the related locations the rule left out of
	// Related (lib/result.rego caps the list at related_cap).
	RelatedOmitted int `json:"related_omitted"`
}

// CustomError is the error of the custom rules' evaluation of one cluster:
// its built-in findings are still returned with it.
type CustomError struct {
	Cluster string
	// TimedOut is set when the budget of WithTimeout ended it.
	TimedOut bool
	Budget   time.Duration
	Err      error
}

func (e *CustomError) Error() string {
	if e.TimedOut {
		return fmt.Sprintf("the custom policies did not finish on cluster %s within %s of CPU time", e.Cluster, e.Budget)
	}
	return fmt.Sprintf("the custom policies failed on cluster %s: %v", e.Cluster, e.Err)
}

func (e *CustomError) Unwrap() error { return e.Err }

// Evaluate runs every rule on one cluster. The built-in rules are bounded
// only by ctx; the custom ones also by the engine's budget and limits. When
// only the custom rules fail, the error is a *CustomError and the built-in
// findings are returned with it.
func (e *Engine) Evaluate(ctx context.Context, c *loader.Cluster) ([]report.Finding, error) {
	return e.EvaluatePrepared(ctx, Prepare(c))
}

// Prepared is a cluster ready to be evaluated: its model until it is
// evaluated, and what its findings need besides
// (its name, its files' environments, the values no text may quote). A
// caller evaluating many clusters prepares one, drops its own reference
// to the model and calls EvaluatePrepared: the garbage collector then
// frees the model once the cluster is evaluated (on the interpreter, once
// it is converted: the typed model of a cluster of 2,000 parties is some
// 15 MB, next to its 60 MB of whole input; the compiled engine reads the
// model lazily and converts a fraction of it).
type Prepared struct {
	cluster *loader.Cluster
	name    string
	large   bool
	envOf   map[string]string
	redact  *redactor // nil: nothing to redact
}

// Prepare prepares c for EvaluatePrepared.
func Prepare(c *loader.Cluster) *Prepared {
	return &Prepared{cluster: c, name: c.Name, large: EvaluatedAlone(c), envOf: environments(c), redact: newRedactor(c)}
}

// Redact rewrites a text about the cluster (an evaluation error: a
// policy's runtime error may quote an operand) as its findings' texts
// are: it never quotes a sensitive value, nor a long one in full. A nil
// Prepared redacts nothing.
func (p *Prepared) Redact(text string) string {
	if p == nil || p.redact == nil {
		return text
	}
	return p.redact.replace(text)
}

// EvaluatePrepared is Evaluate on a prepared cluster; it evaluates a
// Prepared once, and holds no reference to its model once evaluated (nor,
// on the interpreter, once its input is built).
func (e *Engine) EvaluatePrepared(ctx context.Context, p *Prepared) ([]report.Finding, error) {
	c := p.cluster
	if c == nil {
		return nil, fmt.Errorf("cluster %s: evaluated already", p.name)
	}
	p.cluster = nil
	if p.large {
		evalGate.Lock()
		defer evalGate.Unlock()
	} else {
		evalGate.RLock()
		defer evalGate.RUnlock()
	}
	input, conv, err := e.input(c)
	if err != nil {
		return nil, fmt.Errorf("cluster %s: %w", p.name, err)
	}
	var reports []reported
	switch {
	case e.prog != nil:
		reports, err = e.evalCompiled(ctx, input)
	case p.large:
		reports, err = e.evalByCategory(ctx, input)
	default:
		reports, err = e.eval(ctx, e.query, input)
	}
	if conv.err != nil { // a part of the lazy input a rule read
		return nil, fmt.Errorf("cluster %s: %w", p.name, conv.err)
	}
	if err != nil {
		return nil, fmt.Errorf("evaluate cluster %s: %w", p.name, err)
	}
	var customErr error
	if e.custom != nil {
		custom, err := e.evalCustom(ctx, input)
		if err != nil && ctx.Err() != nil {
			// Interrupted (or the caller's deadline): not the policy's fault.
			return nil, fmt.Errorf("evaluate cluster %s: %w", p.name, context.Cause(ctx))
		}
		if err != nil {
			ce := &CustomError{Cluster: p.name, Budget: e.timeout, Err: err}
			ce.TimedOut = errors.Is(err, errBudget)
			customErr = ce
		}
		reports = append(reports, custom...)
	}
	return e.findings(p, reports), customErr
}

// input is the rules' input for c and its converter. The compiled engine
// alone reads it lazily (lazyInput): the interpreter, and so the custom
// policies, get it whole (toValue). A part of the lazy input that cannot be
// converted fails the cluster with toValue's error when a rule reads it
// (conv.err; toValue fails on any such part, and the loader makes none:
// TestLazyInputMatchesToValue converts every example and corpus cluster).
func (e *Engine) input(c *loader.Cluster) (input ast.Value, conv *converter, err error) {
	if e.prog != nil && e.custom == nil {
		input, conv = lazyInput(c)
		return input, conv, conv.err
	}
	input, err = toValue(c)
	return input, &converter{}, err
}

// evalGate bounds the memory of evaluations running at once: the Rego
// input of a cluster and what evaluating it holds grow with its parties
// (a cluster of 1,400 nodes holds about 150 MB while it is evaluated),
// so a large cluster is evaluated alone, small ones side by side. It is
// one gate for the process, since memory is.
var evalGate sync.RWMutex

// largeCluster is the number of parties (nodes, clients, MirrorMakers)
// from which a cluster is evaluated alone.
const largeCluster = 256

// EvaluatedAlone says whether c is a large cluster, which Evaluate
// evaluates while no other cluster is (evalGate). A caller evaluating many
// clusters hands these out last: the models of the others are then
// garbage by the time a large cluster's input is built.
func EvaluatedAlone(c *loader.Cluster) bool {
	return len(c.Nodes)+len(c.Clients)+len(c.MirrorMakers) >= largeCluster
}

// evalByCategory evaluates the built-in rules one category at a time, so
// what evaluating one category holds (its rules' partial results) is
// garbage before the next starts.
func (e *Engine) evalByCategory(ctx context.Context, input ast.Value) ([]reported, error) {
	qs, err := e.categoryQueries()
	if err != nil {
		return nil, err
	}
	var all []reported
	for _, q := range qs {
		r, err := e.eval(ctx, q, input)
		if err != nil {
			return nil, err
		}
		all = append(all, r...)
	}
	return all, nil
}

// evalCompiled evaluates the built-in rules' plan: every rule's report
// set, in the order of the interpreter's reportsQuery (by category, slug,
// then the set's own order), though report.Finish sorts findings anyway.
//
// Unlike the interpreter, a large cluster is not evaluated a category at a
// time: the plan's evaluation shares what the rules have in common
// (functions computed once per evaluation) between all rules.
func (e *Engine) evalCompiled(ctx context.Context, input ast.Value) ([]reported, error) {
	vals, err := e.prog.EvalAll(ctx, input, e.data)
	if err != nil {
		return nil, err
	}
	order := make([]int, len(vals))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int {
		ra, rb := e.progRules[a], e.progRules[b]
		return cmp.Or(cmp.Compare(ra.Category, rb.Category), cmp.Compare(ra.Slug, rb.Slug))
	})
	n := 0
	for _, v := range vals {
		if set, ok := v.(ast.Set); ok {
			n += set.Len()
		}
	}
	out := make([]reported, 0, n)
	for _, i := range order {
		if vals[i] == nil {
			continue // undefined: no report rule body was defined
		}
		set, ok := vals[i].(ast.Set)
		if !ok {
			return nil, fmt.Errorf("policy result of %s: want a set, got %v", e.progRules[i].Path, ast.ValueName(vals[i]))
		}
		r := e.progRules[i]
		// Slice is the set's own sorted list (Foreach's order): no closure
		// per rule, most of which report nothing.
		for _, t := range set.Slice() {
			f, err := decodeFinding(t.Value)
			if err != nil {
				return nil, fmt.Errorf("policy result of %s/%s: %w", r.Category, r.Slug, err)
			}
			out = append(out, reported{category: r.Category, slug: r.Slug, finding: f})
		}
	}
	return out, nil
}

func (e *Engine) categoryQueries() ([]rego.PreparedEvalQuery, error) {
	b := e.byCategory
	b.once.Do(func() {
		cats := map[string]bool{}
		for _, r := range e.rules {
			if r.Source == "" {
				cats[r.Category] = true
			}
		}
		for _, cat := range slices.Sorted(maps.Keys(cats)) {
			query := fmt.Sprintf("[[category, slug, finding] | category := %q; some finding in data.kafkalint.rules[category][slug].report]", cat)
			q, err := rego.New(append(slices.Clip(b.opts), rego.Query(query))...).PrepareForEval(context.Background())
			if err != nil {
				b.err = err
				return
			}
			b.queries = append(b.queries, q)
		}
	})
	return b.queries, b.err
}

// eval runs a prepared query on a converted input.
func (e *Engine) eval(ctx context.Context, q rego.PreparedEvalQuery, input ast.Value) ([]reported, error) {
	rs, err := q.Eval(ctx, rego.EvalParsedInput(input), rego.EvalGenerateJSON(keepAST))
	if err != nil {
		return nil, err
	}
	return decodeReports(rs)
}

// evalCustom runs the custom rules within the engine's CPU budget and with
// its builtin limits.
func (e *Engine) evalCustom(ctx context.Context, input ast.Value) ([]reported, error) {
	var out []reported
	ctx, done := withLimits(ctx, e.limits)
	defer done()
	err := withCPUBudget(ctx, e.timeout, func(ctx context.Context) error {
		var err error
		out, err = e.eval(ctx, *e.custom, input)
		if err != nil && errors.Is(context.Cause(ctx), errBudget) {
			return errBudget
		}
		return err
	})
	return out, err
}

// environments maps each of c's files to its environment, and each
// directory of its files, as "dir/", to the environment of its first file
// that has one: a finding may point into a file that is not one of the
// cluster's own (a Terraform variable in terraform.tfvars), and it takes
// the environment of the cluster's files in that directory.
func environments(c *loader.Cluster) map[string]string {
	envOf := map[string]string{}
	for _, f := range c.Files {
		envOf[f.Path] = f.Environment
	}
	for _, f := range c.Files {
		if d := path.Dir(f.Path) + "/"; envOf[d] == "" {
			envOf[d] = f.Environment
		}
	}
	return envOf
}

// findings turns a cluster's reports into findings.
func (e *Engine) findings(p *Prepared, reports []reported) []report.Finding {
	out := make([]report.Finding, 0, len(reports))
	whys := map[*Rule]string{} // a rule's METADATA why, reflowed once per cluster
	for _, rep := range reports {
		r := e.byKey[rep.category+"/"+rep.slug]
		if r == nil {
			continue
		}
		if rep.finding.Why == "" {
			why, ok := whys[r]
			if !ok {
				why = r.Why()
				whys[r] = why
			}
			rep.finding.Why = why
		}
		rf := rep.finding
		env := p.envOf[rf.Location.File]
		if env == "" {
			env = p.envOf[path.Dir(rf.Location.File)+"/"]
		}
		f, keep := e.finding(r, p.name, rf, env)
		if keep {
			out = append(out, f)
		}
	}
	if len(out) == 0 {
		return nil // as a cluster without findings always was (the cache stores it)
	}
	return p.redact.findings(out)
}

// finding makes a rule's report a finding, or drops it: production-only
// rules are silent in development and staging. An unknown environment is
// treated as production; the summary says so once (Summary.UnknownEnvironment),
// not every finding.
func (e *Engine) finding(r *Rule, cluster string, rf rawFinding, env string) (report.Finding, bool) {
	if env == "" {
		env = loader.EnvUnknown
	}
	if r.Scope == ScopeProduction && (env == "development" || env == "staging") {
		return report.Finding{}, false
	}
	return report.Finding{
		ID: r.ID, Slug: r.Slug, Severity: r.Severity, Message: rf.Message, Why: rf.Why, Fix: cmp.Or(rf.Fix, r.Fix),
		File: rf.Location.File, Line: rf.Location.Line, Column: rf.Location.Column,
		Environment: env, Cluster: cluster, Related: rf.Related, RelatedOmitted: rf.RelatedOmitted, DocsURL: r.DocsURL, Key: rf.Key,
	}, true
}
