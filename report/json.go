package report

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"strconv"
	"unicode/utf8"
)

// writeJSON writes the report as indented JSON (the contract in
// docs/output.md). It streams: the envelope is written by hand and each
// finding is encoded on its own, so memory does not grow with the
// document (a bulk run's JSON reaches hundreds of megabytes).
func writeJSON(w io.Writer, r *Report) error {
	j := newJSONStream(w)
	j.raw("{\n  \"version\": " + strconv.Itoa(r.Version) + ",\n  \"findings\": ")
	writeJSONArray(j, "  ", r.Findings)
	j.raw(",\n  \"errors\": ")
	writeJSONArray(j, "  ", r.Errors)
	j.raw(",\n  \"summary\": ")
	j.value("  ", &r.Summary)
	j.raw("\n}\n")
	return j.flush()
}

// jsonStream writes JSON values one at a time, each indented as
// json.Encoder.SetIndent("", "  ") indents it at its depth in the
// document, so a hand-written envelope around them gives the same bytes
// as encoding the whole document at once. The first error sticks.
type jsonStream struct {
	w       *bufio.Writer
	compact bytes.Buffer
	pretty  []byte
	enc     *json.Encoder
	err     error
}

func newJSONStream(w io.Writer) *jsonStream {
	j := &jsonStream{w: bufio.NewWriterSize(w, 64<<10)}
	j.enc = json.NewEncoder(&j.compact)
	j.enc.SetEscapeHTML(false)
	return j
}

func (j *jsonStream) raw(s string) {
	if j.err == nil {
		_, j.err = j.w.WriteString(s)
	}
}

// value writes v indented for a position whose line starts with prefix
// (the value's first line is not prefixed: it follows a key or an array's
// indentation). v should be a pointer, so that passing it does not copy.
func (j *jsonStream) value(prefix string, v any) {
	if j.err != nil {
		return
	}
	if f, ok := v.(*Finding); ok { // a bulk run's many: written by hand
		j.pretty = appendFinding(j.pretty[:0], f, prefix)
		_, j.err = j.w.Write(j.pretty)
		return
	}
	j.compact.Reset()
	if j.err = j.enc.Encode(v); j.err != nil {
		return
	}
	j.pretty = indentCompact(j.pretty[:0], bytes.TrimSuffix(j.compact.Bytes(), []byte("\n")), prefix)
	_, j.err = j.w.Write(j.pretty)
}

// indentCompact appends src indented as json.Indent(dst, src, prefix,
// "  ") does (the reports' indentation), for src that is the output of
// encoding/json (valid, with no space outside strings): it skips over
// strings in runs instead of stepping json's scanner through every byte,
// which took twice as long as encoding a finding.
func indentCompact(dst, src []byte, prefix string) []byte {
	newline := func(depth int) {
		dst = append(dst, '\n')
		dst = append(dst, prefix...)
		for range depth {
			dst = append(dst, "  "...)
		}
	}
	needIndent := false // after { or [: indented unless it closes at once
	depth := 0
	for i := 0; i < len(src); i++ {
		c := src[i]
		if needIndent && c != '}' && c != ']' {
			needIndent = false
			depth++
			newline(depth)
		}
		switch c {
		case '"':
			end := i + 1
			for end < len(src) {
				// Two IndexByte scans (vectorised): bytes.IndexAny builds
				// its byte set per call, and most strings hold no escape.
				k := bytes.IndexByte(src[end:], '"')
				if k < 0 {
					end = len(src)
					break
				}
				if b := bytes.IndexByte(src[end:end+k], '\\'); b >= 0 {
					end += b + 2 // an escape: the next byte is never the closing quote
					continue
				}
				end += k
				break
			}
			end = min(end, len(src)-1)
			dst = append(dst, src[i:end+1]...)
			i = end
		case '{', '[':
			needIndent = true
			dst = append(dst, c)
		case ',':
			dst = append(dst, c)
			newline(depth)
		case ':':
			dst = append(dst, c, ' ')
		case '}', ']':
			if needIndent {
				needIndent = false // an empty object or array stays {} or []
			} else {
				depth--
				newline(depth)
			}
			dst = append(dst, c)
		default:
			dst = append(dst, c)
		}
	}
	return dst
}

func (j *jsonStream) flush() error {
	if j.err == nil {
		j.err = j.w.Flush()
	}
	return j.err
}

// writeJSONArray writes a slice element by element; prefix is the
// indentation of the line holding the array's key. A nil slice is null,
// an empty one [], as encoding/json writes them.
func writeJSONArray[T any](j *jsonStream, prefix string, items []T) {
	switch {
	case items == nil:
		j.raw("null")
		return
	case len(items) == 0:
		j.raw("[]")
		return
	}
	inner := prefix + "  "
	sep := "\n" + inner
	j.raw("[")
	for i := range items {
		if i > 0 {
			j.raw(",")
		}
		j.raw(sep)
		j.value(inner, &items[i])
	}
	j.raw("\n" + prefix + "]")
}

// appendFinding appends f as value writes it through encoding/json and
// indentCompact (FuzzAppendFinding compares the two): the bytes of the
// JSON contract, at a tenth of the cost (a bulk run writes tens of
// thousands of findings; encoding them was 5 % of a shared-tree lint).
func appendFinding(dst []byte, f *Finding, prefix string) []byte {
	field := func(name string) {
		dst = append(dst, '\n')
		dst = append(dst, prefix...)
		dst = append(dst, `  "`...)
		dst = append(dst, name...)
		dst = append(dst, `": `...)
	}
	text := func(name, v string) {
		field(name)
		dst = appendJSONString(dst, v)
		dst = append(dst, ',')
	}
	number := func(name string, v int) {
		field(name)
		dst = strconv.AppendInt(dst, int64(v), 10)
		dst = append(dst, ',')
	}
	dst = append(dst, '{')
	text("id", f.ID)
	text("slug", f.Slug)
	text("severity", f.Severity)
	text("message", f.Message)
	text("why", f.Why)
	text("fix", f.Fix)
	text("file", f.File)
	number("line", f.Line)
	number("column", f.Column)
	text("environment", f.Environment)
	text("cluster", f.Cluster)
	field("related")
	switch {
	case f.Related == nil:
		dst = append(dst, "null"...)
	case len(f.Related) == 0:
		dst = append(dst, "[]"...)
	default:
		dst = append(dst, '[')
		for i, l := range f.Related {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = append(dst, '\n')
			dst = append(dst, prefix...)
			dst = append(dst, "    {\n"...)
			dst = append(dst, prefix...)
			dst = append(dst, `      "file": `...)
			dst = appendJSONString(dst, l.File)
			dst = append(dst, ",\n"...)
			dst = append(dst, prefix...)
			dst = append(dst, `      "line": `...)
			dst = strconv.AppendInt(dst, int64(l.Line), 10)
			if l.Column != 0 {
				dst = append(dst, ",\n"...)
				dst = append(dst, prefix...)
				dst = append(dst, `      "column": `...)
				dst = strconv.AppendInt(dst, int64(l.Column), 10)
			}
			dst = append(dst, '\n')
			dst = append(dst, prefix...)
			dst = append(dst, "    }"...)
		}
		dst = append(dst, '\n')
		dst = append(dst, prefix...)
		dst = append(dst, "  ]"...)
	}
	dst = append(dst, ',')
	if f.RelatedOmitted != 0 {
		number("related_omitted", f.RelatedOmitted)
	}
	text("docs_url", f.DocsURL)
	if f.Key != "" {
		text("key", f.Key)
	}
	field("fingerprint")
	dst = appendJSONString(dst, f.Fingerprint)
	dst = append(dst, '\n')
	dst = append(dst, prefix...)
	return append(dst, '}')
}

// appendJSONString appends s quoted as encoding/json quotes a string
// without HTML escaping: '"', '\\' and control characters escaped (\b,
// \f, \n, \r, \t by name, the others as \u00XX), invalid UTF-8 as \ufffd,
// U+2028 and U+2029 as \u2028 and \u2029.
func appendJSONString(dst []byte, s string) []byte {
	const hex = "0123456789abcdef"
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		if i+8 <= len(s) && plain8(s[i:i+8]) {
			i += 8
			continue
		}
		b := s[i]
		if b < utf8.RuneSelf {
			if b >= 0x20 && b != '"' && b != '\\' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch b {
			case '"', '\\':
				dst = append(dst, '\\', b)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hex[b>>4], hex[b&0xF])
			}
			i++
			start = i
			continue
		}
		c, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case c == utf8.RuneError && size == 1:
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
		case c == '\u2028' || c == '\u2029':
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hex[c&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// plain8 says whether the 8 bytes of s need no escape: ASCII, none a
// control character, '"' or '\\' (word-at-a-time tests; a false "no" only
// sends the bytes through the byte-by-byte loop).
func plain8(s string) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	x := uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
	quote, backslash := x^(ones*'"'), x^(ones*'\\')
	below := (x - ones*0x20) &^ x            // a byte < 0x20 (for ASCII x)
	zeros := (quote - ones) &^ quote         // a byte that was '"'
	zeros |= (backslash - ones) &^ backslash // or '\\'
	return (x|below|zeros)&highs == 0
}
