package policies

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/kafkalint/kafkalint/loader"
	"github.com/kafkalint/kafkalint/report"
)

// The Kafka parity suite (testdata/kafka-parity/README.md): every case is a
// configuration taken from one of Apache Kafka's own configuration tests,
// with the outcome Kafka's test asserts for each Kafka version. A case Kafka
// refuses must be reported as an error by the named rule at the line of the
// key Kafka complains about, quoting Kafka's message; a case Kafka starts
// must produce no error at all. Cases run through the real loader and the
// built-in rules, in the development environment so that production-only
// advice (which is not about starting) stays out of the comparison.

// parityVersions are the Kafka releases the suite covers; a case's version
// range selects among them.
var parityVersions = []string{"3.8", "3.9", "4.0", "4.1", "4.2", "4.3"}

type parityExpect struct {
	versions []string
	starts   bool
	rule     string // refused: the rule that reports it
	key      string // refused: the key whose line is reported; "-" a missing key (line 1)
	says     string // refused: a fragment of Kafka's own message the finding quotes
}

type parityCase struct {
	path      string
	test      string // Kafka test file#method
	source    string // or, for a check no Kafka test exercises, the Kafka source file#method
	release   string // Kafka release tag and commit the test was read at
	file      string // the file name the configuration is loaded as
	tolerate  map[string]string
	expects   []parityExpect
	content   string
	firstLine int // line of the case file where the configuration starts
}

// expectRE reads `expect 3.8-4.1: refused KFK9007 key "Kafka's words"` and
// `expect 4.2: starts`.
var expectRE = regexp.MustCompile(`^expect ([0-9.]+)(?:-([0-9.]+))?: (?:(starts)|refused (KFK\d{4}) (\S+) "(.+)")$`)

func parseParityCase(path string, data string) (*parityCase, error) {
	head, body, ok := strings.Cut(data, "\n---\n")
	if !ok {
		return nil, errors.New("no --- line between the header and the configuration")
	}
	c := &parityCase{path: path, file: "server.properties", tolerate: map[string]string{}, content: body,
		firstLine: strings.Count(head, "\n") + 3}
	for _, line := range strings.Split(head, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		k, v, ok := strings.Cut(line, ": ")
		if !ok {
			return nil, fmt.Errorf("header line %q is not `name: value`", line)
		}
		switch {
		case k == "kafka-test":
			c.test = v
		case k == "kafka-source":
			c.source = v
		case k == "release":
			c.release = v
		case k == "file":
			c.file = v
		case k == "tolerate":
			id, why, ok := strings.Cut(v, " ")
			if !ok || strings.TrimSpace(why) == "" {
				return nil, fmt.Errorf("tolerate %q needs a rule id and a reason", v)
			}
			c.tolerate[id] = why
		case strings.HasPrefix(k, "expect "):
			m := expectRE.FindStringSubmatch(line)
			if m == nil {
				return nil, fmt.Errorf("expect line %q is not `expect V[-V]: starts` or `expect V[-V]: refused KFKnnnn key \"words\"`", line)
			}
			from, to := m[1], cmpOr(m[2], m[1])
			i, j := slices.Index(parityVersions, from), slices.Index(parityVersions, to)
			if i < 0 || j < i {
				return nil, fmt.Errorf("expect line %q: versions %s-%s not within %v", line, from, to, parityVersions)
			}
			c.expects = append(c.expects, parityExpect{versions: parityVersions[i : j+1], starts: m[3] != "",
				rule: m[4], key: m[5], says: m[6]})
		default:
			return nil, fmt.Errorf("unknown header %q", k)
		}
	}
	from := cmpOr(c.test, c.source)
	if (c.test == "") == (c.source == "") || !strings.Contains(from, "#") || c.release == "" || len(c.expects) == 0 {
		return nil, errors.New("a case needs kafka-test or kafka-source (file#method), release and at least one expect line")
	}
	seen := map[string]bool{}
	for _, e := range c.expects {
		for _, v := range e.versions {
			if seen[v] {
				return nil, fmt.Errorf("version %s is expected twice", v)
			}
			seen[v] = true
		}
	}
	return c, nil
}

// keyLine is the line of the last occurrence of key in a properties text
// (the one Java's Properties keeps), 1 for "-" (a missing key).
func keyLine(content, key string) int {
	if key == "-" {
		return 1
	}
	line := 0
	for i, l := range strings.Split(content, "\n") {
		l = strings.TrimLeft(l, " \t")
		if rest, ok := strings.CutPrefix(l, key); ok && (rest == "" || strings.ContainsAny(rest[:1], "=: \t")) {
			line = i + 1
		}
	}
	return line
}

func loadParityCases(t *testing.T) []*parityCase {
	t.Helper()
	var cases []*parityCase
	err := filepath.WalkDir("testdata/kafka-parity", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".case") {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		c, err := parseParityCase(p, string(data))
		if err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
		cases = append(cases, c)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return cases
}

func TestKafkaParity(t *testing.T) {
	e, err := Builtin()
	if err != nil {
		t.Fatal(err)
	}
	cases := loadParityCases(t)
	methods := map[string]bool{}
	for _, c := range cases {
		if c.test != "" {
			methods[c.test] = true
		}
		for _, exp := range c.expects {
			for _, v := range exp.versions {
				t.Run(strings.TrimSuffix(strings.TrimPrefix(c.path, "testdata/kafka-parity/"), ".case")+"@"+v, func(t *testing.T) {
					findings := evalParity(t, e, c, v)
					checkParity(t, c, exp, v, findings)
				})
			}
		}
	}
	// The suite's promise is breadth: a shrinking suite fails here.
	if len(methods) < parityMinMethods {
		t.Errorf("the parity suite covers %d Kafka test methods, want at least %d", len(methods), parityMinMethods)
	}
}

// parityMinMethods is the number of distinct Kafka test methods the suite
// must keep covering; raise it as cases are added.
const parityMinMethods = 107

func evalParity(t *testing.T, e *Engine, c *parityCase, v string) []report.Finding {
	t.Helper()
	res, err := loader.LoadSources([]loader.Source{{Name: "case/" + c.file, Data: []byte(c.content)}},
		loader.Options{Environment: "development", KafkaVersion: v, DefaultKeys: e.DefaultKeys()})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Errors) > 0 {
		t.Fatalf("load errors: %+v", res.Errors)
	}
	if len(res.Clusters) == 0 {
		t.Fatalf("%s: the loader found no configuration in the case", c.path)
	}
	var out []report.Finding
	for _, cl := range res.Clusters {
		fs, err := e.Evaluate(t.Context(), cl)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, fs...)
	}
	return out
}

func checkParity(t *testing.T, c *parityCase, exp parityExpect, v string, findings []report.Finding) {
	t.Helper()
	var errs []string
	found := false
	want := keyLine(c.content, exp.key)
	for _, f := range findings {
		if f.Severity != report.Error {
			continue
		}
		if !exp.starts && f.ID == exp.rule && f.Line == want && strings.Contains(f.Message+" "+f.Why, exp.says) {
			found = true
			continue
		}
		if _, ok := c.tolerate[f.ID]; ok {
			continue
		}
		errs = append(errs, fmt.Sprintf("%s:%d %s %s", c.file, f.Line, f.ID, f.Message))
	}
	where := fmt.Sprintf("%s (Kafka %s, %s at %s; case file line %d+)", c.path, v, cmpOr(c.test, c.source), c.release, c.firstLine)
	if exp.starts {
		if len(errs) > 0 {
			t.Errorf("%s: Kafka starts this configuration, kafkalint reports errors:\n  %s", where, strings.Join(errs, "\n  "))
		}
		return
	}
	if want == 0 {
		t.Fatalf("%s: key %s is not in the configuration", where, exp.key)
	}
	if !found {
		t.Errorf("%s: Kafka refuses it (%q); want %s at line %d quoting it, got errors:\n  %s",
			where, exp.says, exp.rule, want, strings.Join(errs, "\n  "))
	}
}

// TestParityCaseFormat keeps the case reader honest: a malformed case is
// refused, not silently skipped.
func TestParityCaseFormat(t *testing.T) {
	for _, bad := range []string{
		"kafka-test: a#b\nrelease: 4.3.1\nexpect 4.3: starts\nprocess.roles=broker\n",             // no ---
		"kafka-test: a#b\nrelease: 4.3.1\n---\nx=1\n",                                             // no expect
		"kafka-test: a\nrelease: 4.3.1\nexpect 4.3: starts\n---\nx=1\n",                           // no #method
		"kafka-test: a#b\nrelease: 4.3.1\nexpect 4.4: starts\n---\nx=1\n",                         // unknown version
		"kafka-test: a#b\nrelease: 4.3.1\nexpect 4.3: starts\nexpect 4.0-4.3: starts\n---\nx=1\n", // twice
		"kafka-test: a#b\nrelease: 4.3.1\nexpect 4.3: refused KFK9007 x\n---\nx=1\n",              // no words
		"kafka-test: a#b\nrelease: 4.3.1\ntolerate: KFK3014\nexpect 4.3: starts\n---\nx=1\n",      // no reason
	} {
		if _, err := parseParityCase("bad.case", bad); err == nil {
			t.Errorf("case accepted:\n%s", bad)
		}
	}
	c, err := parseParityCase("ok.case", "kafka-test: a#b\nrelease: 4.3.1 x\nexpect 3.9-4.1: refused KFK9007 b \"w\"\n---\na=1\nb=2\n b = 3\n")
	if err != nil {
		t.Fatal(err)
	}
	if got := c.expects[0].versions; !slices.Equal(got, []string{"3.9", "4.0", "4.1"}) {
		t.Errorf("versions = %v", got)
	}
	if got := keyLine(c.content, "b"); got != 3 {
		t.Errorf("keyLine(b) = %d, want 3 (the last occurrence)", got)
	}
	if got := keyLine(c.content, "-"); got != 1 {
		t.Errorf("keyLine(-) = %d, want 1", got)
	}
	if got := keyLine("ab=1\n", "a"); got != 0 {
		t.Errorf("keyLine matched a key prefix: %d", got)
	}
}
