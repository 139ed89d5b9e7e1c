// Package config reads kafkalint's configuration file, .kafkalint.yaml
// (docs/configuration.md; JSON Schema in schema.json). Every mistake is an
// error with the file, line and column: an unknown key, rule, environment
// or severity, or a malformed glob never silently does nothing.
package config

import (
	"cmp"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/kafkalint/kafkalint/loader"
	"github.com/kafkalint/kafkalint/loader/catalog"
	"github.com/kafkalint/kafkalint/loader/safefs"
)

// FileNames are the names looked for in the working directory and its
// parents, in this order (two in one directory is an error).
var FileNames = []string{".kafkalint.yaml", ".kafkalint.yml"}

// Off turns a rule off in `rules:`.
const Off = "off"

// Severities accepted for `fail_level` (and, with Off, in `rules:`).
var Severities = []string{"error", "warning", "info"}

// Environments accepted under `environments:`.
var Environments = []string{"production", "staging", "development"}

// Keys are the top-level keys.
var Keys = []string{"kafka_version", "fail_level", "environments", "rules", "exclude", "policies", "data"}

//go:embed schema.json
var schema []byte

// Schema is the JSON Schema of the configuration file.
func Schema() []byte { return schema }

// Config is a parsed configuration file. The zero value is "no file".
type Config struct {
	// Path is the file read ("" when there is none).
	Path string
	// Dir is the directory globs are relative to (the file's directory).
	Dir string
	// KafkaVersion and FailLevel are "" when not set.
	KafkaVersion string
	FailLevel    string
	// Environments in file order: the first glob that matches wins.
	Environments []Environment
	// Rules maps a rule id to a severity or Off.
	Rules map[string]string
	// Exclude drops matching files from loading.
	Exclude []*Glob
	// Policies are directories or .rego files of custom policies, and
	// Data YAML or JSON files of parameters (docs/custom-policies.md);
	// Load makes relative paths absolute against Dir.
	Policies []string
	Data     []string
	// Repo is the repository the file belongs to (LoadIn): the file and
	// every path it names are inside it.
	Repo string

	// lines are the lines of the Policies and Data entries, as written.
	lines map[string]int
}

// Environment is one entry of `environments:`.
type Environment struct {
	Name  string
	Globs []*Glob
}

// RuleLookup resolves a rule id (any case) or slug to the rule's id. For a
// name it does not know (ok false), id is the known id or slug the name was
// probably meant to be, or "".
type RuleLookup func(idOrSlug string) (id string, ok bool)

// Error is one problem in the file, at file:line:col.
type Error = loader.Problem

// Errors are every problem found in one file, in file order.
type Errors = loader.Problems

// Find returns the configuration file in dir or the nearest parent that
// has one, or "" when none does.
func Find(dir string) (string, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for {
		var found []string
		for _, name := range FileNames {
			p := filepath.Join(dir, name)
			if info, err := os.Stat(p); err == nil && !info.IsDir() {
				found = append(found, p)
			}
		}
		switch len(found) {
		case 1:
			return found[0], nil
		case 2:
			return "", fmt.Errorf("both %s and %s exist; keep one", found[0], found[1])
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", nil
		}
		dir = parent
	}
}

// Load reads and checks the file at path; name is how messages refer to it.
// The file belongs to RepoRoot of its directory (LoadIn).
func Load(path, name string, rules RuleLookup) (*Config, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	return LoadIn(path, name, RepoRoot(filepath.Dir(abs)), rules)
}

// LoadIn reads and checks the file at path, which belongs to the
// repository directory repo: the file is read inside repo (a symlink to
// /proc/self/environ is refused), and its policies: and data: must name
// files inside repo too, after resolving symlinks. A repository under
// review (a pull request, an audited repository) must not make kafkalint
// read another repository's or the machine's files into its findings;
// paths outside it can be given on the command line (--policy, --data).
func LoadIn(path, name, repo string, rules RuleLookup) (*Config, error) {
	c, err := load(path, name, repo, func(*Config) (RuleLookup, error) { return rules, nil })
	if err != nil {
		return nil, err
	}
	return c, nil
}

// Verify is Load for `kafkalint config verify`: it reports every problem in
// one pass. The rule names are checked with the lookup rulesFor returns for
// the file as read (the rules its custom policies define exist only once
// those compile; rulesFor's error, such as a policy that does not compile,
// is returned with the file's problems). A file that cannot be read returns
// a nil Config.
func Verify(path, name string, rulesFor func(*Config) (RuleLookup, error)) (*Config, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	return load(path, name, RepoRoot(filepath.Dir(abs)), rulesFor)
}

// load reads and checks the file; the configuration is returned with its
// problems, as far as it could be read, unless the file cannot be read.
func load(path, name, repo string, rulesFor func(*Config) (RuleLookup, error)) (*Config, error) {
	root, err := safefs.OpenRoot(repo, 0)
	if err != nil {
		return nil, Errors{{File: name, Message: fmt.Sprintf("cannot read configuration: %v", unwrapPath(err))}}
	}
	defer root.Close()
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	data, err := root.ReadFile(abs)
	if err != nil {
		msg := safefs.Reason(err)
		if msg == "" {
			msg = unwrapPath(err).Error()
		}
		return nil, Errors{{File: name, Message: "cannot read configuration: " + msg}}
	}
	p := parseText(name, data)
	c := p.cfg
	c.Path, c.Dir, c.Repo = abs, filepath.Dir(abs), root.Dir()
	errs := p.errs
	for _, l := range []struct {
		what, flag string
		list       []string
	}{{"policies", "--policy", c.Policies}, {"data", "--data", c.Data}} {
		for i, p := range l.list {
			written := p
			if !filepath.IsAbs(p) {
				l.list[i] = filepath.Join(c.Dir, filepath.FromSlash(p))
			}
			if _, err := root.Stat(l.list[i]); errors.Is(err, safefs.ErrOutside) {
				errs = append(errs, &Error{File: name, Line: c.lines[written], Message: fmt.Sprintf(
					"%s %q is outside the repository (%s): a configuration file names only files inside it; give others on the command line (%s)",
					l.what, written, repoName(repo), l.flag)})
			}
		}
	}
	rules, lookupErr := rulesFor(c)
	p.errs = nil
	p.resolveRules(rules)
	errs = append(errs, p.errs...)
	if lookupErr != nil {
		return c, errors.Join(errs.Err(), lookupErr)
	}
	if err := errs.Err(); err != nil {
		return c, err
	}
	return c, nil
}

// repoName is how messages name a repository directory: its base name
// (the full path of the machine running the audit is nobody's business).
func repoName(repo string) string {
	return filepath.Base(repo)
}

// RepoRoot is the repository a configuration file in dir belongs to: the
// nearest directory at or above dir that holds .git (a git work tree),
// else dir itself.
func RepoRoot(dir string) string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return dir
	}
	for d := abs; ; {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			return abs
		}
		d = parent
	}
}

func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

var yamlLineRE = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// Parse checks a configuration file's text. Path and Dir are left empty.
func Parse(name string, data []byte, rules RuleLookup) (*Config, error) {
	p := parseText(name, data)
	p.resolveRules(rules)
	sortErrors(p.errs)
	if len(p.errs) > 0 {
		return nil, p.errs
	}
	return p.cfg, nil
}

// parseText reads everything but the rule names, which resolveRules checks.
func parseText(name string, data []byte) *parser {
	p := &parser{file: name, cfg: &Config{Rules: map[string]string{}}}
	dec := yaml.NewDecoder(strings.NewReader(string(data)))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if !errors.Is(err, io.EOF) { // an empty file is every default
			p.errs = Errors{p.yamlError(err)}
		}
		return p
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); err == nil {
		p.errs = Errors{{File: name, Line: extra.Line, Column: extra.Column, Message: "a second YAML document; the configuration is one document"}}
		return p
	}
	root := &doc
	if root.Kind == yaml.DocumentNode && len(root.Content) > 0 {
		root = root.Content[0]
	}
	p.top(root)
	return p
}

func sortErrors(errs Errors) {
	slices.SortStableFunc(errs, func(a, b *Error) int { return cmp.Or(cmp.Compare(a.Line, b.Line), cmp.Compare(a.Column, b.Column)) })
}

type parser struct {
	file string
	cfg  *Config
	errs Errors
	// ruleEntries are the `rules:` entries, checked once the rules are
	// known (resolveRules).
	ruleEntries [][2]*yaml.Node
}

func (p *parser) errorf(n *yaml.Node, format string, args ...any) {
	p.errs = append(p.errs, &Error{File: p.file, Line: n.Line, Column: n.Column, Message: fmt.Sprintf(format, args...)})
}

func (p *parser) yamlError(err error) *Error {
	msg := err.Error()
	var te *yaml.TypeError
	if errors.As(err, &te) && len(te.Errors) > 0 {
		msg = te.Errors[0]
	}
	if m := yamlLineRE.FindStringSubmatch(msg); m != nil {
		line, _ := strconv.Atoi(m[1])
		return &Error{File: p.file, Line: line, Message: "invalid YAML: " + m[2]}
	}
	return &Error{File: p.file, Message: "invalid YAML: " + strings.TrimPrefix(msg, "yaml: ")}
}

// mapping checks n is a mapping and returns its key/value pairs, reporting
// keys written twice.
func (p *parser) mapping(n *yaml.Node, what string) (keys, values []*yaml.Node, ok bool) {
	if n.Kind != yaml.MappingNode {
		p.errorf(n, "%s must be a mapping (key: value lines), not %s", what, kindName(n))
		return nil, nil, false
	}
	seen := map[string]int{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if line, dup := seen[k.Value]; dup {
			p.errorf(k, "%s is set twice (also at line %d)", k.Value, line)
			continue
		}
		seen[k.Value] = k.Line
		keys, values = append(keys, k), append(values, v)
	}
	return keys, values, true
}

// scalar checks n is a plain string value.
func (p *parser) scalar(n *yaml.Node, what string) (string, bool) {
	if n.Kind != yaml.ScalarNode || n.Tag == "!!null" {
		p.errorf(n, "%s must be a single value, not %s", what, kindName(n))
		return "", false
	}
	return n.Value, true
}

func kindName(n *yaml.Node) string {
	switch {
	case n.Kind == yaml.MappingNode:
		return "a mapping"
	case n.Kind == yaml.SequenceNode:
		return "a list"
	case n.Kind == yaml.AliasNode:
		return "an alias"
	case n.Tag == "!!null":
		return "empty"
	}
	return fmt.Sprintf("%q", n.Value)
}

func (p *parser) top(root *yaml.Node) {
	if root.Kind == yaml.ScalarNode && root.Tag == "!!null" {
		return // a file holding only comments
	}
	keys, values, ok := p.mapping(root, "the configuration")
	if !ok {
		return
	}
	for i, k := range keys {
		v := values[i]
		switch k.Value {
		case "kafka_version":
			p.kafkaVersion(v)
		case "fail_level":
			if s, ok := p.scalar(v, "fail_level"); ok {
				if !slices.Contains(Severities, s) {
					p.errorf(v, "fail_level %q is not one of %s", s, strings.Join(Severities, ", "))
				} else {
					p.cfg.FailLevel = s
				}
			}
		case "environments":
			p.environments(v)
		case "rules":
			p.rulesSection(v)
		case "exclude":
			p.cfg.Exclude = p.globs(v, "exclude")
		case "policies":
			p.cfg.Policies = p.paths(v, "policies")
		case "data":
			p.cfg.Data = p.paths(v, "data")
		default:
			p.errorf(k, "unknown key %q%s (known keys: %s)", k.Value, suggest(k.Value, Keys), strings.Join(Keys, ", "))
		}
	}
}

// suggest proposes the known word a key was probably meant to be.
func suggest(word string, known []string) string {
	norm := strings.ToLower(strings.NewReplacer("-", "_", ".", "_", " ", "_").Replace(word))
	for _, k := range known {
		if norm == k || strings.TrimSuffix(norm, "s") == strings.TrimSuffix(k, "s") {
			return fmt.Sprintf("; did you mean %q?", k)
		}
	}
	if k := catalog.Closest(word, known); k != "" {
		return fmt.Sprintf("; did you mean %q?", k)
	}
	return ""
}

func (p *parser) kafkaVersion(v *yaml.Node) {
	s, ok := p.scalar(v, "kafka_version")
	if !ok {
		return
	}
	if v.Tag != "!!str" {
		// YAML reads 3.10 as the number 3.1.
		p.errorf(v, "kafka_version must be quoted, as in \"3.9\": unquoted, YAML reads %s as a number", s)
		return
	}
	if !catalog.ValidVersion(s) {
		p.errorf(v, "kafka_version %q is not a Kafka version X.Y (or X.Y.Z) such as \"3.9\"", s)
		return
	}
	if !catalog.Cataloged(s) {
		// Another line would silently get the nearest cataloged line's
		// keys and defaults.
		p.errorf(v, "kafka_version %q is not a Kafka version kafkalint knows: %s", s, strings.Join(catalog.Versions(), ", "))
		return
	}
	p.cfg.KafkaVersion = s
}

func (p *parser) environments(v *yaml.Node) {
	keys, values, ok := p.mapping(v, "environments")
	if !ok {
		return
	}
	for i, k := range keys {
		if !slices.Contains(Environments, k.Value) {
			p.errorf(k, "unknown environment %q (want %s)", k.Value, strings.Join(Environments, ", "))
			continue
		}
		p.cfg.Environments = append(p.cfg.Environments, Environment{Name: k.Value, Globs: p.globs(values[i], "environments."+k.Value)})
	}
}

func (p *parser) rulesSection(v *yaml.Node) {
	keys, values, ok := p.mapping(v, "rules")
	if !ok {
		return
	}
	for i, k := range keys {
		p.ruleEntries = append(p.ruleEntries, [2]*yaml.Node{k, values[i]})
	}
}

// resolveRules checks the `rules:` entries' names with rules and their
// severities, and fills Rules.
func (p *parser) resolveRules(rules RuleLookup) {
	where := map[string]int{}
	for _, e := range p.ruleEntries {
		k, v := e[0], e[1]
		id, known := "", false
		if rules != nil {
			id, known = rules(k.Value)
		}
		if !known {
			hint := ""
			if id != "" {
				hint = fmt.Sprintf("; did you mean %q?", id)
			}
			p.errorf(k, "unknown rule %q%s (rules are named by id, e.g. KFK1001, or slug; see `kafkalint rules`)", k.Value, hint)
			continue
		}
		if line, dup := where[id]; dup {
			p.errorf(k, "rule %s is configured twice (also at line %d, by id or slug)", id, line)
			continue
		}
		where[id] = k.Line
		sev, ok := p.scalar(v, "the severity of "+k.Value)
		if !ok {
			continue
		}
		if sev != Off && !slices.Contains(Severities, sev) {
			p.errorf(v, "severity %q of %s is not one of error, warning, info, off", sev, k.Value)
			continue
		}
		p.cfg.Rules[id] = sev
	}
}

// paths reads a path or a list of paths, relative to the file's directory.
func (p *parser) paths(v *yaml.Node, what string) []string {
	items := []*yaml.Node{v}
	if v.Kind == yaml.SequenceNode {
		items = v.Content
	}
	var out []string
	for _, item := range items {
		s, ok := p.scalar(item, "a path in "+what)
		if !ok {
			continue
		}
		if s == "" {
			p.errorf(item, "empty path in %s", what)
			continue
		}
		out = append(out, s)
		if p.cfg.lines == nil {
			p.cfg.lines = map[string]int{}
		}
		p.cfg.lines[s] = item.Line
	}
	return out
}

func (p *parser) globs(v *yaml.Node, what string) []*Glob {
	if v.Kind != yaml.SequenceNode {
		p.errorf(v, "%s must be a list of path globs, as in [\"deploy/prod/**\"], not %s", what, kindName(v))
		return nil
	}
	var out []*Glob
	for _, item := range v.Content {
		s, ok := p.scalar(item, "a glob in "+what)
		if !ok {
			continue
		}
		g, err := CompileGlob(s)
		if err != nil {
			p.errorf(item, "bad glob %q in %s: %v", s, what, err)
			continue
		}
		out = append(out, g)
	}
	return out
}

// rel is abs relative to the configuration's directory, slash-separated;
// false when abs is outside it.
func (c *Config) rel(abs string) (string, bool) {
	if c == nil || c.Dir == "" {
		return "", false
	}
	r, err := safefs.Rel(c.Dir, abs)
	if err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return "", false
	}
	return filepath.ToSlash(r), true
}

// Excluded reports whether the file at abs matches an `exclude` glob.
func (c *Config) Excluded(abs string) bool {
	r, ok := c.rel(abs)
	if !ok {
		return false
	}
	for _, g := range c.Exclude {
		if g.Match(r) {
			return true
		}
	}
	return false
}

// EnvironmentOf returns the environment of the first `environments` glob
// matching the file at abs, or "".
func (c *Config) EnvironmentOf(abs string) string {
	r, ok := c.rel(abs)
	if !ok {
		return ""
	}
	for _, e := range c.Environments {
		for _, g := range e.Globs {
			if g.Match(r) {
				return e.Name
			}
		}
	}
	return ""
}
