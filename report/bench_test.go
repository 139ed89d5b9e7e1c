package report

import (
	"fmt"
	"io"
	"testing"
)

// Benchmarks of rendering (never timed assertions; run with
// go test -bench . -run '^$' ./report). A bulk audit of 10,000 files finds
// tens of thousands of findings; these render 50,000.

const benchFindings = 50000

// benchReport builds a report shaped like a bulk run's: many files of a few
// clusters each, a mix of rules and severities, related locations, and the
// long messages rules write.
func benchReport() *Report { return benchReportOf(benchFindings) }

func benchReportOf(n int) *Report {
	sevs := []string{Error, Warning, Info}
	r := &Report{Summary: Summary{Files: n / 5}}
	for i := range n {
		repo := i / 50
		file := fmt.Sprintf("repo-%05d/kafka/prod/broker-%d.properties", repo, i%7)
		f := Finding{
			ID: fmt.Sprintf("KFK%d", 1001+i%40), Slug: fmt.Sprintf("rule-slug-%d", i%40), Severity: sevs[i%3],
			Message: fmt.Sprintf("min.insync.replicas=%d with default.replication.factor=3: once the followers drop out of the "+
				"in-sync replica set the leader alone acknowledges acks=all writes, so losing that broker loses records producers "+
				"were told were safe; set min.insync.replicas=2 and use acks=all", i%4),
			File: file, Line: 1 + i%90, Column: 1, Environment: "production", Cluster: fmt.Sprintf("repo-%05d", repo),
			DocsURL: "https://github.com/kafkalint/kafkalint/blob/main/docs/rules/KFK1004.md", Key: fmt.Sprintf("key.%d", i%13),
		}
		if i%4 == 0 {
			f.Related = []Location{{File: file, Line: 3}, {File: fmt.Sprintf("repo-%05d/kafka/prod/controller-1.properties", repo), Line: 9}}
		}
		r.Findings = append(r.Findings, f)
		r.Linted = append(r.Linted, file)
	}
	for i := range 40 {
		r.Rules = append(r.Rules, Rule{ID: fmt.Sprintf("KFK%d", 1001+i), Slug: fmt.Sprintf("rule-slug-%d", i), Severity: sevs[i%3],
			Title: "A rule", Description: "What it checks.", DocsURL: "https://example.com", Help: "# help\n\nText.\n"})
	}
	return r
}

// BenchmarkFinish sorts and fingerprints the findings.
func BenchmarkFinish(b *testing.B) {
	base := benchReport()
	for b.Loop() {
		b.StopTimer()
		r := *base
		r.Findings = append([]Finding(nil), base.Findings...)
		b.StartTimer()
		r.Finish()
	}
	b.ReportMetric(float64(benchFindings*b.N)/b.Elapsed().Seconds(), "findings/s")
}

// BenchmarkWrite renders every format to io.Discard.
func BenchmarkWrite(b *testing.B) {
	r := benchReport()
	r.Finish()
	for _, format := range Formats() {
		b.Run(format, func(b *testing.B) {
			for b.Loop() {
				if err := Write(io.Discard, format, r, Options{ToolVersion: "bench", StepSummary: io.Discard}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(benchFindings*b.N)/b.Elapsed().Seconds(), "findings/s")
		})
	}
}

// BenchmarkWriteScaling writes the streaming formats for two report sizes
// (go test -bench WriteScaling -benchmem -benchtime 3x ./report). B/op
// never holds the document (output-B/op): JSON's is constant; SARIF adds
// the order of the results (8 bytes a finding) and the message text of
// the results with related locations, JUnit the per-file index (8 bytes a
// finding) — about 1/8 and 1/13 of the document, all short-lived. The
// whole-document writers allocated 2.6 (JUnit) to 11 (SARIF) times the
// document and kept it live until the end.
func BenchmarkWriteScaling(b *testing.B) {
	for _, n := range []int{5000, 20000} {
		r := benchReportOf(n)
		r.Finish()
		for _, format := range []string{formatJSON, formatSARIF, formatJUnit} {
			b.Run(fmt.Sprintf("%s/findings=%d", format, n), func(b *testing.B) {
				b.ReportAllocs()
				var out countingWriter
				for b.Loop() {
					if err := Write(&out, format, r, Options{ToolVersion: "bench"}); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(out.n)/float64(b.N), "output-B/op")
			})
		}
	}
}
