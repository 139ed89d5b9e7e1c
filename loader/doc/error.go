package doc

import (
	"fmt"
	"strconv"
)

// Error is a source that cannot be read or parsed, at the place that says
// why when it is known: Line is 0 when the whole file is refused, Column 0
// when only the line is known; EndLine and EndColumn are set when the
// parser says where the offending text ends (HCL diagnostics). It is the
// one positioned error of every format, carried unchanged into the
// report's errors[].
type Error struct {
	File      string `json:"file"`
	Line      int    `json:"line"`
	Column    int    `json:"column,omitempty"`
	EndLine   int    `json:"end_line,omitempty"`
	EndColumn int    `json:"end_column,omitempty"`
	Message   string `json:"message"`
}

// At is an Error at loc (its end included).
func At(loc Location, message string) *Error {
	return &Error{File: loc.File, Line: loc.Line, Column: loc.Column, EndLine: loc.EndLine, EndColumn: loc.EndColumn, Message: message}
}

// Errorf is an Error at loc with a formatted message.
func Errorf(loc Location, format string, args ...any) *Error {
	return At(loc, fmt.Sprintf(format, args...))
}

// Error is "file:line:column: message", leaving out what is unknown; an
// error of a text with no file name (a parser's) says "line N".
func (e *Error) Error() string {
	pos := e.File
	if e.Line > 0 {
		if pos == "" {
			pos = "line "
		} else {
			pos += ":"
		}
		pos += strconv.Itoa(e.Line)
		if e.Column > 0 {
			pos += ":" + strconv.Itoa(e.Column)
		}
	}
	if pos == "" {
		return e.Message
	}
	return pos + ": " + e.Message
}
