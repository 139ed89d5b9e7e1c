package yamlsrc

import (
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kafkalint/kafkalint/loader/doc"
)

// maxDepth bounds alias and merge-key chains, so a hostile file cannot make
// the walk recurse without end.
const maxDepth = 32

// deref follows aliases to the anchored node (which keeps the position
// where the anchor writes it). It returns nil for a nil or dangling alias.
func deref(n *yaml.Node) *yaml.Node {
	for i := 0; n != nil && n.Kind == yaml.AliasNode; i++ {
		if i >= maxDepth {
			return nil
		}
		n = n.Alias
	}
	return n
}

// entry is one key of a mapping with its value (aliases resolved).
type entry struct {
	Key   *yaml.Node
	Value *yaml.Node
}

func (e entry) key() string { return e.Key.Value }

// entries returns the keys of a mapping with `<<` merge keys applied, in
// source order: a key written in the mapping wins over a merged one, and an
// earlier merged mapping wins over a later one (the YAML merge key rules).
// dups lists keys written twice in the mapping itself.
func entries(m *yaml.Node) (out []entry, dups []doc.Duplicate) {
	budget := maxMerged
	return entriesDepth(m, 0, &budget)
}

// maxMerged bounds the entries one lookup may visit through merge keys:
// mappings that merge the same anchor several times at every level would
// otherwise grow exponentially (a "billion laughs" of merge keys).
const maxMerged = 10000

func entriesDepth(m *yaml.Node, depth int, budget *int) (out []entry, dups []doc.Duplicate) {
	m = deref(m)
	if m == nil || m.Kind != yaml.MappingNode || depth > maxDepth || *budget <= 0 {
		return nil, nil
	}
	*budget -= len(m.Content) / 2
	index := map[string]int{}
	var merged []entry
	var own []entry
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := deref(m.Content[i]), deref(m.Content[i+1])
		if k == nil || v == nil {
			continue
		}
		if k.Kind == yaml.ScalarNode && k.Value == "<<" && k.Tag != "!!str" {
			for _, src := range mergeSources(v) {
				sub, _ := entriesDepth(src, depth+1, budget)
				merged = append(merged, sub...)
			}
			continue
		}
		if k.Kind != yaml.ScalarNode {
			continue
		}
		own = append(own, entry{k, v})
	}
	seen := map[string]doc.Location{}
	for _, e := range own {
		if p, ok := seen[e.key()]; ok {
			dups = append(dups, doc.Duplicate{Key: e.key(), Loc: pos("", e.Key), Previous: []doc.Location{p}})
		}
		seen[e.key()] = pos("", e.Key)
	}
	for _, e := range merged {
		if _, ok := index[e.key()]; ok {
			continue // an earlier merged mapping wins
		}
		index[e.key()] = len(out)
		out = append(out, e)
	}
	for _, e := range own {
		if i, ok := index[e.key()]; ok {
			out[i] = e
			continue
		}
		index[e.key()] = len(out)
		out = append(out, e)
	}
	return out, dups
}

// mergeSources are the mappings a `<<` value names: one alias or mapping,
// or a sequence of them.
func mergeSources(v *yaml.Node) []*yaml.Node {
	if v.Kind == yaml.SequenceNode {
		var out []*yaml.Node
		for _, c := range v.Content {
			if c = deref(c); c != nil && c.Kind == yaml.MappingNode {
				out = append(out, c)
			}
		}
		return out
	}
	if v.Kind == yaml.MappingNode {
		return []*yaml.Node{v}
	}
	return nil
}

// lookup returns the entry of key in mapping m.
func lookup(m *yaml.Node, key string) (entry, bool) {
	if e, ok, merges := lookupOwn(m, key); !merges {
		return e, ok
	}
	es, _ := entries(m)
	for _, e := range es {
		if e.key() == key {
			return e, true
		}
	}
	return entry{}, false
}

// get returns the value of a dotted path of mapping keys, or nil.
func get(m *yaml.Node, path ...string) *yaml.Node {
	n := deref(m)
	for _, key := range path {
		e, ok := lookup(n, key)
		if !ok {
			return nil
		}
		n = e.Value
	}
	return n
}

// getEntry returns the entry at a dotted path (the last key and its value).
func getEntry(m *yaml.Node, path ...string) (entry, bool) {
	if len(path) == 0 {
		return entry{}, false
	}
	parent := get(m, path[:len(path)-1]...)
	if parent == nil {
		return entry{}, false
	}
	return lookup(parent, path[len(path)-1])
}

// items are the entries of a sequence (nil for anything else).
func items(n *yaml.Node) []*yaml.Node {
	if n = deref(n); n == nil || n.Kind != yaml.SequenceNode {
		return nil
	}
	return n.Content
}

// isMap and friends test node kinds, nil-safe.
func isMap(n *yaml.Node) bool { n = deref(n); return n != nil && n.Kind == yaml.MappingNode }
func isSeq(n *yaml.Node) bool { n = deref(n); return n != nil && n.Kind == yaml.SequenceNode }
func isScalar(n *yaml.Node) bool {
	n = deref(n)
	return n != nil && n.Kind == yaml.ScalarNode
}

// isNull reports a scalar that YAML reads as null (`~`, `null`, empty).
func isNull(n *yaml.Node) bool {
	n = deref(n)
	return n == nil || (n.Kind == yaml.ScalarNode && n.Tag == "!!null")
}

// text is a scalar's value as written ("" for null and non-scalars).
func text(n *yaml.Node) string {
	n = deref(n)
	if n == nil || n.Kind != yaml.ScalarNode || n.Tag == "!!null" {
		return ""
	}
	return n.Value
}

// str is text for the string-valued keys of Kubernetes and compose files.
func str(m *yaml.Node, path ...string) string { return text(get(m, path...)) }

// boolean reads a YAML boolean (true/false, and the YAML 1.1 yes/no/on/off
// that charts and compose files still use). ok is false when the value is
// absent or not a boolean.
func boolean(n *yaml.Node) (value, ok bool) {
	switch strings.ToLower(text(n)) {
	case "true", "yes", "on", "y":
		return true, true
	case "false", "no", "off", "n":
		return false, true
	}
	return false, false
}

// integer reads a whole number written as a YAML int (or a quoted one).
func integer(n *yaml.Node) (int, bool) {
	v, err := strconv.Atoi(strings.TrimSpace(text(n)))
	if err != nil || v < 0 || v > 1<<20 {
		return 0, false
	}
	return v, true
}

func pos(file string, n *yaml.Node) doc.Location {
	if n == nil {
		return doc.Location{File: file, Line: 1, Column: 1}
	}
	return doc.Location{File: file, Line: n.Line, Column: n.Column}
}

// withFile sets the file of positions made before the file was known.
func withFile(file string, p doc.Location) doc.Location {
	p.File = file
	return p
}

func docStart(file string, root *yaml.Node) doc.Location {
	p := pos(file, root)
	if p.Line == 0 {
		p.Line, p.Column = 1, 1
	}
	return p
}

// lookupOwn is lookup for a mapping without merge keys (almost all of
// them), without building its entries: the last occurrence of key wins,
// as in entries. merges reports a `<<` key, for which the caller must
// apply the merge rules.
func lookupOwn(m *yaml.Node, key string) (found entry, ok, merges bool) {
	m = deref(m)
	if m == nil || m.Kind != yaml.MappingNode {
		return entry{}, false, false
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := deref(m.Content[i]), deref(m.Content[i+1])
		if k == nil || v == nil || k.Kind != yaml.ScalarNode {
			continue
		}
		if k.Value == "<<" && k.Tag != "!!str" {
			return entry{}, false, true
		}
		if k.Value == key {
			found, ok = entry{k, v}, true
		}
	}
	return found, ok, false
}
