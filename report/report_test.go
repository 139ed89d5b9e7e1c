package report

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// testInput is testdata/in-report.json: a report plus the parts the JSON
// contract leaves out (suppressed findings, rules, linted files).
type testInput struct {
	Report     Report `json:"report"`
	Suppressed []struct {
		Finding
		Suppression Suppression `json:"suppression"`
	} `json:"suppressed"`
	Rules  []Rule   `json:"rules"`
	Linted []string `json:"linted"`
}

func loadInput(t *testing.T) *Report {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "in-report.json"))
	if err != nil {
		t.Fatal(err)
	}
	var in testInput
	if err := json.Unmarshal(data, &in); err != nil {
		t.Fatal(err)
	}
	r := in.Report
	for _, s := range in.Suppressed {
		f := s.Finding
		f.Suppression = &s.Suppression
		r.Suppressed = append(r.Suppressed, f)
	}
	r.Rules, r.Linted = in.Rules, in.Linted
	r.Finish()
	return &r
}

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./report -update)", err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s mismatch (-want +got):\n%s", name, diff)
	}
}

func TestGolden(t *testing.T) {
	for _, format := range Formats() {
		t.Run(format, func(t *testing.T) {
			r := loadInput(t)
			var out, summary bytes.Buffer
			opts := Options{ToolVersion: "v1.2.3"}
			if format == FormatGitHub {
				opts.StepSummary = &summary
			}
			if err := Write(&out, format, r, opts); err != nil {
				t.Fatal(err)
			}
			golden(t, "out."+format+".golden", out.Bytes())
			if format == FormatGitHub {
				golden(t, "out.github-summary.md.golden", summary.Bytes())
			}
		})
	}
}

// TestGoldenVerboseText is the text format with every finding's why and
// fix (lint -v), at 80 columns and at 200.
func TestGoldenVerboseText(t *testing.T) {
	for _, width := range []int{80, 200} {
		var out bytes.Buffer
		if err := Write(&out, FormatText, loadInput(t), Options{Verbose: true, Width: width}); err != nil {
			t.Fatal(err)
		}
		golden(t, fmt.Sprintf("out.text-verbose-%d.golden", width), out.Bytes())
	}
}

func TestWriteUnknownFormat(t *testing.T) {
	if err := Write(&bytes.Buffer{}, "xml", &Report{}, Options{}); err == nil {
		t.Error("Write accepted an unknown format")
	}
}

// officialSARIFSchema compiles the official SARIF 2.1.0 schema, vendored in
// third_party/sarif so that the schema tests run on every clone.
func officialSARIFSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "third_party", "sarif", "sarif-schema-2.1.0.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("sarif.json", doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("sarif.json")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestSARIFMatchesSchema(t *testing.T) {
	schema := officialSARIFSchema(t)
	reports := map[string]*Report{"sample": loadInput(t), "empty": {}, "capped": cappedReport(), "related omitted": omittedReport()}
	reports["empty"].Finish()
	for name, r := range reports {
		// Uncapped, and capped (a notification with a descriptor and
		// properties) where the report has more than 4 results.
		for _, limit := range []int{0, 4} {
			var out bytes.Buffer
			if err := writeSARIF(&out, r, Options{ToolVersion: "dev", MaxResults: limit}); err != nil {
				t.Fatal(err)
			}
			v, err := jsonschema.UnmarshalJSON(&out)
			if err != nil {
				t.Fatal(err)
			}
			if err := schema.Validate(v); err != nil {
				t.Errorf("%s, --max-results %d: SARIF output does not match the 2.1.0 schema: %v", name, limit, err)
			}
		}
	}
	// The schema must be able to fail: a result without a message is invalid.
	bad, _ := jsonschema.UnmarshalJSON(strings.NewReader(`{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"x"}},"results":[{"ruleId":"A"}]}]}`))
	if schema.Validate(bad) == nil {
		t.Error("schema accepted a result without a message")
	}
}

type sarifOut struct {
	Runs []struct {
		Tool struct {
			Driver struct {
				Rules []struct {
					ID string `json:"id"`
				} `json:"rules"`
			} `json:"driver"`
		} `json:"tool"`
		Results []struct {
			RuleID              string            `json:"ruleId"`
			RuleIndex           int               `json:"ruleIndex"`
			PartialFingerprints map[string]string `json:"partialFingerprints"`
			Suppressions        []struct {
				Kind          string `json:"kind"`
				Justification string `json:"justification"`
			} `json:"suppressions"`
			Locations []struct {
				PhysicalLocation struct {
					ArtifactLocation struct {
						URI string `json:"uri"`
					} `json:"artifactLocation"`
				} `json:"physicalLocation"`
			} `json:"locations"`
		} `json:"results"`
	} `json:"runs"`
}

func decodeSARIF(t *testing.T, r *Report) sarifOut {
	t.Helper()
	var out bytes.Buffer
	if err := writeSARIF(&out, r, Options{ToolVersion: "dev"}); err != nil {
		t.Fatal(err)
	}
	var s sarifOut
	if err := json.Unmarshal(out.Bytes(), &s); err != nil {
		t.Fatal(err)
	}
	return s
}

func TestSARIFRuleIndexAndSuppressions(t *testing.T) {
	s := decodeSARIF(t, loadInput(t))
	run := s.Runs[0]
	suppressed := map[string]string{}
	for _, res := range run.Results {
		if got := run.Tool.Driver.Rules[res.RuleIndex].ID; got != res.RuleID {
			t.Errorf("result %s has ruleIndex %d pointing at %s", res.RuleID, res.RuleIndex, got)
		}
		for _, sup := range res.Suppressions {
			suppressed[res.RuleID] = sup.Kind + ": " + sup.Justification
		}
	}
	want := map[string]string{
		"KFK1004": "inSource: replay cluster: data is rebuilt from the source of truth",
		"KFK4002": "external: recorded in baseline .kafkalint-baseline.json",
	}
	if diff := cmp.Diff(want, suppressed); diff != "" {
		t.Errorf("suppressions mismatch (-want +got):\n%s", diff)
	}
	if n := len(run.Results); n != 6 {
		t.Errorf("%d results, want the 4 findings and 2 suppressed ones", n)
	}
}

func TestFingerprintsIgnoreLines(t *testing.T) {
	base := Finding{ID: "KFK1001", File: "a/server.properties", Key: "offsets.topic.replication.factor", Line: 14}
	fp := func(fs ...Finding) []string {
		r := &Report{Findings: fs}
		r.Finish()
		var out []string
		for _, f := range r.Findings {
			out = append(out, f.Fingerprint)
		}
		return out
	}
	moved := base
	moved.Line, moved.Column, moved.Message = 40, 3, "other text"
	if a, b := fp(base), fp(moved); a[0] != b[0] {
		t.Errorf("fingerprint changed when only the line moved: %s vs %s", a[0], b[0])
	}
	for name, change := range map[string]func(*Finding){
		"rule": func(f *Finding) { f.ID = "KFK1002" },
		"file": func(f *Finding) { f.File = "b/server.properties" },
		"key":  func(f *Finding) { f.Key = "transaction.state.log.replication.factor" },
	} {
		other := base
		change(&other)
		if fp(base)[0] == fp(other)[0] {
			t.Errorf("fingerprint did not change with the %s", name)
		}
	}
	// The same rule, file and key twice (a key repeated in one file): the
	// ordinal keeps the fingerprints apart.
	second := base
	second.Line = 30
	got := fp(base, second)
	if got[0] == got[1] || !strings.HasSuffix(got[0], ":1") || !strings.HasSuffix(got[1], ":2") {
		t.Errorf("fingerprints of two findings on one key = %v, want distinct :1 and :2", got)
	}
	// A suppressed finding keeps its number, so the other one keeps its own.
	r := &Report{Findings: []Finding{second}, Suppressed: []Finding{base}}
	r.Finish()
	if r.Findings[0].Fingerprint != got[1] {
		t.Errorf("suppressing the first finding renumbered the second: %s, want %s", r.Findings[0].Fingerprint, got[1])
	}
}

func TestGitHubEscaping(t *testing.T) {
	if got, want := escapeData("100% done\r\nnext: a,b"), "100%25 done%0D%0Anext: a,b"; got != want {
		t.Errorf("escapeData = %q, want %q", got, want)
	}
	if got, want := escapeProperty("100% a:b,c\r\nd"), "100%25 a%3Ab%2Cc%0D%0Ad"; got != want {
		t.Errorf("escapeProperty = %q, want %q", got, want)
	}
	r := &Report{Findings: []Finding{{
		ID: "KFK3002", Slug: "quorum-even-voter-count", Severity: Warning, File: "a,b:c/x%.properties", Line: 3, Column: 2,
		Message: "50% of: 4 voters,\nreally",
	}}}
	r.Finish()
	var out bytes.Buffer
	if err := writeGitHub(&out, r, Options{}); err != nil {
		t.Fatal(err)
	}
	first, _, _ := strings.Cut(out.String(), "\n")
	// The message's own newline is input: shown escaped (\n), not as a
	// line break (TestInputCannotInjectCommands).
	want := "::warning file=a%2Cb%3Ac/x%25.properties,line=3,col=2,title=KFK3002 quorum-even-voter-count::50%25 of: 4 voters,\\nreally"
	if first != want {
		t.Errorf("annotation\n got %q\nwant %q", first, want)
	}
}

func TestGitHubAnnotationLimit(t *testing.T) {
	r := &Report{}
	for i := range 13 {
		r.Findings = append(r.Findings, Finding{ID: "KFK1001", Slug: "s", Severity: Error, File: "f", Line: i + 1, Key: "k"})
	}
	for i := range 4 {
		r.Findings = append(r.Findings, Finding{ID: "KFK9001", Slug: "s", Severity: Warning, File: "f", Line: i + 1, Key: "k"})
	}
	r.Finish()
	var out bytes.Buffer
	if err := writeGitHub(&out, r, Options{}); err != nil {
		t.Fatal(err)
	}
	text := out.String()
	if !strings.HasPrefix(text, "::notice title=kafkalint::3 findings are not shown as annotations") {
		t.Errorf("no notice about the 3 errors beyond GitHub's limit:\n%s", text)
	}
	if n := strings.Count(text, "\n::error "); n != 13 {
		t.Errorf("%d error annotations, want all 13 (GitHub drops the extra ones itself)", n)
	}
	if !strings.Contains(text, "f:13:1: error KFK1001") || !strings.HasSuffix(text, "0 files, 0 clusters: 13 errors, 4 warnings, 0 info\n") {
		t.Errorf("the text report does not follow the annotations:\n%s", text)
	}
}

func TestJUnitParsesAndCounts(t *testing.T) {
	var out bytes.Buffer
	if err := WriteJUnit(&out, loadInput(t), Info); err != nil {
		t.Fatal(err)
	}
	var got junitSuites
	if err := xml.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatalf("JUnit output is not XML: %v\n%s", err, out.String())
	}
	// 4 findings in 2 files, 1 load error, 4 clean files (broker-2 has only
	// a suppressed finding; controllers 2 and 3 are only related locations).
	if got.Tests != 9 || got.Failures != 4 || got.Errors != 1 || len(got.Suites) != 7 {
		t.Errorf("tests=%d failures=%d errors=%d suites=%d, want 9, 4, 1, 7", got.Tests, got.Failures, got.Errors, len(got.Suites))
	}
	for _, s := range got.Suites {
		for _, c := range s.Cases {
			if c.Failure != nil && c.Failure.Type != Error && c.Failure.Type != Warning && c.Failure.Type != Info {
				t.Errorf("failure type %q is not a severity", c.Failure.Type)
			}
		}
	}
}

func TestTextSummaryCountsHiddenFindings(t *testing.T) {
	var out bytes.Buffer
	if err := writeText(&out, loadInput(t), textOptions{}); err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(out.String(), "; not shown: 1 suppressed inline, 1 in the baseline; 1 file could not be loaded\n") {
		t.Errorf("summary line:\n%s", out.String())
	}
	if strings.Contains(out.String(), "min.insync.replicas=1") {
		t.Errorf("text output shows a suppressed finding:\n%s", out.String())
	}
}

// The JUnit document's shape, to parse it.
type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Errors   int         `xml:"errors,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	ClassName string        `xml:"classname,attr"`
	Name      string        `xml:"name,attr"`
	File      string        `xml:"file,attr,omitempty"`
	Line      int           `xml:"line,attr,omitempty"`
	Failure   *junitProblem `xml:"failure,omitempty"`
	Error     *junitProblem `xml:"error,omitempty"`
}

type junitProblem struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Body    string `xml:",chardata"`
}

// TestFinishIsIdempotent: finishing a finished report changes nothing, so
// the command line finishes again only what its path filters changed.
// The report holds what Finish rewrites: unsorted findings, exact repeats,
// findings sharing rule, file and key (numbered fingerprints), unsorted
// related locations, suppressed findings, repeated linted files and
// unsorted errors.
func TestFinishIsIdempotent(t *testing.T) {
	r := benchReportOf(500)
	slices.Reverse(r.Findings)
	r.Findings = append(r.Findings, r.Findings[:20]...)
	for i := range r.Findings {
		if i%5 == 0 {
			r.Findings[i].Related = []Location{{File: "z.properties", Line: 2}, {File: "a.properties", Line: 9}}
		}
	}
	r.Suppressed = append(r.Suppressed, r.Findings[30:40]...)
	r.Suppressed = append(r.Suppressed, r.Findings[30:32]...)
	r.Linted = append(r.Linted, "a.properties", r.Linted[0])
	r.Errors = []LoadError{{File: "b", Message: "x"}, {File: "a", Line: 2, Message: "y"}, {File: "a", Line: 1, Message: "z"}, {File: "a", Line: 1, Column: 3, Message: "z"}}
	// The whole report: Suppressed and Linted are not in its JSON.
	whole := func() []byte {
		b, err := json.Marshal([]any{r, r.Suppressed, r.Linted})
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	r.Finish()
	once := whole()
	r.Finish()
	twice := whole()
	if !bytes.Equal(once, twice) {
		t.Errorf("a second Finish changed the report:\n%.2000s\n---\n%.2000s", once, twice)
	}
	if r.Summary.Findings != len(r.Findings) || len(r.Findings) != 500 {
		t.Errorf("%d findings (summary %d), want 500: the exact repeats dropped once", len(r.Findings), r.Summary.Findings)
	}
}
