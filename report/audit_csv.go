package report

import (
	"encoding/csv"
	"io"
	"strconv"
	"strings"
)

// CSV row kinds.
const (
	csvFinding     = "finding"
	csvLoadError   = "load_error"
	csvNotAnalyzed = "not_analyzed"
)

// auditCSVHeader names the columns of the audit CSV.
var auditCSVHeader = []string{
	"repo", "kind", "file", "line", "column", "severity", "id", "slug", "message",
	"environment", "cluster", "key", "related", "docs_url", "fingerprint", "why", "fix",
}

// writeAuditCSV writes one row per finding (RFC 4180 quoting; why and fix
// are the last columns, added after the others so that a reader by
// position keeps working), then one per load error, each with its repository, so that a spreadsheet or a
// database import sees everything. Repositories come in path order,
// findings in lint's order.
func writeAuditCSV(w io.Writer, a *Audit) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(auditCSVHeader); err != nil {
		return err
	}
	err := a.each(func(r *AuditRepo) error {
		for _, f := range r.Findings {
			related := make([]string, len(f.Related))
			for i, l := range f.Related {
				related[i] = l.File + ":" + strconv.Itoa(l.Line)
			}
			row := []string{
				r.Path, csvFinding, f.File, strconv.Itoa(f.Line), strconv.Itoa(f.Column), f.Severity, f.ID, f.Slug, f.Message,
				f.Environment, f.Cluster, f.Key, strings.Join(related, "; "), f.DocsURL, f.Fingerprint, f.Why, f.Fix,
			}
			if err := cw.Write(defuse(row)); err != nil {
				return err
			}
		}
		for _, e := range r.Errors {
			kind, file, line := csvLoadError, e.File, strconv.Itoa(e.Line)
			if r.Summary.Failed && e.File == RepoFailure {
				kind, file, line = csvNotAnalyzed, "", ""
			}
			row := []string{r.Path, kind, file, line, "", "", "", "", e.Message, "", "", "", "", "", "", "", ""}
			if err := cw.Write(defuse(row)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	cw.Flush()
	return cw.Error()
}

// defuse keeps spreadsheets from running a cell as a formula: text from
// the audited repositories (a file name, a value in a message) that starts
// with = + - @ or a tab or carriage return gets a leading apostrophe
// (OWASP's CSV injection advice). Numbers are never text here.
func defuse(row []string) []string {
	for i, c := range row {
		if c != "" && strings.ContainsRune("=+-@\t\r", rune(c[0])) {
			row[i] = "'" + c
		}
	}
	return row
}
