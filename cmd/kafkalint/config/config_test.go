package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"go.yaml.in/yaml/v3"
)

// lookup knows two rules, by id (any case) or slug.
func lookup(s string) (string, bool) {
	switch strings.ToUpper(s) {
	case "KFK4002", "CONTROLLED-SHUTDOWN-NOT-EXPLICIT":
		return "KFK4002", true
	case "KFK3002", "QUORUM-EVEN-VOTER-COUNT":
		return "KFK3002", true
	}
	return "", false
}

func parse(t *testing.T, file string) (*Config, error) {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	return Parse(filepath.ToSlash(file), data, lookup)
}

func globs(gs []*Glob) []string {
	var out []string
	for _, g := range gs {
		out = append(out, g.Pattern)
	}
	return out
}

func TestParseFull(t *testing.T) {
	c, err := parse(t, "testdata/valid/full.yaml")
	if err != nil {
		t.Fatal(err)
	}
	type env struct {
		Name  string
		Globs []string
	}
	var envs []env
	for _, e := range c.Environments {
		envs = append(envs, env{e.Name, globs(e.Globs)})
	}
	got := struct {
		Version, FailLevel string
		Envs               []env
		Rules              map[string]string
		Exclude            []string
	}{c.KafkaVersion, c.FailLevel, envs, c.Rules, globs(c.Exclude)}
	want := struct {
		Version, FailLevel string
		Envs               []env
		Rules              map[string]string
		Exclude            []string
	}{
		"3.9", "warning",
		[]env{{"production", []string{"deploy/prod/**"}}, {"development", []string{"local/**", "**/docker-compose*.yml"}}},
		map[string]string{"KFK4002": "off", "KFK3002": "error"},
		[]string{"**/testdata/**"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("parsed config mismatch (-want +got):\n%s", diff)
	}
}

func TestParseEmpty(t *testing.T) {
	for _, text := range []string{"", "# only a comment\n", "---\n"} {
		c, err := Parse("x.yaml", []byte(text), lookup)
		if err != nil {
			t.Errorf("%q: %v", text, err)
			continue
		}
		if c.KafkaVersion != "" || c.FailLevel != "" || len(c.Rules) != 0 || c.Environments != nil || c.Exclude != nil {
			t.Errorf("%q: got %+v, want every default", text, c)
		}
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		file string
		want string
	}{
		{"invalid/unknown-key.yaml", `:2:1: unknown key "fail-level"; did you mean "fail_level"? (known keys: kafka_version, fail_level, environments, rules, exclude, policies, data)`},
		{"invalid/bad-severity.yaml", `:2:12: severity "disabled" of KFK4002 is not one of error, warning, info, off`},
		{"invalid/bad-fail-level.yaml", `:1:13: fail_level "critical" is not one of error, warning, info`},
		{"go-only/bad-glob.yaml", `:2:5: bad glob "deploy/[prod/**" in exclude: malformed pattern (check [ ] brackets and trailing \)`},
		{"invalid/glob-not-list.yaml", `:2:15: environments.production must be a list of path globs, as in ["deploy/prod/**"], not "deploy/prod/**"`},
		{"invalid/unknown-environment.yaml", `:2:3: unknown environment "qa" (want production, staging, development)`},
		{"invalid/unquoted-version.yaml", `:1:16: kafka_version must be quoted, as in "3.9": unquoted, YAML reads 3.10 as a number`},
		{"invalid/bad-version.yaml", `:1:16: kafka_version "three.nine" is not a Kafka version X.Y (or X.Y.Z) such as "3.9"`},
		{"invalid/absolute-glob.yaml", `:1:11: bad glob "/etc/kafka/**" in exclude: globs are relative to the directory of the configuration file; remove the leading /`},
		{"invalid/not-a-mapping.yaml", `:1:1: the configuration must be a mapping (key: value lines), not a list`},
		{"invalid/double-star-in-segment.yaml", "`**` must be a whole path segment"},
		{"go-only/unknown-rule.yaml", `:2:3: unknown rule "KFK9999" (rules are named by id, e.g. KFK1001, or slug; see ` + "`kafkalint rules`)"},
		{"go-only/rule-twice.yaml", `:3:3: rule KFK4002 is configured twice (also at line 2, by id or slug)`},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			_, err := parse(t, "testdata/"+tt.file)
			if err == nil {
				t.Fatal("no error")
			}
			if !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), "testdata/"+tt.file+":") {
				t.Errorf("error:\n  %v\nwant testdata/%s%s", err, tt.file, tt.want)
			}
		})
	}
}

func TestParseReportsEveryProblem(t *testing.T) {
	text := "fail_level: fatal\nrules:\n  KFK0001: off\n  KFK4002: never\nextra: 1\nkafka_version: \"3.9\"\nkafka_version: \"4.0\"\n"
	_, err := Parse("c.yaml", []byte(text), lookup)
	var errs Errors
	if !errors.As(err, &errs) {
		t.Fatalf("error %v is not Errors", err)
	}
	var lines []int
	for _, e := range errs {
		lines = append(lines, e.Line)
	}
	if diff := cmp.Diff([]int{1, 3, 4, 5, 7}, lines); diff != "" {
		t.Errorf("error lines mismatch (-want +got):\n%s\n%v", diff, err)
	}
}

func TestParseInvalidYAML(t *testing.T) {
	_, err := Parse("c.yaml", []byte("rules:\n  KFK4002: [off\n"), lookup)
	if err == nil || !strings.HasPrefix(err.Error(), "c.yaml:") || !strings.Contains(err.Error(), "invalid YAML") {
		t.Errorf("error = %v, want c.yaml:LINE: invalid YAML ...", err)
	}
	_, err = Parse("c.yaml", []byte("fail_level: error\n---\nfail_level: info\n"), lookup)
	if err == nil || !strings.Contains(err.Error(), "c.yaml:2:1: a second YAML document") {
		t.Errorf("error = %v, want the second document reported at its --- (line 2)", err)
	}
}

func TestGlob(t *testing.T) {
	tests := []struct {
		glob string
		path string
		want bool
	}{
		{"deploy/prod/**", "deploy/prod/server.properties", true},
		{"deploy/prod/**", "deploy/prod/a/b/server.properties", true},
		{"deploy/prod/**", "deploy/production/server.properties", false},
		{"deploy/prod/**", "x/deploy/prod/server.properties", false},
		{"**/docker-compose*.yml", "docker-compose.yml", true},
		{"**/docker-compose*.yml", "local/kafka/docker-compose.dev.yml", true},
		{"**/docker-compose*.yml", "local/kafka/docker-compose.yaml", false},
		{"**/testdata/**", "pkg/testdata/a.properties", true},
		{"**/testdata/**", "testdata/a.properties", true},
		{"**/testdata/**", "pkg/testdatas/a.properties", false},
		{"*.properties", "server.properties", true},
		{"*.properties", "a/server.properties", false},
		{"a/**/b/*.tf", "a/b/main.tf", true},
		{"a/**/b/*.tf", "a/x/y/b/main.tf", true},
		{"a/**/b/*.tf", "a/x/y/c/main.tf", false},
		{"./local/**", "local/x.properties", true},
		{"deploy/[ps]*/**", "deploy/staging/x", true},
		{"deploy/?ev/**", "deploy/dev/x", true},
		{"**", "anything/at/all", true},
		{"**/*.tf", "infra/main.tf", true},
		{"**/*.tf", "infra/main.tfvars", false},
		{"**/*.tf", "infra/x.tf/main.yaml", false},
		{"**/main.tf", "infra/main.tf", true},
		{"**/main.tf", "infra/amain.tf", false},
	}
	for _, tt := range tests {
		g, err := CompileGlob(tt.glob)
		if err != nil {
			t.Errorf("CompileGlob(%q): %v", tt.glob, err)
			continue
		}
		if got := g.Match(tt.path); got != tt.want {
			t.Errorf("%q matches %q = %v, want %v", tt.glob, tt.path, got, tt.want)
		}
	}
	for _, bad := range []string{"", "  ", "/abs/**", "a//b", "../x/**", "a/../b", "a**/b", "[", "a/\\"} {
		if _, err := CompileGlob(bad); err == nil {
			t.Errorf("CompileGlob(%q) accepted a bad glob", bad)
		}
	}
}

func TestFind(t *testing.T) {
	root := t.TempDir()
	deep := filepath.Join(root, "a", "b")
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	if got, err := Find(deep); err != nil || (got != "" && strings.HasPrefix(got, root)) {
		t.Fatalf("Find with no file = %q, %v", got, err)
	}
	cfg := filepath.Join(root, "a", ".kafkalint.yaml")
	if err := os.WriteFile(cfg, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if got, err := Find(deep); err != nil || got != cfg {
		t.Errorf("Find = %q, %v, want the parent's %s", got, err, cfg)
	}
	yml := filepath.Join(root, "a", "b", ".kafkalint.yml")
	if err := os.WriteFile(yml, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if got, err := Find(deep); err != nil || got != yml {
		t.Errorf("Find = %q, %v, want the nearer %s", got, err, yml)
	}
	if err := os.WriteFile(filepath.Join(deep, ".kafkalint.yaml"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Find(deep); err == nil || !strings.Contains(err.Error(), "keep one") {
		t.Errorf("Find with both names in one directory: err = %v", err)
	}
}

func TestMatchRelativeToConfigDir(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "sub", ".kafkalint.yaml")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("environments:\n  development: [\"deploy/**\"]\n  production: [\"deploy/prod/**\", \"live/**\"]\nexclude: [\"**/testdata/**\"]\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := Load(path, "sub/.kafkalint.yaml", lookup)
	if err != nil {
		t.Fatal(err)
	}
	abs := func(p string) string { return filepath.Join(dir, filepath.FromSlash(p)) }
	for p, want := range map[string]string{
		"sub/deploy/prod/a.properties": "development", // first match wins
		"sub/live/a.properties":        "production",
		"live/a.properties":            "", // outside the config's directory
		"sub/other/a.properties":       "",
	} {
		if got := c.EnvironmentOf(abs(p)); got != want {
			t.Errorf("EnvironmentOf(%s) = %q, want %q", p, got, want)
		}
	}
	if !c.Excluded(abs("sub/x/testdata/a.properties")) || c.Excluded(abs("testdata/a.properties")) || c.Excluded(abs("sub/a.properties")) {
		t.Error("Excluded does not match relative to the configuration's directory")
	}
	var none *Config
	if none.Excluded(abs("a")) || none.EnvironmentOf(abs("a")) != "" {
		t.Error("a nil Config matches something")
	}
}

func TestLoadMissingFile(t *testing.T) {
	_, err := Load(filepath.Join(t.TempDir(), "nope.yaml"), "nope.yaml", lookup)
	if err == nil || !strings.HasPrefix(err.Error(), "nope.yaml: cannot read configuration") {
		t.Errorf("err = %v", err)
	}
}

// compiledSchema compiles schema.json.
func compiledSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(Schema()))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("schema.json", doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("schema.json")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// yamlToJSON decodes YAML into the value a JSON decoder would produce.
func yamlToJSON(t *testing.T, data []byte) any {
	t.Helper()
	var v any
	if err := yaml.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	if v == nil {
		v = map[string]any{}
	}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	out, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestSchemaAgreesWithParser validates the example configurations against
// schema.json: valid/ must pass both, invalid/ must fail both, go-only/
// passes the schema (which knows only the shape of a rule name) and fails
// kafkalint. The example in docs/configuration.md must pass both.
func TestSchemaAgreesWithParser(t *testing.T) {
	schema := compiledSchema(t)
	files, err := filepath.Glob("testdata/*/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no test configurations: %v", err)
	}
	check := func(name string, data []byte, wantSchema, wantGo bool) {
		t.Helper()
		schemaErr := schema.Validate(yamlToJSON(t, data))
		_, goErr := Parse(name, data, lookup)
		if (schemaErr == nil) != wantSchema {
			t.Errorf("%s: schema valid = %v, want %v (%v)", name, schemaErr == nil, wantSchema, schemaErr)
		}
		if (goErr == nil) != wantGo {
			t.Errorf("%s: kafkalint valid = %v, want %v (%v)", name, goErr == nil, wantGo, goErr)
		}
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		switch filepath.Base(filepath.Dir(f)) {
		case "valid":
			check(f, data, true, true)
		case "invalid":
			check(f, data, false, false)
		case "go-only":
			check(f, data, true, false)
		default:
			t.Errorf("%s: unknown test folder", f)
		}
	}
	for i, block := range docsExamples(t) {
		check("docs/configuration.md example "+string(rune('1'+i)), []byte(block), true, true)
	}
}

var yamlBlockRE = regexp.MustCompile("(?s)```yaml\n# \\.kafkalint\\.yaml\n(.*?)```")

// docsExamples returns the ```yaml blocks of docs/configuration.md that
// start with the line "# .kafkalint.yaml".
func docsExamples(t *testing.T) []string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	data, err := os.ReadFile(filepath.Join(filepath.Dir(file), "..", "..", "..", "docs", "configuration.md"))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, m := range yamlBlockRE.FindAllStringSubmatch(string(data), -1) {
		out = append(out, m[1])
	}
	if len(out) == 0 {
		t.Fatal("docs/configuration.md has no ```yaml block starting with # .kafkalint.yaml")
	}
	return out
}

// FuzzParse: no input panics; an error names the file; an accepted
// configuration only holds valid values.
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob("testdata/*/*.yaml")
	for _, p := range files {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte("rules: {KFK4002: off, KFK3002: info}\nexclude: ['a/**']\n"))
	f.Add([]byte("a: &x {b: *x}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := Parse("f.yaml", data, lookup)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "f.yaml") {
				t.Errorf("error does not name the file: %v", err)
			}
			return
		}
		for id, sev := range c.Rules {
			if (id != "KFK4002" && id != "KFK3002") || (sev != Off && sev != "error" && sev != "warning" && sev != "info") {
				t.Errorf("accepted rules[%s] = %q", id, sev)
			}
		}
		if c.FailLevel != "" && c.FailLevel != "error" && c.FailLevel != "warning" && c.FailLevel != "info" {
			t.Errorf("accepted fail_level %q", c.FailLevel)
		}
	})
}

func TestPoliciesAndData(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, ".kafkalint.yaml")
	abs := filepath.Join(dir, "abs", "rules.rego")
	if err := os.WriteFile(path, []byte("policies:\n  - policies/kafka\n  - "+abs+"\ndata: thresholds.yaml\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := Load(path, ".kafkalint.yaml", lookup)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{filepath.Join(dir, "policies", "kafka"), abs}
	if diff := cmp.Diff(want, c.Policies); diff != "" {
		t.Errorf("policies (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{filepath.Join(dir, "thresholds.yaml")}, c.Data); diff != "" {
		t.Errorf("data (-want +got):\n%s", diff)
	}
	for text, msg := range map[string]string{
		"policies:\n  acme: x\n": `:2:3: a path in policies must be a single value, not a mapping`,
		"data: [\"\"]\n":         `:1:8: empty path in data`,
		"policies: [a, [b]]\n":   `:1:15: a path in policies must be a single value, not a list`,
		"data:\n":                `:1:6: a path in data must be a single value, not empty`,
		"policies: {a: 1}\n":     `a path in policies must be a single value, not a mapping`,
		"data:\n  - x\n  - {}\n": `:3:5: a path in data must be a single value, not a mapping`,
	} {
		_, err := Parse("c.yaml", []byte(text), lookup)
		if err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("%q: error %v, want %q", text, err, msg)
		}
	}
}

// TestPathsStayInTheRepository: policies: and data: name files inside the
// repository (the configuration's directory, or the git work tree holding
// it), after resolving symlinks; anything else is refused at its line.
func TestPathsStayInTheRepository(t *testing.T) {
	top := t.TempDir()
	repo := filepath.Join(top, "repo")
	writeTestFile(t, filepath.Join(top, "other", "x.yaml"), "kafkalint: {}\n")
	writeTestFile(t, filepath.Join(repo, ".git", "HEAD"), "ref: refs/heads/main\n")
	writeTestFile(t, filepath.Join(repo, "shared", "ok.yaml"), "kafkalint: {}\n")
	if err := os.Symlink(filepath.Join(top, "other"), filepath.Join(repo, "link")); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(repo, "svc", ".kafkalint.yaml")
	writeTestFile(t, path, "data:\n  - ../../other/x.yaml\n  - /etc/passwd\n  - ../link/x.yaml\n  - ../shared/ok.yaml\npolicies: [/etc]\n")
	_, err := Load(path, "svc/.kafkalint.yaml", lookup)
	want := []string{
		`svc/.kafkalint.yaml:2: data "../../other/x.yaml" is outside the repository (repo)`,
		`svc/.kafkalint.yaml:3: data "/etc/passwd" is outside the repository (repo)`,
		`svc/.kafkalint.yaml:4: data "../link/x.yaml" is outside the repository (repo)`,
		`svc/.kafkalint.yaml:6: policies "/etc" is outside the repository (repo)`,
	}
	var got []string
	if err != nil {
		got = strings.Split(err.Error(), "\n")
	}
	if len(got) != len(want) {
		t.Fatalf("errors:\n%v\nwant %d", err, len(want))
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("error %d = %q, want it to start with %q", i, got[i], want[i])
		}
	}
	// In an audit the repository is the audited directory, even inside a
	// larger git work tree: ../shared is another repository there.
	writeTestFile(t, path, "data: [../shared/ok.yaml]\n")
	if _, err := Load(path, "svc/.kafkalint.yaml", lookup); err != nil {
		t.Errorf("a file inside the git work tree: %v", err)
	}
	if _, err := LoadIn(path, "svc/.kafkalint.yaml", filepath.Join(repo, "svc"), lookup); err == nil || !strings.Contains(err.Error(), "outside the repository (svc)") {
		t.Errorf("LoadIn the svc repository: %v, want outside the repository", err)
	}
	// The configuration file itself is read inside the repository.
	if err := os.Symlink(filepath.Join(top, "other", "x.yaml"), filepath.Join(repo, "svc", ".kafkalint.yml")); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadIn(filepath.Join(repo, "svc", ".kafkalint.yml"), "svc/.kafkalint.yml", filepath.Join(repo, "svc"), lookup); err == nil || !strings.Contains(err.Error(), "resolves outside the linted root") {
		t.Errorf("a configuration symlinked out of the repository: %v", err)
	}
}

func writeTestFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
}

// matchSegsReference is the glob definition written another way than
// matchSegs, as a table: m[i][j] says whether pat[i:] matches name[j:],
// where ** matches any number of segments and any other segment one name
// segment by path.Match.
func matchSegsReference(pat, name []string) bool {
	m := make([][]bool, len(pat)+1)
	for i := range m {
		m[i] = make([]bool, len(name)+1)
	}
	m[len(pat)][len(name)] = true
	for i := len(pat) - 1; i >= 0; i-- {
		for j := len(name); j >= 0; j-- {
			switch {
			case pat[i] == "**":
				m[i][j] = m[i+1][j] || j < len(name) && m[i][j+1]
			case j < len(name):
				ok, _ := path.Match(pat[i], name[j])
				m[i][j] = ok && m[i+1][j+1]
			}
		}
	}
	return m[0][0]
}

func FuzzGlobMatchesReference(f *testing.F) {
	for _, seed := range [][2]string{
		{"**/*.tf", "repo-00000/kafka/dev/broker-2.properties"},
		{"**/*.tf", "main.tf"},
		{"**/*.tf", "infra/main.tfvars"},
		{"**/main.tf", "infra/amain.tf"},
		{`*\*`, "a*"},
		{`*\*`, "ab"},
		{"*]", "a]"},
		{`\*.tf`, "*.tf"},
		{`\*.tf`, "a.tf"},
		{"*?.tf", "ab.tf"},
		{"*.tf", "\xff.tf"},
		{"**/*", "\xff"},
		{"a/**/b/*.tf", "a/x/y/b/main.tf"},
		{"**/testdata/**", "pkg/testdata/a.properties"},
		{"**/x/**/y", "x/y"},
		{"**/*", ""},
		{"a/**", "a"},
	} {
		f.Add(seed[0], seed[1])
	}
	f.Fuzz(func(t *testing.T, pattern, rel string) {
		g, err := CompileGlob(pattern)
		if err != nil {
			return
		}
		want := matchSegsReference(g.segs, strings.Split(rel, "/"))
		if got := g.Match(rel); got != want {
			t.Errorf("%q matches %q = %v, the reference says %v", pattern, rel, got, want)
		}
	})
}

// BenchmarkExcluded: bench/compare.sh's .properties-only exclude globs on
// the paths of a bench tree.
func BenchmarkExcluded(b *testing.B) {
	var gs []*Glob
	for _, p := range []string{"**/*.tf", "**/*.tf.json", "**/*.tfvars", "**/*.tfvars.json", "**/*.yaml", "**/*.yml"} {
		g, err := CompileGlob(p)
		if err != nil {
			b.Fatal(err)
		}
		gs = append(gs, g)
	}
	paths := []string{"repo-00042/kafka/dev/broker-2.properties", "repo-00042/helm/values.yaml", "repo-00042/terraform/main.tf", "repo-00042/clients/app/producer.properties"}
	for b.Loop() {
		for _, p := range paths {
			for _, g := range gs {
				if g.Match(p) {
					break
				}
			}
		}
	}
}
