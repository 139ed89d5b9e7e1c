package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// TestSkippedLinks: symlinks the walk did not follow are counted and named
// in the text summary line and listed in JSON; without any, neither
// changes.
func TestSkippedLinks(t *testing.T) {
	r := &Report{Summary: Summary{Files: 1, SkippedLinks: []SkippedLink{
		{Path: "a/.env", Reason: "symlink leaves the root"},
		{Path: "b", Reason: "symlink loop"},
		{Path: "c", Reason: "symlink loop"},
		{Path: "d", Reason: "symlink loop"},
	}}}
	r.Finish()
	var b bytes.Buffer
	if err := writeText(&b, r, textOptions{}); err != nil {
		t.Fatal(err)
	}
	want := "; 4 symlinks not followed: a/.env (symlink leaves the root), b (symlink loop), c (symlink loop), 1 more\n"
	if !strings.HasSuffix(b.String(), want) {
		t.Errorf("text summary %q, want it to end with %q", b.String(), want)
	}
	js, err := json.Marshal(r.Summary)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(js), `"skipped_links":[{"path":"a/.env","reason":"symlink leaves the root"}`) {
		t.Errorf("JSON summary %s lacks skipped_links", js)
	}
	r.Summary.SkippedLinks = nil
	b.Reset()
	if err := writeText(&b, r, textOptions{}); err != nil {
		t.Fatal(err)
	}
	js, _ = json.Marshal(r.Summary)
	if strings.Contains(b.String(), "symlink") || strings.Contains(string(js), "skipped_links") {
		t.Errorf("no skipped link: text %q, JSON %s", b.String(), js)
	}
}
