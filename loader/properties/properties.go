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
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	mprops "github.com/magiconair/properties"
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
	// Comments are the comment lines directly above the key (text after the
	// leading '#' or '!', in file order). A blank line ends a comment block.
	Comments []string
}

// Comment is a comment line with its position.
type Comment struct {
	Text string // text after the leading '#' or '!'
	Line int
}

// File is a parsed properties file.
type File struct {
	Entries  []Entry   // every key in file order, duplicates included
	Comments []Comment // every comment line in file order
}

// Error is a parse error at a line.
type Error struct {
	Line int
	Msg  string
}

func (e *Error) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Msg) }

// Last returns the map of keys to their last value, which is what Java keeps.
func (f *File) Last() map[string]Entry {
	m := make(map[string]Entry, len(f.Entries))
	for _, e := range f.Entries {
		m[e.Key] = e
	}
	return m
}

// Parse reads data. Bytes that are not UTF-8 are decoded as ISO-8859-1, as
// Java's Properties.load(InputStream) does. A NUL byte means the file is not
// text and is an error.
func Parse(data []byte) (*File, error) {
	if i := bytes.IndexByte(data, 0); i >= 0 {
		return nil, &Error{Line: 1 + bytes.Count(data[:i], []byte{'\n'}), Msg: "file contains a NUL byte; not a text properties file"}
	}
	text := decode(data)
	f, err := scan(text)
	if err != nil {
		return nil, err
	}
	if err := crossCheck(text, f); err != nil {
		return nil, err
	}
	return f, nil
}

func decode(data []byte) string {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if utf8.Valid(data) {
		return string(data)
	}
	r := make([]rune, len(data))
	for i, b := range data {
		r[i] = rune(b)
	}
	return string(r)
}

var lineErrRE = regexp.MustCompile(`^properties: Line (\d+): (.*)$`)

// crossCheck lets magiconair/properties validate the file (escapes and the
// like) and confirms that both readers agree on every key's final value.
func crossCheck(text string, f *File) error {
	l := &mprops.Loader{Encoding: mprops.UTF8, DisableExpansion: true}
	p, err := l.LoadBytes([]byte(text))
	if err != nil {
		msg := err.Error()
		if m := lineErrRE.FindStringSubmatch(msg); m != nil {
			n, _ := strconv.Atoi(m[1])
			return &Error{Line: n, Msg: m[2]}
		}
		return &Error{Line: 1, Msg: strings.TrimPrefix(msg, "properties: ")}
	}
	last := f.Last()
	keys := make([]string, 0, len(last))
	for k := range last {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		e := last[k]
		v, ok := p.Get(k)
		if !ok || v != e.Value {
			return &Error{Line: e.Line, Msg: fmt.Sprintf("cannot read key %q consistently", k)}
		}
	}
	return nil
}

// scan implements java.util.Properties.load's logical-line rules.
func scan(text string) (*File, error) {
	lines := strings.Split(text, "\n")
	f := &File{}
	var pending []string
	for i := 0; i < len(lines); i++ {
		raw := strings.TrimSuffix(lines[i], "\r")
		trimmed := strings.TrimLeft(raw, " \t\f")
		if trimmed == "" {
			pending = nil
			continue
		}
		if trimmed[0] == '#' || trimmed[0] == '!' {
			c := Comment{Text: trimmed[1:], Line: i + 1}
			f.Comments = append(f.Comments, c)
			pending = append(pending, c.Text)
			continue
		}
		start := i
		col := len(raw) - len(trimmed) + 1
		// Join continuation lines: a line ending in an odd number of
		// backslashes continues on the next line, whose leading whitespace
		// is dropped.
		logical := trimmed
		for endsWithContinuation(logical) && i+1 < len(lines) {
			i++
			next := strings.TrimLeft(strings.TrimSuffix(lines[i], "\r"), " \t\f")
			logical = logical[:len(logical)-1] + next
		}
		if endsWithContinuation(logical) {
			logical = logical[:len(logical)-1]
		}
		key, value, err := splitKeyValue(logical)
		if err != nil {
			return nil, &Error{Line: start + 1, Msg: err.Error()}
		}
		f.Entries = append(f.Entries, Entry{
			Key: key, Value: value, Line: start + 1, Column: utf8.RuneCountInString(raw[:col-1]) + 1,
			EndLine: i + 1, Comments: pending,
		})
		pending = nil
	}
	return f, nil
}

func endsWithContinuation(s string) bool {
	n := 0
	for i := len(s) - 1; i >= 0 && s[i] == '\\'; i-- {
		n++
	}
	return n%2 == 1
}

// splitKeyValue splits a logical line at the first unescaped '=', ':' or
// whitespace, then unescapes both halves.
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
	rest = strings.TrimLeft(rest, " \t\f")
	if rest != "" && (rest[0] == '=' || rest[0] == ':') {
		rest = strings.TrimLeft(rest[1:], " \t\f")
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
