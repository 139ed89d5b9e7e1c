package report

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// DefaultWidth is the line width of text output that is not a terminal
// (CI logs, pipes, files) when COLUMNS does not say otherwise.
const DefaultWidth = 80

// minWrap is the fewest characters a wrapped line holds after its
// indentation, however narrow the width: below that, wrapping would give
// a word per line (or loop), so the line runs over instead.
const minWrap = 20

// lineWidth is the width to wrap to: w, or DefaultWidth when w is not set.
func lineWidth(w int) int {
	if w <= 0 {
		return DefaultWidth
	}
	return w
}

// prose is an explanation (a why or a fix) made printable on one line:
// the line breaks and indentation of a METADATA description become single
// spaces, then the rest of the control characters are escaped (OneLine).
func prose(s string) string {
	return OneLine(flatten(s))
}

// flatten is s with its line breaks and runs of white space made single
// spaces: an explanation as one paragraph.
func flatten(s string) string {
	return strings.Join(strings.FieldsFunc(s, isASCIISpace), " ")
}

func isASCIISpace(r rune) bool {
	return r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '\v' || r == '\f'
}

// runes is the display width of s, one column per rune (as text/tabwriter
// counts).
func runes(s string) int { return utf8.RuneCountInString(s) }

// wrap breaks text, which must already be printable (OneLine or prose),
// into lines of at most width characters: the first line starts with
// first (an indentation and a label such as "    fix: "), the others with
// as many spaces. Lines break between words; a word longer than a whole
// line (a path, a dotted key) is cut (see cutWord). No line starts, after
// white space, with a colon: GitHub Actions runs a log line that starts with "::" as a
// workflow command, and these lines carry input text. So a word that
// starts with one stays on the line of the word before it, and a long
// word is never cut just before one.
func wrap(first, text string, width int) []string {
	return wrapTo(first, text, width, minWrap)
}

// wrapTo is wrap with at least minAvail characters a line after the
// indentation.
func wrapTo(first, text string, width, minAvail int) []string {
	hang := strings.Repeat(" ", runes(first))
	avail := max(lineWidth(width)-runes(first), minAvail)
	var tokens []string
	for w := range strings.SplitSeq(text, " ") {
		if w == "" {
			continue
		}
		if len(tokens) > 0 && colonFirst(w) {
			tokens[len(tokens)-1] += " " + w
			continue
		}
		tokens = append(tokens, w)
	}
	var lines []string
	var cur strings.Builder
	curLen := 0
	flush := func() {
		prefix := hang
		if len(lines) == 0 {
			prefix = first
		}
		lines = append(lines, prefix+cur.String())
		cur.Reset()
		curLen = 0
	}
	for _, tok := range tokens {
		n := runes(tok)
		if curLen > 0 && curLen+1+n <= avail {
			cur.WriteByte(' ')
			cur.WriteString(tok)
			curLen += 1 + n
			continue
		}
		if curLen > 0 {
			flush()
		}
		for n > avail {
			head, rest := cutWord(tok, avail)
			if rest == "" {
				break
			}
			cur.WriteString(head)
			flush()
			tok, n = rest, runes(rest)
		}
		cur.WriteString(tok)
		curLen = n
	}
	if curLen > 0 || len(lines) == 0 {
		flush()
	}
	return lines
}

// colonFirst reports whether s starts, after white space, with a colon.
func colonFirst(s string) bool {
	return strings.HasPrefix(strings.TrimLeftFunc(s, unicode.IsSpace), ":")
}

// cutWord splits a word longer than avail characters: head holds at most
// avail of them, cut after the last '/' past its first third (a path),
// else after the last '-', '.' or '_' there (a slug, a dotted key), else
// at avail. rest never starts with a colon (see wrap); when no cut avoids
// that, rest is "" and the word stays whole.
func cutWord(w string, avail int) (head, rest string) {
	// offsets[i] is the byte offset of rune i.
	offsets := make([]int, 0, avail+1)
	for i := range w {
		if len(offsets) > avail {
			break
		}
		offsets = append(offsets, i)
	}
	if len(offsets) <= avail {
		return w, ""
	}
	cut := func(k int) bool { return k > 0 && !colonFirst(w[offsets[k]:]) }
	for _, after := range []string{"/", "-._"} {
		for k := avail; k > avail/3; k-- {
			if c := w[offsets[k]-1]; strings.IndexByte(after, c) >= 0 && cut(k) {
				return w[:offsets[k]], w[offsets[k]:]
			}
		}
	}
	for k := avail; k > 0; k-- {
		if cut(k) {
			return w[:offsets[k]], w[offsets[k]:]
		}
	}
	return w, ""
}
