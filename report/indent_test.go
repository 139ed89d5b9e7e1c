package report

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"testing"
)

// FuzzIndentCompact: indentCompact gives json.Indent's bytes for any JSON
// document in the compact form encoding/json writes (json.Compact of a
// valid one), at any prefix.
func FuzzIndentCompact(f *testing.F) {
	for _, seed := range []string{
		`{}`, `[]`, `{"a":[]}`, `[{},[],{"b":{}}]`, `"x"`, `1`, `null`,
		`{"k":"v\"q\\\\","n":-1.5e3,"t":true,"f":false,"z":null}`,
		`{"why":"a, b: c {d} [e]","related":[{"file":"x","line":1}],"omitted":0}`,
		`["\u2028","<>&","\\\"]","é"]`,
	} {
		f.Add(seed, "  ")
	}
	f.Fuzz(func(t *testing.T, doc, prefix string) {
		if !json.Valid([]byte(doc)) {
			return
		}
		var compact bytes.Buffer
		if err := json.Compact(&compact, []byte(doc)); err != nil {
			t.Fatal(err)
		}
		var want bytes.Buffer
		if err := json.Indent(&want, compact.Bytes(), prefix, "  "); err != nil {
			t.Fatal(err)
		}
		if got := indentCompact(nil, compact.Bytes(), prefix); !bytes.Equal(got, want.Bytes()) {
			t.Errorf("indentCompact(%q, %q):\n%s\nwant json.Indent's\n%s", compact.String(), prefix, got, want.Bytes())
		}
	})
}

// FuzzAppendFinding: appendFinding writes a finding as encoding/json and
// indentCompact do (the generic path of jsonStream.value): any texts
// (quotes, backslashes, control characters, invalid UTF-8, U+2028), any
// numbers, with or without related locations, columns, key and omitted.
func FuzzAppendFinding(f *testing.F) {
	f.Add("KFK1001", "a \"quoted\" \\ value\n\t\b\f\r\x01\x7f", "<&> é \u2028\u2029 \xff\xfe", "x/y.properties", 3, 0, 2, -1, "    ")
	f.Add("", "", "", "", 0, 7, 0, 0, "")
	f.Add("KFK3011", "node.id=1 is also the id of 3 other nodes", "Why.", "a/b", 12, 1, 12, 40, "  ")
	f.Fuzz(func(t *testing.T, id, message, why, file string, line, column, nrelated, omitted int, prefix string) {
		fd := Finding{
			ID: id, Slug: message + id, Severity: "error", Message: message, Why: why, Fix: why + message,
			File: file, Line: line, Column: column, Environment: file, Cluster: id, RelatedOmitted: omitted,
			DocsURL: "https://x/" + id, Key: message, Fingerprint: why,
		}
		switch {
		case nrelated < 0:
			fd.Related = nil
		default:
			fd.Related = []Location{}
			for i := range nrelated % 4 {
				fd.Related = append(fd.Related, Location{File: file + why[:min(i, len(why))], Line: line + i, Column: column * (i % 2)})
			}
		}
		var compact bytes.Buffer
		enc := json.NewEncoder(&compact)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(&fd); err != nil {
			t.Fatal(err)
		}
		want := indentCompact(nil, bytes.TrimSuffix(compact.Bytes(), []byte("\n")), prefix)
		if got := appendFinding(nil, &fd, prefix); !bytes.Equal(got, want) {
			t.Errorf("appendFinding:\n%s\nwant encoding/json's\n%s", got, want)
		}
	})
}

// TestPlain8: plain8 is true exactly when no byte of the eight needs an
// escape or is non-ASCII, for every byte value at every position, and for
// random words of a few such bytes.
func TestPlain8(t *testing.T) {
	safe := func(b byte) bool { return b >= 0x20 && b < 0x80 && b != '"' && b != '\\' }
	check := func(w []byte) {
		want := true
		for _, b := range w {
			want = want && safe(b)
		}
		if got := plain8(string(w)); got != want {
			t.Fatalf("plain8(%q) = %v, want %v", w, got, want)
		}
	}
	for pos := range 8 {
		for b := range 256 {
			w := []byte("abcdefgh")
			w[pos] = byte(b)
			check(w)
		}
	}
	rng := rand.New(rand.NewPCG(3, 4))
	special := []byte{0, 0x1f, 0x20, 0x21, '"', '\\', 0x7f, 0x80, 0xff, 'a', '[', ']', 0x5b, 0x5d, 0x22 ^ 0x80}
	for range 200000 {
		w := make([]byte, 8)
		for i := range w {
			if rng.IntN(3) == 0 {
				w[i] = special[rng.IntN(len(special))]
			} else {
				w[i] = byte(rng.IntN(256))
			}
		}
		check(w)
	}
}

// TestAppendFindingCoversFinding: appendFinding writes every field of a
// Finding as encoding/json does, each set to a value that is not its
// zero (filled by reflection, so that a field added to Finding and not to
// appendFinding fails here, omitempty or not).
func TestAppendFindingCoversFinding(t *testing.T) {
	var fd Finding
	v := reflect.ValueOf(&fd).Elem()
	for i := range v.NumField() {
		switch f := v.Field(i); f.Kind() {
		case reflect.String:
			f.SetString("s" + v.Type().Field(i).Name)
		case reflect.Int:
			f.SetInt(int64(i + 1))
		case reflect.Slice, reflect.Pointer:
			if f.Type() == reflect.TypeFor[[]Location]() {
				f.Set(reflect.ValueOf([]Location{{File: "f", Line: 2, Column: 3}}))
			} else if f.Type() != reflect.TypeFor[*Suppression]() { // json:"-"
				t.Fatalf("field %s of type %s: fill it here", v.Type().Field(i).Name, f.Type())
			}
		default:
			t.Fatalf("field %s of kind %s: fill it here", v.Type().Field(i).Name, f.Kind())
		}
	}
	var compact bytes.Buffer
	enc := json.NewEncoder(&compact)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(&fd); err != nil {
		t.Fatal(err)
	}
	want := indentCompact(nil, bytes.TrimSuffix(compact.Bytes(), []byte("\n")), "    ")
	if got := appendFinding(nil, &fd, "    "); !bytes.Equal(got, want) {
		t.Errorf("appendFinding:\n%s\nwant encoding/json's\n%s", got, want)
	}
}
