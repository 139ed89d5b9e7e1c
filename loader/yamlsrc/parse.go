package yamlsrc

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kafkalint/kafkalint/loader/doc"
)

// File is a parsed YAML file.
type File struct {
	Name     string       // display path, used in every doc.Location
	Docs     []*yaml.Node // the root node of each document (never a DocumentNode)
	Comments []doc.Comment
	lines    []string // the source lines, for block scalar indentation
}

var yamlLineRE = regexp.MustCompile(`^yaml: (?:line (\d+): )?`)

// Parse reads every document of data. It never panics: whatever the input,
// it returns a File or an error of a file that is not valid YAML (Line 0
// when the parser does not say).
func Parse(name string, data []byte) (f *File, perr *doc.Error) {
	defer func() {
		if r := recover(); r != nil {
			f, perr = nil, &doc.Error{File: name, Message: fmt.Sprintf("invalid YAML: %v", r)}
		}
	}()
	if i := bytes.IndexByte(data, 0); i >= 0 {
		return nil, &doc.Error{File: name, Line: 1 + bytes.Count(data[:i], []byte{'\n'}), Column: i - bytes.LastIndexByte(data[:i], '\n'),
			Message: "file contains a NUL byte; not a YAML text file"}
	}
	f = &File{Name: name}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	for {
		var n yaml.Node
		err := dec.Decode(&n)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			e := yamlError(name, err)
			if n := LineCount(data); e.Line > n {
				e.Line = n
			}
			return nil, e
		}
		if n.Kind == yaml.DocumentNode && len(n.Content) == 1 {
			f.Docs = append(f.Docs, n.Content[0])
		}
	}
	f.lines = splitLines(string(data))
	f.Comments = scanComments(f.lines)
	return f, nil
}

// lineBreaks are what the YAML parser counts as line breaks: CR LF, CR,
// LF and the Unicode NEL, LS and PS.
var lineBreaks = strings.NewReplacer("\r\n", "\n", "\r", "\n", "\u0085", "\n", "\u2028", "\n", "\u2029", "\n")

func splitLines(text string) []string {
	return strings.Split(lineBreaks.Replace(text), "\n")
}

// LineCount is the number of lines of data as the YAML parser counts them.
func LineCount(data []byte) int { return len(splitLines(string(data))) }

func yamlError(name string, err error) *doc.Error {
	msg := err.Error()
	line := 0
	if m := yamlLineRE.FindStringSubmatch(msg); m != nil {
		if m[1] != "" {
			line, _ = strconv.Atoi(m[1])
		}
		msg = msg[len(m[0]):]
		// yaml.v3 reports parser errors at the 0-based line of the
		// collection they occur in ("did not find expected ..."): make it
		// the 1-based line where that collection starts.
		if strings.HasPrefix(msg, "did not find expected") {
			line++
		}
	}
	return &doc.Error{File: name, Line: line, Message: "invalid YAML: " + msg}
}

// LooksLikeTemplate reports text that is a template to be rendered before
// it is YAML (Helm chart templates, Jinja): it is not YAML, so a file that
// does not parse is skipped rather than reported when it contains these.
func LooksLikeTemplate(data []byte) bool {
	return bytes.Contains(data, []byte("{{")) || bytes.Contains(data, []byte("{%"))
}

// blockIndicatorRE matches a line whose value starts a block scalar
// (`key: |`, `- >-`, `key: |2 # comment`).
var blockIndicatorRE = regexp.MustCompile(`(?:^\s*-?|:)\s*[|>][0-9+-]{0,2}$`)

// scanComments finds the comments of the source lines: a '#' at the start
// of a line or after a blank, outside quotes and outside block scalar
// content (where '#' is text).
func scanComments(lines []string) []doc.Comment {
	var out []doc.Comment
	blockIndent := -1 // indentation of the line that opened a block scalar
	for i, line := range lines {
		indent := len(line) - len(strings.TrimLeft(line, " \t"))
		trimmed := strings.TrimSpace(line)
		if blockIndent >= 0 {
			if trimmed == "" || indent > blockIndent {
				continue
			}
			blockIndent = -1
		}
		if c, ok := lineComment(line); ok {
			c.Line = i + 1
			out = append(out, c)
		}
		if code := strings.TrimRight(stripComment(line), " \t"); blockIndicatorRE.MatchString(code) {
			blockIndent = indent
		}
	}
	return out
}

// lineComment returns the comment of one line, if any.
func lineComment(line string) (doc.Comment, bool) {
	i := commentStart(line)
	if i < 0 {
		return doc.Comment{}, false
	}
	return doc.Comment{Text: line[i+1:], Trailing: strings.TrimSpace(line[:i]) != ""}, true
}

func stripComment(line string) string {
	if i := commentStart(line); i >= 0 {
		return strings.TrimRight(line[:i], " \t")
	}
	return line
}

// commentStart is the index of the '#' that starts a comment on the line,
// or -1. Quotes are tracked within the line only.
func commentStart(line string) int {
	var quote byte
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case quote == '\'' && c == '\'':
			if i+1 < len(line) && line[i+1] == '\'' {
				i++
				continue
			}
			quote = 0
		case quote == '"' && c == '\\':
			i++
		case quote == '"' && c == '"':
			quote = 0
		case quote != 0:
		case c == '\'' || c == '"':
			// A quote opens a quoted scalar only where a scalar starts.
			if i == 0 || strings.ContainsRune(" \t:-[{,", rune(line[i-1])) {
				quote = c
			}
		case c == '#':
			if i == 0 || line[i-1] == ' ' || line[i-1] == '\t' {
				return i
			}
		}
	}
	return -1
}
