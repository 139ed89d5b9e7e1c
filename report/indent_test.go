package report

import (
	"bytes"
	"encoding/json"
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
		if got := indentCompact(nil, compact.Bytes(), prefix, "  "); !bytes.Equal(got, want.Bytes()) {
			t.Errorf("indentCompact(%q, %q):\n%s\nwant json.Indent's\n%s", compact.String(), prefix, got, want.Bytes())
		}
	})
}
