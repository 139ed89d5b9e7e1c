package report

import (
	"encoding/xml"
	"fmt"
	"io"
	"slices"
	"strings"
)

// JUnit XML in the Ant/Surefire shape that Jenkins, GitLab and Azure
// Pipelines read: one testsuite per file, one failing testcase per finding
// (failure type = severity), one passing testcase for a clean file, and an
// errored testcase for a file that could not be loaded.

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

// WriteJUnit writes the report as JUnit XML. Test case names hold the rule
// and the logical key, not the message or line, so CI history tracks a
// finding across edits.
func WriteJUnit(w io.Writer, r *Report) error {
	byFile := map[string]*junitSuite{}
	suite := func(file string) *junitSuite {
		s := byFile[file]
		if s == nil {
			s = &junitSuite{Name: file}
			byFile[file] = s
		}
		return s
	}
	for _, f := range r.Findings {
		s := suite(f.File)
		name := f.ID + " " + f.Slug
		if f.Key != "" {
			name += ": " + f.Key
		}
		// A key repeated in one file gives several findings with one name;
		// the fingerprint's ordinal tells them apart.
		if _, n, ok := strings.Cut(f.Fingerprint, ":"); ok && n != "1" {
			name += " #" + n
		}
		var body strings.Builder
		fmt.Fprintf(&body, "%s:%d:%d: %s %s %s\n", f.File, f.Line, max(f.Column, 1), f.Severity, f.ID, f.Message)
		for _, rel := range f.Related {
			fmt.Fprintf(&body, "related: %s:%d\n", rel.File, rel.Line)
		}
		if f.DocsURL != "" {
			fmt.Fprintf(&body, "docs: %s\n", f.DocsURL)
		}
		s.Cases = append(s.Cases, junitCase{
			ClassName: f.File, Name: name, File: f.File, Line: f.Line,
			Failure: &junitProblem{Message: f.Message, Type: f.Severity, Body: body.String()},
		})
		s.Failures++
	}
	for _, e := range r.Errors {
		s := suite(e.File)
		s.Cases = append(s.Cases, junitCase{
			ClassName: e.File, Name: "load", File: e.File, Line: e.Line,
			Error: &junitProblem{Message: e.Message, Type: "load error", Body: e.Message},
		})
		s.Errors++
	}
	for _, file := range r.Linted {
		if _, ok := byFile[file]; !ok {
			suite(file).Cases = []junitCase{{ClassName: file, Name: "kafkalint", File: file}}
		}
	}
	out := junitSuites{Name: "kafkalint"}
	files := make([]string, 0, len(byFile))
	for f := range byFile {
		files = append(files, f)
	}
	slices.Sort(files)
	for _, f := range files {
		s := byFile[f]
		s.Tests = len(s.Cases)
		out.Tests += s.Tests
		out.Failures += s.Failures
		out.Errors += s.Errors
		out.Suites = append(out.Suites, *s)
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(out); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}
