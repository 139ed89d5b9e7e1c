package report

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"strconv"
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
	j.compact.Reset()
	if j.err = j.enc.Encode(v); j.err != nil {
		return
	}
	j.pretty = indentCompact(j.pretty[:0], bytes.TrimSuffix(j.compact.Bytes(), []byte("\n")), prefix, "  ")
	_, j.err = j.w.Write(j.pretty)
}

// indentCompact appends src indented as json.Indent(dst, src, prefix,
// indent) does, for src that is the output of encoding/json (valid, with no
// space outside strings): it skips over strings in runs instead of
// stepping json's scanner through every byte, which took twice as long as
// encoding a finding.
func indentCompact(dst, src []byte, prefix, indent string) []byte {
	newline := func(depth int) {
		dst = append(dst, '\n')
		dst = append(dst, prefix...)
		for range depth {
			dst = append(dst, indent...)
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
