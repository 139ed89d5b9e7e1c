package doc

import "strings"

// Location points at a place in a source file. Lines and columns are
// 1-based; Column is 0 when unknown. EndLine and EndColumn, when known,
// are where the located text ends: the position just past its last
// character (as HCL, SARIF and LSP count). Only errors set them today,
// so a setting's location has none.
type Location struct {
	File      string `json:"file"`
	Line      int    `json:"line"`
	Column    int    `json:"column"`
	EndLine   int    `json:"end_line,omitempty"`
	EndColumn int    `json:"end_column,omitempty"`
}

// DirectivePrefix starts every directive comment (`# kafkalint:ignore
// ...`, loader.ParseDirectives).
const DirectivePrefix = "kafkalint:"

// IsDirective reports whether a comment's text (without its marker) is a
// directive, well formed or not.
func IsDirective(text string) bool {
	return strings.HasPrefix(strings.TrimSpace(text), DirectivePrefix)
}

// Comment is a comment in a source file.
type Comment struct {
	Line int    `json:"line"`
	Text string `json:"text"` // without the comment marker
	// Trailing: the comment follows code on its line (YAML, HCL); in
	// .properties a '#' after a value is part of the value, so never.
	Trailing bool `json:"trailing,omitempty"`
}
