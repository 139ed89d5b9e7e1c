package yamlsrc

import (
	"errors"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kafkalint/kafkalint/loader/doc"
	"github.com/kafkalint/kafkalint/loader/properties"
)

// configBlock reads Kafka settings written as a YAML map (`key: value`) or
// as properties text in a string (`config: |`). Lines of a literal block
// scalar map back to the lines of the YAML file; for other string styles
// every key is located at the string. Keys written twice in the block are
// duplicates.
func configBlock(f *File, n *yaml.Node, origin string) ([]doc.Setting, []doc.Duplicate, *doc.Error) {
	n = deref(n)
	if n == nil || isNull(n) {
		return nil, nil, nil
	}
	var out []doc.Setting
	var dups []doc.Duplicate
	switch n.Kind {
	case yaml.MappingNode:
		es, ds := entries(n)
		for _, d := range ds {
			dups = append(dups, doc.Duplicate{Key: d.Key, Loc: withFile(f.Name, d.Loc), Previous: filePositions(f.Name, d.Previous)})
		}
		for _, e := range es {
			if isScalar(e.Value) {
				out = append(out, doc.Setting{Key: e.key(), Value: text(e.Value), Loc: pos(f.Name, e.Key), Origin: origin})
			}
		}
	case yaml.ScalarNode:
		if strings.TrimSpace(n.Value) == "" {
			return nil, nil, nil
		}
		pf, err := properties.Parse([]byte(n.Value))
		locate := blockLocator(f, n)
		if err != nil {
			e := &doc.Error{File: f.Name, Message: err.Error()}
			var pe *doc.Error
			if errors.As(err, &pe) {
				at := locate(pe.Line, max(pe.Column, 1))
				e.Line, e.Message = at.Line, pe.Message
				if pe.Column > 0 {
					e.Column = at.Column
				}
			}
			e.Message = "invalid properties text in " + origin + ": " + e.Message
			return nil, nil, e
		}
		seen := map[string]int{}
		for _, e := range pf.Entries {
			s := doc.Setting{Key: e.Key, Value: e.Value, Loc: locate(e.Line, e.Column), Origin: origin}
			if i, ok := seen[e.Key]; ok {
				dups = append(dups, doc.Duplicate{Key: e.Key, Loc: s.Loc, Previous: []doc.Location{out[i].Loc}})
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
func blockLocator(f *File, n *yaml.Node) func(line, col int) doc.Location {
	at := pos(f.Name, n)
	if n.Style&yaml.LiteralStyle == 0 {
		return func(int, int) doc.Location { return at }
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
	return func(line, col int) doc.Location {
		return doc.Location{File: f.Name, Line: n.Line + line, Column: indent + col}
	}
}
