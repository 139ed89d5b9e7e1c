package yamlsrc

import (
	"errors"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kafkalint/kafkalint/loader/properties"
)

// configBlock reads Kafka settings written as a YAML map (`key: value`) or
// as properties text in a string (`config: |`). Lines of a literal block
// scalar map back to the lines of the YAML file; for other string styles
// every key is located at the string. Keys written twice in the block are
// duplicates.
func configBlock(f *File, n *yaml.Node, origin string) ([]Setting, []Duplicate, *Error) {
	n = deref(n)
	if n == nil || isNull(n) {
		return nil, nil, nil
	}
	var out []Setting
	var dups []Duplicate
	switch n.Kind {
	case yaml.MappingNode:
		es, ds := entries(n)
		for _, d := range ds {
			dups = append(dups, Duplicate{Key: d.Key, Pos: withFile(f.Name, d.Pos), Previous: filePositions(f.Name, d.Previous)})
		}
		for _, e := range es {
			if isScalar(e.Value) {
				out = append(out, Setting{Key: e.key(), Value: text(e.Value), Pos: pos(f.Name, e.Key), Origin: origin})
			}
		}
	case yaml.ScalarNode:
		if strings.TrimSpace(n.Value) == "" {
			return nil, nil, nil
		}
		pf, err := properties.Parse([]byte(n.Value))
		locate := blockLocator(f, n)
		if err != nil {
			line := 0
			msg := err.Error()
			var pe *properties.Error
			if errors.As(err, &pe) {
				line, msg = locate(pe.Line, 1).Line, pe.Msg
			}
			return nil, nil, &Error{Line: line, Msg: "invalid properties text in " + origin + ": " + msg}
		}
		seen := map[string]int{}
		for _, e := range pf.Entries {
			s := Setting{Key: e.Key, Value: e.Value, Pos: locate(e.Line, e.Column), Origin: origin}
			if i, ok := seen[e.Key]; ok {
				dups = append(dups, Duplicate{Key: e.Key, Pos: s.Pos, Previous: []Pos{out[i].Pos}})
				out[i] = s
				continue
			}
			seen[e.Key] = len(out)
			out = append(out, s)
		}
	}
	return out, dups, nil
}

// blockLocator maps a line and column of a string's text to the YAML file.
func blockLocator(f *File, n *yaml.Node) func(line, col int) Pos {
	at := pos(f.Name, n)
	if n.Style&yaml.LiteralStyle == 0 {
		return func(int, int) Pos { return at }
	}
	// Content starts on the line after the `|` indicator, indented by the
	// indentation of its first non-blank line.
	indent := 0
	for i := n.Line; i < len(f.lines); i++ { // f.lines[n.Line] is the line after the indicator
		if l := f.lines[i]; strings.TrimSpace(l) != "" {
			indent = len(l) - len(strings.TrimLeft(l, " "))
			break
		}
	}
	return func(line, col int) Pos {
		return Pos{File: f.Name, Line: n.Line + line, Column: indent + col}
	}
}
