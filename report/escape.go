package report

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Text from the input (values, keys, file names, parser messages) reaches
// terminals and CI logs. A raw newline there starts a new line that a CI
// runner may execute: GitHub Actions reads every log line that starts,
// after leading blanks, with `::` as a workflow command (`::add-mask::`,
// `::error file=…::`, `::stop-commands::`). A raw escape sequence
// repaints or retitles a terminal. So every human-readable format shows
// such characters as visible escapes, and no line starts with input.

// needsEscape reports whether r is shown as an escape: C0 and C1 control
// characters, DEL, the Unicode line and paragraph separators, and the
// bidirectional overrides that make a terminal show text in another order
// than it is.
func needsEscape(r rune) bool {
	switch {
	case r < 0x20, r == 0x7f, r >= 0x80 && r <= 0x9f:
		return true
	case r == '\u2028', r == '\u2029', r == '\u200e', r == '\u200f',
		r >= '\u202a' && r <= '\u202e', r >= '\u2066' && r <= '\u2069':
		return true
	}
	return false
}

// OneLine returns s with control characters and invalid UTF-8 written as
// Go escapes (\n, \t, \x1b, \u202e), so it prints as one inert line.
// Backslashes are left alone: the result is for reading, not parsing.
func OneLine(s string) string {
	clean := true
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if needsEscape(r) || r == utf8.RuneError && size == 1 {
			clean = false
			break
		}
		i += size
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b.WriteString(`\x` + strconv.FormatUint(uint64(s[i]), 16))
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x80 && needsEscape(r):
			b.WriteString(`\x` + hex2(int(r)))
		case needsEscape(r):
			b.WriteString(`\u` + hex2(int(r)>>8) + hex2(int(r)&0xff))
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

func hex2(n int) string {
	const digits = "0123456789abcdef"
	return string([]byte{digits[n>>4], digits[n&0xf]})
}

// LinePath is OneLine for a file name that starts a line: a name that
// starts with white space or a colon (`::error x.properties`) gets "./", so
// the line cannot read as a workflow command and still names the file.
func LinePath(file string) string {
	file = OneLine(file)
	// GitHub's runner trims leading white space, Unicode's included,
	// before it looks for "::".
	if r, _ := utf8.DecodeRuneInString(file); r == ':' || unicode.IsSpace(r) {
		return "./" + file
	}
	return file
}
