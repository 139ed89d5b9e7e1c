package report

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// TestOutputDocNamesJSONFields: the field table of docs/output.md, the
// JSON contract, names every field of a finding and of the summary (why
// and fix included).
func TestOutputDocNamesJSONFields(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "docs", "output.md"))
	if err != nil {
		t.Fatal(err)
	}
	// The field table of the JSON section.
	_, section, _ := strings.Cut(string(data), "\n## JSON")
	section, _, _ = strings.Cut(section, "\n## ")
	var rows strings.Builder
	for line := range strings.Lines(section) {
		if strings.HasPrefix(line, "| ") {
			rows.WriteString(line)
		}
	}
	doc := rows.String()
	for _, v := range []any{Finding{}, Summary{}, Location{}} {
		typ := reflect.TypeOf(v)
		for i := range typ.NumField() {
			name, _, _ := strings.Cut(typ.Field(i).Tag.Get("json"), ",")
			if name == "" || name == "-" {
				continue
			}
			// `name`, `summary.name` or `name[]`, as the tables write them.
			if !regexp.MustCompile("[`.]" + regexp.QuoteMeta(name) + "(\\[\\])?`").MatchString(doc) {
				t.Errorf("docs/output.md does not document %s.%s", typ.Name(), name)
			}
		}
	}
}

// TestJSONWhyAndFixAlwaysPresent: every finding of the JSON report has
// why and fix, empty ones included, as docs/output.md says.
func TestJSONWhyAndFixAlwaysPresent(t *testing.T) {
	r := &Report{Findings: []Finding{{ID: "KFK1001", Message: "m", Why: "w", Fix: "f"}, {ID: "KFK9001", Message: "m"}}}
	r.Finish()
	var out bytes.Buffer
	if err := writeJSON(&out, r); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Findings []map[string]any `json:"findings"`
	}
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	for i, want := range [][2]string{{"w", "f"}, {"", ""}} {
		why, okWhy := got.Findings[i]["why"]
		fix, okFix := got.Findings[i]["fix"]
		if !okWhy || !okFix || why != want[0] || fix != want[1] {
			t.Errorf("finding %d: why %v (%v), fix %v (%v); want %q, %q", i, why, okWhy, fix, okFix, want[0], want[1])
		}
	}
}
