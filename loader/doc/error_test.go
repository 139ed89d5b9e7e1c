package doc

import "testing"

func TestErrorText(t *testing.T) {
	for _, tt := range []struct {
		err  Error
		want string
	}{
		{Error{File: "a.tf", Line: 2, Column: 3, EndLine: 2, EndColumn: 7, Message: "bad"}, "a.tf:2:3: bad"},
		{Error{File: "a.properties", Line: 4, Message: "bad"}, "a.properties:4: bad"},
		{Error{File: "a.yaml", Message: "bad"}, "a.yaml: bad"},
		{Error{Line: 5, Column: 1, Message: "bad"}, "line 5:1: bad"}, // a parser's, before the caller names the text
		{Error{Message: "bad"}, "bad"},
	} {
		if got := tt.err.Error(); got != tt.want {
			t.Errorf("%+v: Error() = %q, want %q", tt.err, got, tt.want)
		}
	}
}

// TestAt: an error made at a location keeps all of it.
func TestAt(t *testing.T) {
	loc := Location{File: "a.tf", Line: 2, Column: 3, EndLine: 4, EndColumn: 5}
	want := Error{File: "a.tf", Line: 2, Column: 3, EndLine: 4, EndColumn: 5, Message: "bad"}
	if got := At(loc, "bad"); *got != want {
		t.Errorf("At(%+v) = %+v, want %+v", loc, *got, want)
	}
}
