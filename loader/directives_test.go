package loader

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kafkalint/kafkalint/loader/doc"
)

func TestParseDirectives(t *testing.T) {
	comments := []Comment{
		{Line: 1, Text: " kafkalint:ignore-file KFK4002 -- set by the deployment tool"},
		{Line: 2, Text: " a plain comment"},
		{Line: 4, Text: " kafkalint:ignore KFK1001, KFK1002 -- replay cluster"},
		{Line: 5, Text: " stacked comment between the directive and its line"},
		{Line: 7, Text: "kafkalint:ignore offsets-topic-replication-factor-one -- slug form, ! marker"},
		{Line: 9, Text: " kafkalint:ignore KFK1001", Trailing: true},
		{Line: 11, Text: " kafkalint:ignore KFK1001 legacy clients"},
		{Line: 13, Text: " kafkalint:ignore -- no rule"},
		{Line: 15, Text: " kafkalint:ignore KFK1001 KFK1002 -- space separated"},
		{Line: 17, Text: " kafkalint:disable KFK1001 -- wrong word"},
		{Line: 19, Text: " kafkalint: ignore KFK1001 -- space after colon"},
		{Line: 21, Text: " kafkalint: this file is checked in CI"},
		{Line: 23, Text: " kafkalint:ignore-file KFK4002 -- too late"},
		{Line: 25, Text: " kafkalint:ignore KFK1001 --   "},
		{Line: 27, Text: " kafkalint:ignore KFK1001 stray -- reason"},
		{Line: 29, Text: " kafkalint:ignore:KFK1001 -- colon"},
		{Line: 31, Text: " kafkalint:ignore KFK10@1 -- bad token"},
	}
	got := ParseDirectives("f.properties", comments, 3)
	want := []Directive{
		{File: "f.properties", Line: 1, Kind: "ignore-file", Rules: []string{"KFK4002"}, Reason: "set by the deployment tool"},
		{File: "f.properties", Line: 4, Target: 6, Kind: "ignore", Rules: []string{"KFK1001", "KFK1002"}, Reason: "replay cluster"},
		{File: "f.properties", Line: 7, Target: 8, Kind: "ignore", Rules: []string{"offsets-topic-replication-factor-one"}, Reason: "slug form, ! marker"},
		{File: "f.properties", Line: 9, Target: 9, Kind: "ignore", Rules: []string{"KFK1001"},
			ReasonHint: "add one after `--`, as in `kafkalint:ignore KFK1001 -- why this is acceptable here`"},
		{File: "f.properties", Line: 11, Target: 12, Kind: "ignore", Rules: []string{"KFK1001"},
			ReasonHint: "the reason must follow `--`, as in `kafkalint:ignore KFK1001 -- legacy clients`"},
		{File: "f.properties", Line: 13, Kind: "ignore", Reason: "no rule",
			Problem: "kafkalint:ignore names no rule: write `kafkalint:ignore KFKxxxx -- reason`"},
		{File: "f.properties", Line: 15, Kind: "ignore", Rules: []string{"KFK1001"}, Reason: "space separated",
			Problem: "separate rule ids with commas, as in `kafkalint:ignore KFK1001,KFK1002 -- reason`"},
		{File: "f.properties", Line: 17, Kind: "ignore",
			Problem: "unknown directive \"kafkalint:disable\": write `kafkalint:ignore RULE -- reason` or `kafkalint:ignore-file RULE -- reason`"},
		{File: "f.properties", Line: 19, Kind: "ignore", Problem: "write `kafkalint:ignore` without a space after the colon"},
		{File: "f.properties", Line: 23, Kind: "ignore-file", Rules: []string{"KFK4002"}, Reason: "too late",
			Problem: "kafkalint:ignore-file must come before the file's first setting (line 3); move it to the top of the file"},
		{File: "f.properties", Line: 25, Target: 26, Kind: "ignore", Rules: []string{"KFK1001"},
			ReasonHint: "add one after `--`, as in `kafkalint:ignore KFK1001 -- why this is acceptable here`"},
		{File: "f.properties", Line: 27, Kind: "ignore", Rules: []string{"KFK1001"}, Reason: "reason",
			Problem: "unexpected \"stray\" between the rule list and `--`"},
		{File: "f.properties", Line: 29, Kind: "ignore",
			Problem: "unknown directive \"kafkalint:ignore:KFK1001\": write `kafkalint:ignore RULE -- reason` or `kafkalint:ignore-file RULE -- reason`"},
		{File: "f.properties", Line: 31, Kind: "ignore", Rules: []string{"KFK10@1"}, Reason: "bad token",
			Problem: "\"KFK10@1\" is not a rule id or slug"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("directives mismatch (-want +got):\n%s", diff)
	}
}

func TestDirectiveText(t *testing.T) {
	d := Directive{Kind: DirectiveIgnoreFile, Rules: []string{"KFK4002", "duplicate-key"}}
	if got := d.Text(); got != "kafkalint:ignore-file KFK4002,duplicate-key" {
		t.Errorf("Text() = %q", got)
	}
}

func TestIgnoreFileWithoutSettings(t *testing.T) {
	// A file whose first setting is unknown (0): ignore-file anywhere is
	// accepted rather than reported as misplaced.
	got := ParseDirectives("f", []Comment{{Line: 9, Text: "kafkalint:ignore-file KFK4002 -- r"}}, 0)
	if len(got) != 1 || got[0].Problem != "" {
		t.Errorf("got %+v, want one valid ignore-file", got)
	}
}

func TestTrailingIgnoreFileIsMisplaced(t *testing.T) {
	got := ParseDirectives("f.yaml", []Comment{{Line: 1, Text: " kafkalint:ignore-file KFK4002 -- r", Trailing: true}}, 5)
	if len(got) != 1 || !strings.Contains(got[0].Problem, "comment line of its own") {
		t.Errorf("got %+v, want a problem", got)
	}
}

// TestLoadCollectsDirectives reads a properties file: `#` and `!` comments
// both carry directives, and ignore-file must precede the first key.
func TestLoadCollectsDirectives(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "prod/server.properties", "# kafkalint:ignore-file KFK4002 -- managed by the operator\n\nprocess.roles=broker\n! kafkalint:ignore KFK1001 -- replay cluster\noffsets.topic.replication.factor=1\n# kafkalint:ignore-file KFK4003 -- late\n")
	res, err := Load([]string{dir}, Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	ds := res.Directives["prod/server.properties"]
	if len(ds) != 3 {
		t.Fatalf("directives = %+v, want 3", ds)
	}
	if ds[0].Kind != DirectiveIgnoreFile || ds[0].Problem != "" || ds[1].Target != 5 || ds[1].Reason != "replay cluster" || !strings.Contains(ds[2].Problem, "before the file's first setting (line 3)") {
		t.Errorf("directives = %+v", ds)
	}
}

func TestExcludeAndEnvironmentOf(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "kafka/a/server.properties", "process.roles=broker\nnode.id=1\n")
	write(t, dir, "kafka/testdata/server.properties", "process.roles=broker\nnode.id=2\n")
	write(t, dir, "prod/server.properties", "process.roles=broker\nnode.id=3\n")
	opts := Options{
		Dir:     dir,
		Exclude: func(abs string) bool { return strings.Contains(abs, "/testdata/") },
		EnvironmentOf: func(abs string) string {
			if strings.HasSuffix(abs, "/kafka/a/server.properties") {
				return "development"
			}
			return ""
		},
	}
	res, err := Load([]string{dir, dir + "/kafka/testdata/server.properties"}, opts)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, c := range res.Clusters {
		for _, f := range c.Files {
			got[f.Path] = f.Environment + "/" + f.EnvironmentSource
		}
	}
	want := map[string]string{"kafka/a/server.properties": "development/config", "prod/server.properties": "production/path"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("files mismatch (-want +got):\n%s", diff)
	}
	if res.Files != 2 {
		t.Errorf("Files = %d, want 2 (the excluded file is not read)", res.Files)
	}
	opts.Environment = "staging"
	res, err = Load([]string{dir + "/kafka/a"}, opts)
	if err != nil || len(res.Clusters) != 1 || res.Clusters[0].Files[0].Environment != "staging" {
		t.Errorf("--env does not win over EnvironmentOf: %+v, %v", res, err)
	}
}

// FuzzParseDirectives: any comment text parses without panicking, and a
// directive that applies names rules, has a reason (or says why not) and
// a target line.
func FuzzParseDirectives(f *testing.F) {
	for _, s := range []string{
		" kafkalint:ignore KFK1001 -- reason", "kafkalint:ignore-file KFK4002,duplicate-key --", " kafkalint: ignore KFK1",
		"kafkalint:ignore KFK1001 KFK1002 -- r", "kafkalint:ignore KFK1001 stray", "kafkalint:", "kafkalint:ignore ,, , -- x",
		"kafkalint:ignore:KFK1001", "kafkalint:ignore\tKFK1001\t--\treason", "kafkalint:ignorefile a -- b", "kafkalint:ignore é -- ü",
	} {
		f.Add(s, false)
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, text string, trailing bool) {
		for _, d := range ParseDirectives("f", []Comment{{Line: 3, Text: text, Trailing: trailing}}, 5) {
			if !strings.HasPrefix(d.Text(), "kafkalint:ignore") {
				t.Errorf("%q: Text() = %q", text, d.Text())
			}
			for _, r := range d.Rules {
				if r == "" || strings.ContainsAny(r, " \t,") {
					t.Errorf("%q: rule %q", text, r)
				}
			}
			if d.Problem != "" {
				continue
			}
			if len(d.Rules) == 0 || (d.Reason == "" && d.ReasonHint == "") {
				t.Errorf("%q: applicable directive %+v lacks rules or a reason/hint", text, d)
			}
			if d.Kind == DirectiveIgnore && d.Target != 3 && d.Target != 4 {
				t.Errorf("%q: target %d", text, d.Target)
			}
		}
	})
}

// TestPrepareKeepsCommentsOnlyForDirectives: a doc keeps its comments when
// one of them is a directive (they locate its target), else lets them go.
func TestPrepareKeepsCommentsOnlyForDirectives(t *testing.T) {
	plain := []Comment{{Line: 1, Text: " Licensed to the Apache Software Foundation"}, {Line: 2, Text: " kafkalint is a linter"}}
	withDirective := append(slices.Clone(plain), Comment{Line: 3, Text: "  kafkalint:ignore KFK1001 -- reason"})
	for _, tt := range []struct {
		comments []Comment
		want     int
	}{{plain, 0}, {withDirective, 3}} {
		d := &Doc{Doc: doc.Doc{File: "c.properties", Kind: KindClient, Comments: tt.comments}}
		prepare(d, Options{})
		if len(d.Comments) != tt.want {
			t.Errorf("%v: %d comments kept, want %d", tt.comments, len(d.Comments), tt.want)
		}
	}
}
