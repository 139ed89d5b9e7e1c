package properties

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParsePositionsAndValues(t *testing.T) {
	src := "# comment\n" +
		"! bang comment\n" +
		"a=1\n" +
		"  b : two words  \n" +
		"c value with spaces\n" +
		"d=first\\\n" +
		"   second\\\n" +
		"   third\n" +
		"e=${file:/etc/secret.properties:pw}\n" +
		"f=caf\\u00e9 \\t tab\n" +
		"a=2 # not a comment\n" +
		"\r\n" +
		"g=\r\n" +
		"key\\=with\\:escapes=v\n" +
		"h=ends with backslash\\\n"
	f, err := Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	type kv struct {
		Key, Value        string
		Line, Column, End int
	}
	var got []kv
	for _, e := range f.Entries {
		got = append(got, kv{e.Key, e.Value, e.Line, e.Column, e.EndLine})
	}
	want := []kv{
		{"a", "1", 3, 1, 3},
		{"b", "two words  ", 4, 3, 4},
		{"c", "value with spaces", 5, 1, 5},
		{"d", "firstsecondthird", 6, 1, 8},
		{"e", "${file:/etc/secret.properties:pw}", 9, 1, 9},
		{"f", "café \t tab", 10, 1, 10},
		{"a", "2 # not a comment", 11, 1, 11},
		{"g", "", 13, 1, 13},
		{"key=with:escapes", "v", 14, 1, 14},
		{"h", "ends with backslash", 15, 1, 16}, // continues onto the empty last line
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("entries mismatch (-want +got):\n%s", diff)
	}
	if got := f.Last()["a"].Value; got != "2 # not a comment" {
		t.Errorf("last a = %q, want the later value", got)
	}
	if len(f.Comments) != 2 || f.Comments[1].Line != 2 || f.Comments[1].Text != " bang comment" {
		t.Errorf("comments = %+v", f.Comments)
	}
	if c := f.Entries[0].Comments; len(c) != 2 {
		t.Errorf("comments above a = %q, want both comment lines", c)
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name, src string
		line      int
	}{
		{"bad unicode escape", "a=1\nb=\\uZZZZ\n", 2},
		{"short unicode escape", "a=1\n\nb=x\\u12\n", 3},
		{"NUL byte", "a=1\nb=\x00\n", 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse([]byte(tt.src))
			var pe *Error
			if !errors.As(err, &pe) {
				t.Fatalf("err = %v, want *Error", err)
			}
			if pe.Line != tt.line {
				t.Errorf("line = %d, want %d (%v)", pe.Line, tt.line, err)
			}
		})
	}
}

func TestLatin1Fallback(t *testing.T) {
	f, err := Parse([]byte("name=caf\xe9\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got := f.Entries[0].Value; got != "café" {
		t.Errorf("value = %q, want ISO-8859-1 decoding as Java does", got)
	}
}

// FuzzParse checks that no input panics and that every parsed entry is
// positioned inside the input. Seeds live in testdata/fuzz/FuzzParse.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"a=1\n", "a\\\n b\n", "x=\\u00e9", "#c\n!d\ne:f", "k=${env:X}\n", "\\", "=\n:\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := Parse(data)
		if err != nil {
			return
		}
		lines := 1
		for _, b := range data {
			if b == '\n' {
				lines++
			}
		}
		for _, e := range p.Entries {
			if e.Line < 1 || e.Line > lines || e.EndLine < e.Line || e.Column < 1 {
				t.Fatalf("entry %+v outside input of %d lines", e, lines)
			}
		}
	})
}
