package report

import (
	"bytes"
	"strings"
	"testing"
)

// TestLoadErrorPositions: a load error's column (and end, where the parser
// says) reaches every format that prints a position; an error without one
// prints none.
func TestLoadErrorPositions(t *testing.T) {
	r := &Report{Errors: []LoadError{
		{File: "m/main.tf", Line: 2, Column: 3, EndLine: 2, EndColumn: 7, Message: "invalid HCL"},
		{File: "p/server.properties", Line: 4, Message: "invalid properties file"},
	}}
	r.Finish()
	want := map[string][]string{
		"json": {
			`"file": "m/main.tf",
      "line": 2,
      "column": 3,
      "end_line": 2,
      "end_column": 7,
      "message": "invalid HCL"`,
			`"file": "p/server.properties",
      "line": 4,
      "message": "invalid properties file"`,
		},
		"sarif": {`"startLine": 2,
                      "startColumn": 3,
                      "endLine": 2,
                      "endColumn": 7`},
		"text":   {"m/main.tf:2:3: load error invalid HCL", "p/server.properties:4: load error invalid properties file"},
		"github": {"::error file=m/main.tf,line=2,col=3,title=", "::error file=p/server.properties,line=4,title="},
	}
	for format, wants := range want {
		var b bytes.Buffer
		if err := Write(&b, format, r, Options{}); err != nil {
			t.Fatalf("%s: %v", format, err)
		}
		for _, w := range wants {
			if !strings.Contains(b.String(), w) {
				t.Errorf("%s output lacks\n%s\ngot:\n%s", format, w, b.String())
			}
		}
	}
}
