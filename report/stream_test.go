package report

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// bigReport is a generated report that exercises every branch of the
// writers: many files, suppressed findings of both kinds, load errors with
// and without a line, clean linted files, related locations with and
// without columns, and text that needs escaping in JSON, XML and SARIF
// links (quotes, <&>, brackets, newlines, non-ASCII).
func bigReport(n int) *Report {
	r := benchReportOf(n)
	odd := []string{`"quoted" <b>&amp;</b>`, "two\nlines\r\tand tab", "brackets [x](1) ]", "ünïcødé 💥", `back\slash`, ""}
	for i := range r.Findings {
		f := &r.Findings[i]
		if i%7 == 0 {
			f.Message += " " + odd[i%len(odd)]
			f.File = fmt.Sprintf("dir %d/%s & co/server.properties", i%3, odd[i%len(odd)])
		}
		if i%11 == 0 {
			f.Column = 0
			f.Key = ""
		}
		if i%13 == 0 {
			f.Related = append(f.Related, Location{File: f.File, Line: 1, Column: 4})
		}
		if i%17 == 0 {
			f.Environment, f.Cluster, f.Slug = "", "", ""
		}
	}
	for i := range n / 20 {
		f := r.Findings[i*19%len(r.Findings)]
		f.Line += 1000
		f.Suppression = &Suppression{Kind: SuppressedInSource, Justification: "reason " + odd[i%len(odd)]}
		if i%2 == 1 {
			f.Suppression = &Suppression{Kind: SuppressedExternal, Justification: "recorded in baseline b.json"}
		}
		r.Suppressed = append(r.Suppressed, f)
	}
	for i := range n/100 + 1 {
		r.Errors = append(r.Errors, LoadError{File: fmt.Sprintf("broken-%d/%s.properties", i, odd[i%len(odd)]), Line: i % 3, Message: "bad <escape> " + odd[i%len(odd)]})
		r.Linted = append(r.Linted, fmt.Sprintf("clean-%d/server.properties", i))
	}
	// A finding of a rule that is not in r.Rules (a custom policy).
	r.Findings = append(r.Findings, Finding{ID: "CUSTOM1", Slug: "custom", Severity: Warning, File: "zz/x.properties", Line: 2, Message: "m"})
	r.Finish()
	return r
}

// TestBigReportOutput: every format's output for a generated report of
// 20,000 findings (-short: 2,000) is deterministic and has the SHA-256
// recorded in testdata/big-report.sha256 (rewritten with -update). The
// hashes were first recorded from the whole-document writers the
// streaming ones replaced, so byte-identical output is kept under test
// without committing a big file.
func TestBigReportOutput(t *testing.T) {
	n := 20000
	if testing.Short() {
		n = 2000
	}
	r := bigReport(n)
	var got []string
	for _, format := range Formats() {
		var a, b bytes.Buffer
		for _, out := range []*bytes.Buffer{&a, &b} {
			if err := Write(out, format, r, Options{ToolVersion: "v1.2.3"}); err != nil {
				t.Fatal(err)
			}
		}
		if !bytes.Equal(a.Bytes(), b.Bytes()) {
			t.Errorf("%s: two writes of one report differ", format)
		}
		got = append(got, fmt.Sprintf("%d %s %x\n", n, format, sha256.Sum256(a.Bytes())))
	}
	slices.Sort(got)
	path := filepath.Join("testdata", "big-report.sha256")
	data, err := os.ReadFile(path)
	if err != nil && !*update {
		t.Fatalf("%v (run go test ./report -update)", err)
	}
	// The file holds the hashes of both sizes; only this size's lines are
	// compared or rewritten.
	var keep, want []string
	for line := range strings.Lines(string(data)) {
		if strings.HasPrefix(line, strconv.Itoa(n)+" ") {
			want = append(want, line)
		} else {
			keep = append(keep, line)
		}
	}
	if *update {
		keep = append(keep, got...)
		slices.Sort(keep)
		if err := os.WriteFile(path, []byte(strings.Join(keep, "")), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if diff := cmp.Diff(strings.Join(want, ""), strings.Join(got, "")); diff != "" {
		t.Errorf("output of the %d-finding report changed (-recorded +now):\n%s", n, diff)
	}
}

// countingWriter counts the bytes written to it.
type countingWriter struct{ n int }

func (c *countingWriter) Write(p []byte) (int, error) { c.n += len(p); return len(p), nil }

// allocated is the bytes allocated while write runs, and the bytes it wrote.
func allocated(t testing.TB, write func(io.Writer) error) (alloc uint64, size int) {
	var before, after runtime.MemStats
	var out countingWriter
	runtime.GC()
	runtime.ReadMemStats(&before)
	if err := write(&out); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc, out.n
}

// TestStreamingAllocations: writing a report allocates far less than the
// document it writes (the whole-document writers allocated it two to
// three times over), so memory no longer grows with the output.
func TestStreamingAllocations(t *testing.T) {
	r := bigReport(10000)
	for _, format := range Formats() {
		alloc, size := allocated(t, func(w io.Writer) error { return Write(w, format, r, Options{}) })
		t.Logf("%s: %d bytes written, %d allocated", format, size, alloc)
		// text and github build each line in memory (a few hundred
		// bytes) and are not part of the bound.
		if format != FormatText && format != FormatGitHub && alloc > uint64(size)/4 {
			t.Errorf("%s: writing %d bytes allocated %d: more than a quarter of the document", format, size, alloc)
		}
	}
}
