package report

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/xml"
	"io"
	"slices"
	"strconv"
	"strings"
)

// JUnit XML in the Ant/Surefire shape that Jenkins, GitLab and Azure
// Pipelines read: one testsuite per file, one testcase per finding, one
// passing testcase for a clean file, and an errored testcase for a file
// that could not be loaded. A finding at or above the fail level is a
// <failure> (type = severity); one below it is <skipped>, so a run that
// exits 0 does not turn Jenkins UNSTABLE or fail GitLab's test report,
// and its text is still shown: GitLab displays a skipped case's <skipped>
// body (and nothing of a passed case), Jenkins the case's <system-out>.

// junitFile is one test suite: a file's findings (indexes into
// r.Findings, in their order) and load errors, or a clean linted file.
type junitFile struct {
	name             string
	findings, errors []int
	failures         int // findings at or above the fail level
}

// WriteJUnit writes the report as JUnit XML; findings below failLevel
// ("" = Error, the CLI's default) are skipped test cases, not failures.
// Test case names hold the rule and the logical key, not the message or
// line, so CI history tracks a finding across edits. The totals come first
// in the document, so one pass groups the findings by file (indexes only);
// the test cases are then encoded one at a time.
func WriteJUnit(w io.Writer, r *Report, failLevel string) error {
	minRank := Rank(cmp.Or(failLevel, Error))
	byFile := map[string]*junitFile{}
	suite := func(file string) *junitFile {
		s := byFile[file]
		if s == nil {
			s = &junitFile{name: file}
			byFile[file] = s
		}
		return s
	}
	failures := 0
	for i, f := range r.Findings {
		s := suite(f.File)
		s.findings = append(s.findings, i)
		if Rank(f.Severity) >= minRank {
			s.failures++
			failures++
		}
	}
	for i, e := range r.Errors {
		s := suite(e.File)
		s.errors = append(s.errors, i)
	}
	for _, file := range r.Linted {
		suite(file)
	}
	files := make([]*junitFile, 0, len(byFile))
	for _, s := range byFile {
		files = append(files, s)
	}
	slices.SortFunc(files, func(a, b *junitFile) int { return cmp.Compare(a.name, b.name) })
	tests := 0
	for _, s := range files {
		tests += s.tests()
	}

	// The document is written by hand, byte for byte what xml.Encoder
	// with Indent("", "  ") wrote for the Ant/Surefire structs, because
	// building those structs and reflecting over them allocated 2.6 times
	// the document.
	x := &junitWriter{w: bufio.NewWriterSize(w, 64<<10)}
	x.raw(xml.Header)
	x.raw(`<testsuites name="kafkalint"`)
	x.intAttr("tests", tests)
	x.intAttr("failures", failures)
	x.intAttr("errors", len(r.Errors))
	x.intAttr("skipped", len(r.Findings)-failures)
	x.raw(">")
	if len(files) == 0 {
		x.raw("</testsuites>\n")
		return x.flush()
	}
	for _, s := range files {
		x.raw("\n  <testsuite")
		x.attr("name", s.name)
		x.intAttr("tests", s.tests())
		x.intAttr("failures", s.failures)
		x.intAttr("errors", len(s.errors))
		x.intAttr("skipped", len(s.findings)-s.failures)
		x.raw(">")
		for _, i := range s.findings {
			f := &r.Findings[i]
			x.findingCase(f, Rank(f.Severity) >= minRank)
		}
		for _, i := range s.errors {
			e := &r.Errors[i]
			x.testCase(e.File, "load", e.File, e.Line)
			x.problem("error", e.Message, "load error", []byte(e.Message))
			x.raw("\n    </testcase>")
		}
		if len(s.findings)+len(s.errors) == 0 {
			x.testCase(s.name, "kafkalint", s.name, 0)
			x.raw("</testcase>")
		}
		x.raw("\n  </testsuite>")
	}
	x.raw("\n</testsuites>\n")
	return x.flush()
}

// tests counts a suite's test cases: one per finding and load error, or
// the one passing case of a clean file.
func (s *junitFile) tests() int {
	return max(len(s.findings)+len(s.errors), 1)
}

// junitWriter writes XML text with encoding/xml's escaping; the first
// error sticks.
type junitWriter struct {
	w       *bufio.Writer
	body    bytes.Buffer
	name    []byte
	scratch []byte
	err     error
}

func (x *junitWriter) flush() error {
	if x.err == nil {
		x.err = x.w.Flush()
	}
	return x.err
}

func (x *junitWriter) raw(s string) {
	if x.err == nil {
		_, x.err = x.w.WriteString(s)
	}
}

// text writes s escaped as encoding/xml escapes attribute values and
// character data (newlines and tabs as character references too).
func (x *junitWriter) text(s string) {
	x.scratch = append(x.scratch[:0], s...)
	x.escape(x.scratch)
}

func (x *junitWriter) escape(b []byte) {
	if x.err == nil {
		x.err = xml.EscapeText(x.w, b)
	}
}

func (x *junitWriter) attr(name, value string) {
	x.raw(" ")
	x.raw(name)
	x.raw(`="`)
	x.text(value)
	x.raw(`"`)
}

func (x *junitWriter) intAttr(name string, n int) {
	x.raw(" ")
	x.raw(name)
	x.raw(`="`)
	x.raw(strconv.Itoa(n))
	x.raw(`"`)
}

// testCase opens a <testcase>; file and line are left out when empty.
func (x *junitWriter) testCase(class, name, file string, line int) {
	x.raw("\n    <testcase")
	x.attr("classname", class)
	x.attr("name", name)
	if file != "" {
		x.attr("file", file)
	}
	if line != 0 {
		x.intAttr("line", line)
	}
	x.raw(">")
}

// problem writes a <failure> or <error> element.
func (x *junitWriter) problem(element, message, typ string, body []byte) {
	x.raw("\n      <" + element)
	x.attr("message", message)
	x.attr("type", typ)
	x.raw(">")
	x.escape(body)
	x.raw("</" + element + ">")
}

// findingCase writes a finding's test case: failed, or skipped with the
// same text as a failure's body in <skipped> and in <system-out>. The
// message attribute is the short message; the body is the location and
// message, the why, the fix, the related locations and the docs link, a
// line each.
func (x *junitWriter) findingCase(f *Finding, failed bool) {
	// The name and body are built in reused buffers (fmt would box every
	// argument): "ID slug: key #n" and "file:line:col: severity ID message"
	// with the lines below it.
	name := x.name[:0]
	name = append(append(append(name, f.ID...), ' '), f.Slug...)
	if f.Key != "" {
		name = append(append(name, ": "...), f.Key...)
	}
	// A key repeated in one file gives several findings with one name;
	// the fingerprint's ordinal tells them apart.
	if _, n, ok := strings.Cut(f.Fingerprint, ":"); ok && n != "1" {
		name = append(append(name, " #"...), n...)
	}
	x.name = name
	b := &x.body
	b.Reset()
	location(b, f.File, f.Line)
	b.WriteByte(':')
	b.Write(strconv.AppendInt(b.AvailableBuffer(), int64(max(f.Column, 1)), 10))
	for _, s := range []string{": ", f.Severity, " ", f.ID, " ", f.Message, "\n"} {
		b.WriteString(s)
	}
	if f.Why != "" {
		b.WriteString("why: " + flatten(f.Why) + "\n")
	}
	if f.Fix != "" {
		b.WriteString("fix: " + flatten(f.Fix) + "\n")
	}
	for _, rel := range f.Related {
		b.WriteString("related: ")
		location(b, rel.File, rel.Line)
		b.WriteByte('\n')
	}
	if f.RelatedOmitted > 0 {
		b.WriteString(moreRelated(f.RelatedOmitted) + "\n")
	}
	if f.DocsURL != "" {
		b.WriteString("docs: ")
		b.WriteString(f.DocsURL)
		b.WriteByte('\n')
	}
	x.raw("\n    <testcase")
	x.attr("classname", f.File)
	x.raw(` name="`)
	x.escape(name)
	x.raw(`"`)
	x.attr("file", f.File)
	if f.Line != 0 {
		x.intAttr("line", f.Line)
	}
	x.raw(">")
	if failed {
		x.problem("failure", f.Message, f.Severity, b.Bytes())
	} else {
		x.raw("\n      <skipped")
		x.attr("message", f.Message)
		x.raw(">")
		x.escape(b.Bytes())
		x.raw("</skipped>\n      <system-out>")
		x.escape(b.Bytes())
		x.raw("</system-out>")
	}
	x.raw("\n    </testcase>")
}

// location writes "file:line".
func location(b *bytes.Buffer, file string, line int) {
	b.WriteString(file)
	b.WriteByte(':')
	b.Write(strconv.AppendInt(b.AvailableBuffer(), int64(line), 10))
}
