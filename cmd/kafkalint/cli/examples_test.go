package cli

import (
	"bufio"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kafkalint/kafkalint/policies"
)

// wantRE matches an expectation marker: `# want: KFK1001, KFK1002` applies
// to the next setting line; `# want-file: KFK4002` to the file (line 1).
var wantRE = regexp.MustCompile(`[#!]\s*want(-file)?:\s*(KFK\d{4}(?:\s*,\s*KFK\d{4})*)`)

// readWants collects "file:line:ID" expectations from every example file.
func readWants(t *testing.T, root string) []string {
	t.Helper()
	var wants []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		rel := filepath.ToSlash(path)
		var pending []string
		sc := bufio.NewScanner(f)
		for line := 1; sc.Scan(); line++ {
			text := strings.TrimSpace(sc.Text())
			if m := wantRE.FindStringSubmatch(text); m != nil {
				ids := strings.Split(strings.ReplaceAll(m[2], " ", ""), ",")
				if m[1] == "-file" {
					for _, id := range ids {
						wants = append(wants, fmt.Sprintf("%s:1:%s", rel, id))
					}
				} else {
					pending = append(pending, ids...)
				}
				continue
			}
			if text == "" || strings.HasPrefix(text, "#") || strings.HasPrefix(text, "!") {
				continue
			}
			for _, id := range pending {
				wants = append(wants, fmt.Sprintf("%s:%d:%s", rel, line, id))
			}
			pending = nil
		}
		if len(pending) > 0 {
			t.Errorf("%s: want marker %v is not followed by a setting", rel, pending)
		}
		return sc.Err()
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(wants)
	return wants
}

// TestExamples lints examples/ and requires exactly the findings its want
// markers announce, and that every rule fires in some example.
func TestExamples(t *testing.T) {
	t.Chdir(repoRoot(t))
	wants := readWants(t, "examples")
	if len(wants) == 0 {
		t.Fatal("no want markers found under examples/")
	}
	_, rep := lintJSON(t, "examples")
	if len(rep.Errors) > 0 {
		t.Errorf("examples have load errors: %+v", rep.Errors)
	}
	var got []string
	fired := map[string]bool{}
	for _, f := range rep.Findings {
		got = append(got, fmt.Sprintf("%s:%d:%s", f.File, f.Line, f.ID))
		fired[f.ID] = true
	}
	slices.Sort(got)
	if diff := cmp.Diff(wants, got); diff != "" {
		t.Errorf("findings on examples/ mismatch (-want +got):\n%s", diff)
	}
	engine, err := policies.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range engine.Rules() {
		if !fired[r.ID] {
			t.Errorf("rule %s (%s) fires in no example under examples/", r.ID, r.Slug)
		}
	}
}
