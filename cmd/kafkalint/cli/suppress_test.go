package cli

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/kafkalint/kafkalint/report"
)

// cleanBroker is a production broker no rule reports.
const cleanBroker = "process.roles=broker\nnode.id=4\ncontroller.quorum.bootstrap.servers=c1.example.com:9093\ncontroller.listener.names=CONTROLLER\ncontrolled.shutdown.enable=true\n"

// found lists findings as "file:line:ID", by file, line and id.
func found(rep report.Report) []string {
	fs := slices.Clone(rep.Findings)
	slices.SortFunc(fs, func(a, b report.Finding) int {
		return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line), cmp.Compare(a.ID, b.ID))
	})
	var out []string
	for _, f := range fs {
		out = append(out, fmt.Sprintf("%s:%d:%s", f.File, f.Line, f.ID))
	}
	return out
}

// TestSuppressedFindingsOnlyInSARIF: suppressed findings are left out of
// text, json, github and junit, and are in SARIF with a suppression.
func TestSuppressedFindingsOnlyInSARIF(t *testing.T) {
	t.Chdir(t.TempDir())
	isolate(t)
	writeFile(t, "prod/server.properties", cleanBroker+"# kafkalint:ignore KFK1001 -- replay cluster\noffsets.topic.replication.factor=1\n")
	for _, format := range []string{"text", "json", "github", "junit"} {
		code, out, _ := run(t, "lint", "--format", format, "prod")
		if code != ExitOK || strings.Contains(out, "KFK1001") {
			t.Errorf("--format %s: exit %d, output mentions the suppressed finding:\n%s", format, code, out)
		}
	}
	code, out, _ := run(t, "lint", "--format", "sarif", "prod")
	var log struct {
		Runs []struct {
			Results []struct {
				RuleID       string `json:"ruleId"`
				Suppressions []struct {
					Kind          string `json:"kind"`
					Justification string `json:"justification"`
				} `json:"suppressions"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(out), &log); err != nil {
		t.Fatal(err)
	}
	if code != ExitOK || len(log.Runs) != 1 || len(log.Runs[0].Results) != 1 {
		t.Fatalf("sarif: exit %d, %+v", code, log)
	}
	r := log.Runs[0].Results[0]
	if r.RuleID != "KFK1001" || len(r.Suppressions) != 1 || r.Suppressions[0].Kind != "inSource" || r.Suppressions[0].Justification != "replay cluster" {
		t.Errorf("sarif result = %+v, want KFK1001 suppressed inSource with the reason", r)
	}
}
