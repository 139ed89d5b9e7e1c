// Package properties reads Java .properties files the way Kafka does
// (java.util.Properties.load) while keeping what Java throws away: the
// position of every key, the order of keys, every duplicate and the comment
// lines above each key.
//
// Values are validated with magiconair/properties (expansion disabled, so
// ${provider:...} config-provider placeholders survive as written); the
// positions come from this package's own line scanner, which implements the
// same logical-line rules.
package properties

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"

	mprops "github.com/magiconair/properties"

	"github.com/kafkalint/kafkalint/loader/doc"
)

// Entry is one key=value pair as written in the file.
type Entry struct {
	Key   string
	Value string
	// Line and Column locate the first character of the key (1-based).
	Line   int
	Column int
	// EndLine is the last physical line of the logical line (continuations).
	EndLine int
}

// File is a parsed properties file.
type File struct {
	Entries  []Entry       // every key in file order, duplicates included
	Comments []doc.Comment // every comment line in file order (text after the leading '#' or '!'); Read's: none unless one is a directive
	// directive: a comment is a directive (doc.IsDirective), found when
	// the comments are not kept.
	directive bool
}

// Last returns the map of keys to their last value, which is what Java keeps.
func (f *File) Last() map[string]Entry {
	m := make(map[string]Entry, len(f.Entries))
	for _, e := range f.Entries {
		m[e.Key] = e
	}
	return m
}

// Limits on one file's content (see loader/limits.go, which lists every
// limit, and docs/model.md "Limits"). Past one of them the file is an
// error, never a partial read: a file cut short would make keys it sets
// further down look unset.
const (
	// MaxEntries is the number of key lines (duplicates included) of one
	// file. Real server configs hold a few hundred (the corpus at most 94);
	// past 5,000 a file costs an audit more memory than a whole repository
	// of real configs (a 10,000-key file: about 150 MB through the rules).
	MaxEntries = 5_000
	// MaxLineBytes is the length of one logical line (continuations
	// joined), before unescaping.
	MaxLineBytes = 1 << 20
)

// Parse reads data. An error is a *doc.Error at a line (its File is
// empty: the caller names the text). Bytes that are not UTF-8 are decoded as ISO-8859-1, as
// Java's Properties.load(InputStream) does. A NUL byte means the file is not
// text and is an error. Time and memory are linear in len(data).
func Parse(data []byte) (*File, error) { return parse(data, true, false) }

// parse is Parse. Without allComments the file's comments are kept only
// when one of them is a directive (the only use of a .properties file's
// comments, which the loader drops otherwise: a bulk tree's comment lines,
// Kafka's documentation of each key, were 6 % of a lint's allocations); a
// file with a directive is scanned again, keeping them. With borrow the
// text is data itself when it is UTF-8, not a copy (ReadOwned: the file
// texts were another 4 %).
func parse(data []byte, allComments, borrow bool) (*File, error) {
	if i := bytes.IndexByte(data, 0); i >= 0 {
		return nil, &doc.Error{Line: 1 + bytes.Count(data[:i], []byte{'\n'}), Column: i - bytes.LastIndexByte(data[:i], '\n'),
			Message: "file contains a NUL byte; not a text properties file"}
	}
	text := decode(data, borrow)
	f, empty, err := scan(text, allComments)
	if err == nil && f.directive {
		f, empty, err = scan(text, true)
	}
	if err != nil {
		return nil, err
	}
	if needsReference(text) {
		if err := crossCheck(text, f, empty); err != nil {
			return nil, err
		}
	}
	return f, nil
}

// needsReference reports whether this package's scanner and
// magiconair/properties could read text differently, so that magiconair
// must confirm the result. Without an escape there is nothing to unescape:
// a text without a backslash, or whose backslashes are in comments or
// continue an entry's value (a line ending in one backslash, after the key
// and its separator, followed by '\n'), is read alike (magiconair reads a
// continuation within a key as an escaped line break, unlike Java, and
// after a continuation takes the '\n' of "\r\n" for a line end). Without
// a lone '\r' (which both Java and magiconair take for a line end, the
// scanner only as part of "\r\n") both split the same lines at the same
// delimiters; the encoding plays no part, since both read the text decode
// produced. The empty key is the one other difference (magiconair refuses
// it) and crossCheck handles it. A text that still starts with a byte order
// mark (the file had two) goes to magiconair too, which drops it where the
// scanner keeps it. FuzzScannerMatchesMagiconair checks this claim.
// (Continued JAAS configurations are common: confirming them with
// magiconair was 2.4 % of a .properties lint's instructions on
// bench/compare.sh's separate tree.)
func needsReference(text string) bool {
	if strings.HasPrefix(text, "\ufeff") {
		return true
	}
	for i := strings.IndexByte(text, '\r'); i >= 0; {
		if i+1 >= len(text) || text[i+1] != '\n' {
			return true
		}
		j := strings.IndexByte(text[i+1:], '\r')
		if j < 0 {
			break
		}
		i += 1 + j
	}
	if strings.IndexByte(text, '\\') < 0 {
		return false
	}
	r := &lines{text: text}
	continued := false // the line before continues an entry's value
	for {
		raw, ok := r.next()
		if !ok {
			return false
		}
		line := strings.TrimLeft(raw, whitespace)
		if !continued && (line == "" || line[0] == '#' || line[0] == '!') {
			continue
		}
		slash := strings.IndexByte(line, '\\')
		switch {
		case slash < 0:
			continued = false
			continue
		case slash != len(line)-1:
			return true // an escape
		case r.pos > len(r.text) || len(raw) < r.end()-r.start:
			return true // a continuation at the end of the text, or before "\r\n"
		case continued:
			continue // the value goes on
		}
		// The key must end on this line, and with its separator: Java
		// takes an '=' or ':' after the key's whitespace on the next line
		// for the separator, magiconair for the value's first character.
		sep := strings.IndexAny(line, "=: \t\f")
		if sep < 0 || strings.TrimLeft(line[sep:], whitespace)[0] == '\\' {
			return true
		}
		continued = true
	}
}

// decode is data as text: UTF-8 as it is, other bytes as ISO-8859-1. With
// borrow, UTF-8 data becomes the text itself: the caller never changes
// data afterwards (ReadOwned).
func decode(data []byte, borrow bool) string {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if utf8.Valid(data) {
		if borrow && len(data) > 0 {
			return unsafe.String(&data[0], len(data)) // ReadOwned's data is the caller's no more
		}
		return string(data)
	}
	// ISO-8859-1: every byte is the code point of the same value, at most
	// two bytes in UTF-8.
	out := make([]byte, 0, len(data)+len(data)/2)
	for _, b := range data {
		out = utf8.AppendRune(out, rune(b))
	}
	return string(out)
}

var lineErrRE = regexp.MustCompile(`^properties: Line (\d+): (.*)$`)

// crossCheck lets magiconair/properties validate the file (escapes and the
// like) and confirms that both readers find the same keys with the same
// final values. empty holds the byte spans of the entries with an empty
// key, which Java accepts and magiconair refuses: they are blanked (their
// line breaks kept, so line numbers stay) before magiconair reads the text.
func crossCheck(text string, f *File, empty []span) error {
	// magiconair ends a line at '\r' and then at '\n', so after a
	// continuation backslash it takes the '\n' of "\r\n" for the end of
	// the logical line; Java (and the scanner) skip it. Giving it "\n"
	// alone changes nothing else: it counts lines by '\n'.
	text = strings.ReplaceAll(blank(text, empty), "\r\n", "\n")
	l := &mprops.Loader{Encoding: mprops.UTF8, DisableExpansion: true}
	p, err := l.LoadBytes([]byte(text))
	if err != nil {
		msg := err.Error()
		line := 1
		if m := lineErrRE.FindStringSubmatch(msg); m != nil {
			line, _ = strconv.Atoi(m[1])
			msg = m[2]
		}
		return &doc.Error{Line: line, Message: referenceMessage(strings.TrimPrefix(msg, "properties: "))}
	}
	// Both must find the same keys in the same order of first occurrence
	// (the order the loader keeps), each with the same final value. A
	// lone '\r' in a comment, for one, hides a line from the scanner
	// that magiconair (and Java) read.
	last := f.Last()
	seen := make(map[string]bool, len(last))
	ref := p.Keys()
	n := 0
	for _, e := range f.Entries {
		if e.Key == "" || seen[e.Key] {
			continue
		}
		seen[e.Key] = true
		v, ok := p.Get(e.Key)
		if !ok || n >= len(ref) || ref[n] != e.Key || v != last[e.Key].Value {
			return &doc.Error{Line: e.Line, Column: e.Column, Message: fmt.Sprintf("cannot read key %s consistently", Quote(e.Key))}
		}
		n++
	}
	if n < len(ref) {
		return &doc.Error{Line: 1, Message: fmt.Sprintf("cannot read key %s consistently", Quote(ref[n]))}
	}
	return nil
}

// blank empties the given spans of text, keeping their line breaks.
func blank(text string, spans []span) string {
	if len(spans) == 0 {
		return text
	}
	var b strings.Builder
	b.Grow(len(text))
	at := 0
	for _, s := range spans {
		b.WriteString(text[at:s.start])
		b.WriteString(strings.Repeat("\n", strings.Count(text[s.start:s.end], "\n")))
		at = s.end
	}
	b.WriteString(text[at:])
	return b.String()
}

// referenceMessage keeps magiconair's own error texts ("invalid unicode
// literal", "premature EOF") and replaces any that could quote the file:
// its parser quotes the unexpected token, which is a value (a secret, for
// a line such as ":hunter2" that it reads as a value without a key).
func referenceMessage(msg string) string {
	switch msg {
	case "invalid unicode literal", "premature EOF":
		return msg
	}
	return "text that Java's Properties and this reader would read differently"
}

// Quote quotes a key (never a value) or a list entry for a message, cut
// to 64 bytes and "…": a key is no secret, but it can be as long as a
// line.
func Quote(k string) string {
	const limit = 64
	if len(k) > limit {
		cut := limit
		for cut > 0 && !utf8.RuneStart(k[cut]) {
			cut--
		}
		return strconv.Quote(k[:cut]) + "…"
	}
	return strconv.Quote(k)
}

// span is a byte range of the text.
type span struct{ start, end int }

// lines yields the physical lines of a text as strings.Split(text, "\n")
// would, without building the slice, with the line's trailing '\r'
// removed and its byte offset.
type lines struct {
	text  string
	pos   int // offset of the next line; len(text)+1 once done
	n     int // number of the line last returned (1-based)
	start int // offset of the line last returned
}

func (r *lines) next() (string, bool) {
	if r.pos > len(r.text) {
		return "", false
	}
	r.start = r.pos
	rest := r.text[r.pos:]
	line := rest
	if i := strings.IndexByte(rest, '\n'); i >= 0 {
		line = rest[:i]
		r.pos += i + 1
	} else {
		r.pos = len(r.text) + 1
	}
	r.n++
	return strings.TrimSuffix(line, "\r"), true
}

// end is the offset just past the line last returned (its '\n' excluded).
func (r *lines) end() int {
	return min(r.pos, len(r.text)+1) - 1
}

const whitespace = " \t\f"

// scan implements java.util.Properties.load's logical-line rules in one
// pass: a logical line is a slice of the text unless it continues, and
// then it is built once, piece by piece. It also returns the spans of the
// entries whose key is empty (see crossCheck).
func scan(text string, comments bool) (*File, []span, error) {
	f := &File{}
	var empty []span
	var b strings.Builder
	r := &lines{text: text}
	for {
		raw, ok := r.next()
		if !ok {
			break
		}
		trimmed := strings.TrimLeft(raw, whitespace)
		if trimmed == "" {
			continue
		}
		if trimmed[0] == '#' || trimmed[0] == '!' {
			if comments {
				f.Comments = append(f.Comments, doc.Comment{Text: trimmed[1:], Line: r.n})
			} else if !f.directive {
				f.directive = doc.IsDirective(trimmed[1:])
			}
			continue
		}
		start, startOffset := r.n, r.start
		if len(f.Entries) == MaxEntries {
			return nil, nil, &doc.Error{Line: start, Message: fmt.Sprintf("more than %d keys in one file (the limit of keys per file)", MaxEntries)}
		}
		col := len(raw) - len(trimmed) + 1
		logical := trimmed
		if endsWithContinuation(trimmed) {
			// A line ending in an odd number of backslashes continues on
			// the next line, whose leading whitespace is dropped. The
			// piece written so far ends in an even run of backslashes, so
			// whether the joined line continues depends on the new piece
			// alone.
			b.Reset()
			piece := trimmed
			for {
				b.WriteString(piece[:len(piece)-1])
				if b.Len() > MaxLineBytes {
					break
				}
				next, ok := r.next()
				if !ok {
					break
				}
				piece = strings.TrimLeft(next, whitespace)
				if !endsWithContinuation(piece) {
					b.WriteString(piece)
					break
				}
			}
			logical = b.String()
		}
		if len(logical) > MaxLineBytes {
			return nil, nil, &doc.Error{Line: start, Message: fmt.Sprintf("logical line longer than %d bytes (the limit of one line)", MaxLineBytes)}
		}
		key, value, err := splitKeyValue(logical)
		if err != nil {
			return nil, nil, &doc.Error{Line: start, Message: err.Error()}
		}
		if key == "" {
			empty = append(empty, span{startOffset, r.end()})
		}
		f.Entries = append(f.Entries, Entry{
			Key: key, Value: value, Line: start, Column: utf8.RuneCountInString(raw[:col-1]) + 1,
			EndLine: r.n,
		})
	}
	return f, empty, nil
}

func endsWithContinuation(s string) bool {
	n := 0
	for i := len(s) - 1; i >= 0 && s[i] == '\\'; i-- {
		n++
	}
	return n%2 == 1
}

// splitKeyValue splits a logical line at the first unescaped '=', ':' or
// whitespace, then unescapes both halves. A line that starts with '=' or
// ':' has the empty key, as in Java.
func splitKeyValue(s string) (key, value string, err error) {
	end := len(s)
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\\' {
			i++
			continue
		}
		if c == '=' || c == ':' || c == ' ' || c == '\t' || c == '\f' {
			end = i
			break
		}
	}
	rawKey := s[:end]
	rest := s[end:]
	rest = strings.TrimLeft(rest, whitespace)
	if rest != "" && (rest[0] == '=' || rest[0] == ':') {
		rest = strings.TrimLeft(rest[1:], whitespace)
	}
	if key, err = unescape(rawKey); err != nil {
		return "", "", err
	}
	if value, err = unescape(rest); err != nil {
		return "", "", err
	}
	return key, value, nil
}

var errBadUnicode = errors.New("invalid \\uXXXX escape")

func unescape(s string) (string, error) {
	if !strings.Contains(s, "\\") {
		return s, nil
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		switch s[i] {
		case 't':
			b.WriteByte('\t')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 'f':
			b.WriteByte('\f')
		case 'u':
			if i+5 > len(s) {
				return "", errBadUnicode
			}
			n, err := strconv.ParseUint(s[i+1:i+5], 16, 16)
			if err != nil {
				return "", errBadUnicode
			}
			b.WriteRune(rune(uint16(n))) // four hex digits: at most 0xFFFF
			i += 4
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String(), nil
}
