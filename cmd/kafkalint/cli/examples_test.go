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
// to the next setting line; `# want-file: KFK4002` to the file (line 1). An
// optional `related=file:line;file:line` (paths as findings show them)
// requires exactly those related locations for each id of the marker; a
// marker without it leaves related locations unchecked.
// Rule ids are built-in (KFKxxxx) or custom (ACME001); each test keeps the
// ids it checks.
var wantRE = regexp.MustCompile(`[#!]\s*want(-file)?:\s*([A-Z][A-Z0-9]*-?\d+(?:\s*,\s*[A-Z][A-Z0-9]*-?\d+)*)(?:\s+related=(\S+))?`)

// builtinID keeps the built-in rules' ids.
func builtinID(id string) bool { return strings.HasPrefix(id, "KFK") }

// readWants collects "file:line:ID" expectations, for the rule ids keep
// accepts, from every file under root.
func readWants(t *testing.T, root string, keep func(id string) bool) []string {
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
				var ids []string
				for id := range strings.SplitSeq(strings.ReplaceAll(m[2], " ", ""), ",") {
					if keep(id) {
						ids = append(ids, id+relatedSuffix(strings.Split(m[3], ";")))
					}
				}
				// A marker after code on its own line (a YAML or HCL trailing
				// comment) targets that line, as do markers pending above it.
				at := wantRE.FindStringIndex(text)
				code := strings.TrimSpace(text[:at[0]])
				trailing := code != "" && !strings.HasPrefix(code, "#") && !strings.HasPrefix(code, "!")
				switch {
				case m[1] == "-file":
					for _, id := range ids {
						wants = append(wants, fmt.Sprintf("%s:1:%s", rel, id))
					}
				case trailing:
					for _, id := range append(pending, ids...) {
						wants = append(wants, fmt.Sprintf("%s:%d:%s", rel, line, id))
					}
					pending = nil
				default:
					pending = append(pending, ids...)
				}
				if !trailing {
					continue
				}
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

// relatedSuffix renders related locations for a want or finding key: ""
// when none are given, else " related=" and the sorted locations.
func relatedSuffix(locs []string) string {
	locs = slices.DeleteFunc(slices.Clone(locs), func(l string) bool { return l == "" })
	if len(locs) == 0 {
		return ""
	}
	slices.Sort(locs)
	return " related=" + strings.Join(locs, ";")
}

// TestExamples lints examples/ and requires exactly the findings its want
// markers announce, and that every rule fires in some example.
func TestExamples(t *testing.T) {
	t.Chdir(repoRoot(t))
	wants := readWants(t, "examples", builtinID)
	if len(wants) == 0 {
		t.Fatal("no want markers found under examples/")
	}
	_, rep := lintJSON(t, "examples")
	if len(rep.Errors) > 0 {
		t.Errorf("examples have load errors: %+v", rep.Errors)
	}
	// Findings whose (file, line, id) has a marker with related= carry
	// their related locations in the comparison.
	checkRelated := map[string]bool{}
	for _, w := range wants {
		if base, _, ok := strings.Cut(w, " related="); ok {
			checkRelated[base] = true
		}
	}
	var got []string
	fired := map[string]bool{}
	for _, f := range rep.Findings {
		key := fmt.Sprintf("%s:%d:%s", f.File, f.Line, f.ID)
		if checkRelated[key] {
			var locs []string
			for _, r := range f.Related {
				locs = append(locs, fmt.Sprintf("%s:%d", r.File, r.Line))
			}
			key += relatedSuffix(locs)
		}
		got = append(got, key)
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
