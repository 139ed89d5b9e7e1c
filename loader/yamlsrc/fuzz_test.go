package yamlsrc

import (
	"strings"
	"testing"
)

// FuzzInterpolate: compose substitution never panics, leaves text without
// '$' alone, and an unknown result always keeps a ${NAME} placeholder.
func FuzzInterpolate(f *testing.F) {
	for _, s := range []string{"${A}", "${A:-x}", "$$", "${A:-${B:-${C}}}", "${", "a$", "${A:?e}", "$A_B9", "${:-x}"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out, unknown := Interpolate(s, map[string]string{"A": "1", "EMPTY": ""})
		if !strings.Contains(s, "$") && (out != s || unknown) {
			t.Fatalf("Interpolate(%q) = %q, %v", s, out, unknown)
		}
		if unknown && !strings.Contains(out, "${") {
			t.Fatalf("Interpolate(%q) = %q: unknown without a placeholder", s, out)
		}
	})
}
