package properties

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/kafkalint/kafkalint/loader/doc"
)

// allocated returns the bytes fn allocates (the test runs alone in its
// goroutine; the figure is only compared with a generous bound).
func allocated(fn func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	fn()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// hostile builds the shapes that once made Parse quadratic or ran it out
// of memory, at a size just below the limits (n continuation lines, n
// keys, one long line).
func continued(n int) string { return "x=" + strings.Repeat("abcd\\\n", n) + "end\n" }

func manyKeys(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "k%d=v%d\n", i, i)
	}
	return b.String()
}

// TestParseMemoryIsLinear: Parse allocates a bounded multiple of its
// input. Joining 20,000 continuation lines by repeated concatenation
// allocated about 1 GB for 120 KB of input.
func TestParseMemoryIsLinear(t *testing.T) {
	for name, src := range map[string]string{
		"continuations":          continued(20_000),
		"many keys":              manyKeys(MaxEntries),
		"long line":              "x=" + strings.Repeat("a", MaxLineBytes-2) + "\n",
		"long line with escapes": "x=" + strings.Repeat("a\\t", (MaxLineBytes-2)/3) + "\n",
	} {
		t.Run(name, func(t *testing.T) {
			var err error
			n := allocated(func() { _, err = Parse([]byte(src)) })
			if err != nil {
				t.Fatal(err)
			}
			// Entries cost about 100 bytes each beyond their text.
			if limit := uint64(30*len(src)) + 200*uint64(strings.Count(src, "\n")); n > limit {
				t.Errorf("Parse of %d bytes allocated %d bytes, want at most %d", len(src), n, limit)
			}
		})
	}
}

func TestParseLimits(t *testing.T) {
	tests := []struct {
		name, src string
		line      int
		msg       string
	}{
		{"keys per file", "# header\n" + manyKeys(MaxEntries+1), MaxEntries + 2, "more than 5000 keys"},
		{"long physical line", "a=1\nsecret=" + strings.Repeat("s", MaxLineBytes) + "\n", 2, "logical line longer than"},
		{"long logical line", "a=1\nsecret=" + strings.Repeat(strings.Repeat("s", 1000)+"\\\n", MaxLineBytes/1000+1) + "\n", 2, "logical line longer than"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse([]byte(tt.src))
			var pe *doc.Error
			if !errors.As(err, &pe) {
				t.Fatalf("err = %v, want *doc.Error", err)
			}
			if pe.Line != tt.line || !strings.Contains(pe.Message, tt.msg) {
				t.Errorf("error = line %d %q, want line %d containing %q", pe.Line, pe.Message, tt.line, tt.msg)
			}
			if strings.Contains(pe.Message, "hunter2") || strings.Contains(pe.Message, "sss") {
				t.Errorf("error %q quotes a value", pe.Message)
			}
		})
	}
	// Just below every limit the file is read.
	if _, err := Parse([]byte(manyKeys(MaxEntries))); err != nil {
		t.Errorf("%d keys: %v", MaxEntries, err)
	}
}

func TestQuote(t *testing.T) {
	for in, want := range map[string]string{
		"log.dirs":                    `"log.dirs"`,
		strings.Repeat("k", 64):       `"` + strings.Repeat("k", 64) + `"`,
		strings.Repeat("k", 65):       `"` + strings.Repeat("k", 64) + `"…`,
		strings.Repeat("é", 40):       `"` + strings.Repeat("é", 32) + `"…`, // cut at a rune boundary
		"a" + strings.Repeat("é", 40): `"a` + strings.Repeat("é", 31) + `"…`,
	} {
		if got := Quote(in); got != want {
			t.Errorf("Quote(%q) = %s, want %s", in, got, want)
		}
	}
}
