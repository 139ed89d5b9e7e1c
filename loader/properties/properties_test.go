package properties

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	mprops "github.com/magiconair/properties"

	"github.com/kafkalint/kafkalint/loader/doc"
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
			var pe *doc.Error
			if !errors.As(err, &pe) {
				t.Fatalf("err = %v, want *doc.Error", err)
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
// positioned inside the input. The seeds include the hostile shapes.
func FuzzParse(f *testing.F) {
	for _, s := range append(hostileSeeds(), "a=1\n", "a\\\n b\n", "x=\\u00e9", "#c\n!d\ne:f", "k=${env:X}\n", "\\", "=\n:\n") {
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

// TestEmptyKey: a line that starts with '=' or ':' has the key "", as in
// Java's Properties, whichever reader path the file takes (a backslash
// elsewhere makes magiconair check the file; it refuses the empty key,
// so those lines are left out of its check).
func TestEmptyKey(t *testing.T) {
	type kv struct {
		Key, Value        string
		Line, Column, End int
	}
	tests := []struct {
		name, src string
		want      []kv
	}{
		{"plain", "=hunter2\n  : pw2\nb=1\n", []kv{{"", "hunter2", 1, 1, 1}, {"", "pw2", 2, 3, 2}, {"b", "1", 3, 1, 3}}},
		{"with escapes elsewhere", "=hunter2\nc=x\\ty\n", []kv{{"", "hunter2", 1, 1, 1}, {"c", "x\ty", 2, 1, 2}}},
		{"continued", "a=1\n=hun\\\n   ter2\nc=\\u0041\n", []kv{{"a", "1", 1, 1, 1}, {"", "hunter2", 2, 1, 3}, {"c", "A", 4, 1, 4}}},
		{"CRLF", "=hunter2\r\nc=x\\\r\n  y\r\n", []kv{{"", "hunter2", 1, 1, 1}, {"c", "xy", 2, 1, 3}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := Parse([]byte(tt.src))
			if err != nil {
				t.Fatal(err)
			}
			var got []kv
			for _, e := range f.Entries {
				got = append(got, kv{e.Key, e.Value, e.Line, e.Column, e.EndLine})
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("entries mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestParseErrorsNeverQuoteValues: no parse error shows a value, however
// the reader fails (magiconair's own parser quotes the token it did not
// expect).
func TestParseErrorsNeverQuoteValues(t *testing.T) {
	for _, src := range []string{
		"a=1\r:hunter2\n",        // lone CR: magiconair reads a value without a key
		"a=1\r=hunter2\\t\n",     // the same, on its checked path
		"a=hunter2\\u12\n",       // short escape
		"a=x\rb=hunter2\n",       // readers disagree on a's value
		"pw=hunter2\\\n\\u004\n", // bad escape on a continuation line
		"a\\\n=hunter2\n",        // continuation inside a key
	} {
		_, err := Parse([]byte(src))
		if err == nil {
			t.Errorf("Parse(%q) = nil error, want one", src)
			continue
		}
		if strings.Contains(err.Error(), "hunter2") {
			t.Errorf("Parse(%q) error %q quotes the value", src, err)
		}
	}
}

// TestNeedsReference: the cases in which magiconair must confirm the
// scanner's reading.
func TestNeedsReference(t *testing.T) {
	for src, want := range map[string]bool{
		"a=1\nb=2\n":     false,
		"a=1\r\nb=2\r\n": false,
		"a=caf\u00e9\n":  false,
		"=x\n":           false,
		"a=\\t\n":        true,
		"a=1\rb=2\n":     true,
		"a=1\r\nb=2\r":   true,
		"a=1\r\r\n":      true,
		// A value continued on the next lines is read alone; a comment's
		// backslashes do nothing.
		"k=a \\\n  b \\\n  c\n": false,
		"k=\\\n  b\n":           false,
		"k b\\\n c\n":           false,
		"#x\\\n!y \\z\nk=v\n":   false,
		// A continuation within the key or before its separator, after
		// "\r\n" or at the end of the text, or a run of backslashes.
		"k\\\n=v\n":     true,
		"k \\\n=v\n":    true,
		"k=v\\\r\n":     true,
		"k=v\\":         true,
		"k=v\\\\\n":     true,
		"k=a\\\nb\\c\n": true,
	} {
		if got := needsReference(src); got != want {
			t.Errorf("needsReference(%q) = %v, want %v", src, got, want)
		}
	}
}

// hostileSeeds are small versions of the inputs that once made the
// parser quadratic or ran it out of memory, and of the empty key.
func hostileSeeds() []string {
	return []string{
		continued(40),
		manyKeys(40),
		"x=" + strings.Repeat("a", 600) + "\n",
		"controller.quorum.voters=" + strings.Repeat("1@h:9093,", 40) + "\n",
		strings.Repeat("a=1\n", 25), // a key repeated past the loader's limit
		"=hunter2\n", ":x\n  =y\\\n z\n",
		"a=1\r:hunter2\n", "a\\\r\n b=1\r\n",
		// continuations, which the scanner reads alone (needsReference)
		"# c \\\nk=v\\\n  # w\\\n\n", "a=1\\\n", "a=\\\n\\\n \t\fb\\\n\n", "k\\\n=v\n", " \\\n=x\n", "!a\\\nb c\\\n\\\n",
		"k \\\n=v\n", "k=\\\n  v\\\n\n", "k:\\\n#v\n", "k\\\\\n", "a=1\\\r\nb=2\n", "k=v\\\n\\\n\\\n",
	}
}

// reference reads text with magiconair/properties, as crossCheck does.
func reference(text string) (*mprops.Properties, error) {
	l := &mprops.Loader{Encoding: mprops.UTF8, DisableExpansion: true}
	return l.LoadBytes([]byte(text))
}

// FuzzScannerMatchesMagiconair holds the reader to magiconair/properties
// on arbitrary input: where needsReference says the scanner alone is
// enough, magiconair reads the same keys (in order of first occurrence,
// which is the order the loader keeps) with the same final values; where
// it is not, Parse either fails or agrees with magiconair just as well.
// The empty key, which Java accepts and magiconair refuses, is left out of
// the comparison (blanked for magiconair, as crossCheck does).
func FuzzScannerMatchesMagiconair(f *testing.F) {
	for _, s := range append(hostileSeeds(), "a=1\n", "a b\n", "#c\nk:v\n", "a=caf\xe9\n", "\xef\xbb\xbfa=1\r\n") {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := matchesMagiconair(data); err != nil {
			t.Fatal(err)
		}
	})
}

// matchesMagiconair is FuzzScannerMatchesMagiconair's property.
func matchesMagiconair(data []byte) error {
	if bytes.IndexByte(data, 0) >= 0 {
		return nil
	}
	text := decode(data, false)
	sf, empty, err := scan(text, true)
	if err != nil {
		if !needsReference(text) && !strings.Contains(err.Error(), "(the limit of") {
			return fmt.Errorf("scanner refused %q: %w", text, err)
		}
		return nil
	}
	ref := blank(text, empty)
	if needsReference(text) {
		if _, err := Parse(data); err != nil {
			return nil
		}
		ref = strings.ReplaceAll(ref, "\r\n", "\n") // as crossCheck does
	}
	p, err := reference(ref)
	if err != nil {
		return fmt.Errorf("magiconair refused %q, which Parse accepts: %w", text, err)
	}
	var keys []string
	last := map[string]string{}
	for _, e := range sf.Entries {
		if e.Key == "" {
			continue
		}
		if _, ok := last[e.Key]; !ok {
			keys = append(keys, e.Key)
		}
		last[e.Key] = e.Value
	}
	if diff := cmp.Diff(keys, p.Keys(), cmpopts.EquateEmpty()); diff != "" {
		return fmt.Errorf("keys of %q differ (-scanner +magiconair):\n%s", text, diff)
	}
	for _, k := range keys {
		if v, _ := p.Get(k); v != last[k] {
			return fmt.Errorf("value of %q in %q: scanner %q, magiconair %q", k, text, last[k], v)
		}
	}
	return nil
}

// TestReadKeepsCommentsOnlyWithADirective: Read keeps a file's comments,
// all of them as Parse reads them, when one is a directive (wherever it
// is: after other comments, after a continued value, marked '!'), and
// none otherwise; a '#' line inside a continued value is no comment.
func TestReadKeepsCommentsOnlyWithADirective(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		kept       bool
	}{
		{"no directive", "# Licensed to the ASF\n# more\na=1\n", false},
		{"a directive last", "# Licensed\na=1\nb=2 \\\n  # not a comment: b's value\n# kafkalint:ignore KFK1001 -- why\nc=3\n", true},
		{"a directive with '!' and spaces", "! another\n!   kafkalint:ignore-file KFK4002 -- why\na=1\n", true},
		{"a directive inside a continued value", "# a comment\na=1 \\\n# kafkalint:ignore KFK1001\nb=2\n", false},
		{"the word elsewhere", "# see kafkalint: docs\na=1\n", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, _ := Read("f.properties", []byte(tc.text), 10)
			if d.Err != nil {
				t.Fatal(d.Err)
			}
			full, err := Parse([]byte(tc.text))
			if err != nil {
				t.Fatal(err)
			}
			switch {
			case tc.kept && !reflect.DeepEqual(d.Comments, full.Comments):
				t.Errorf("Read's comments %v, want Parse's %v", d.Comments, full.Comments)
			case !tc.kept && d.Comments != nil:
				t.Errorf("Read kept %v without a directive", d.Comments)
			case len(full.Comments) == 0:
				t.Error("the case has no comment")
			}
		})
	}
}

// TestReadOwnedAsRead: ReadOwned (the text is the data itself) reads what
// Read reads, for UTF-8, a byte order mark, ISO-8859-1, a directive's
// comments and a file that does not parse.
func TestReadOwnedAsRead(t *testing.T) {
	for _, text := range []string{
		"a=1\nb = two \\\n  three\n",
		"\xef\xbb\xbfa=1\n# kafkalint:ignore KFK1001 -- why\nb=2\n",
		"caf\xe9=\xe9t\xe9\n",
		"a=1\n\x00",
		"",
	} {
		want, wantOften := Read("f.properties", []byte(text), 10)
		got, gotOften := ReadOwned("f.properties", []byte(text), 10)
		if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(gotOften, wantOften) {
			t.Errorf("ReadOwned(%q) = %+v, %v; Read: %+v, %v", text, got, gotOften, want, wantOften)
		}
	}
}
