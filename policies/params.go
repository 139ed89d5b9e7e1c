package policies

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"

	"github.com/open-policy-agent/opa/v1/storage"
	"github.com/open-policy-agent/opa/v1/storage/inmem"
)

// Parameters (thresholds as data). Every policy, built-in or custom, reads
// them at data.kafkalint.params: the bundle's defaults
// (kafkalint/params/data.yaml) with the --data files merged over them.
// A built-in key a data file misspells or gives the wrong kind of value
// is an error, never silently the default; `custom` holds the custom
// policies' own data and is not checked.

// customParams is the free-form section of the parameters.
const customParams = "custom"

const defaultParamsFile = "kafkalint/params/data.yaml"

var defaultParams = sync.OnceValues(func() (map[string]any, error) {
	b, err := bundleFS.ReadFile(defaultParamsFile)
	if err != nil {
		return nil, err
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(b, &doc); err != nil {
		return nil, fmt.Errorf("%s: %w", defaultParamsFile, err)
	}
	v, p := plain(&doc, "policies/"+defaultParamsFile)
	if p != nil {
		return nil, p
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%s: want a mapping", defaultParamsFile)
	}
	return m, nil
})

// DefaultParams returns a copy of the built-in parameters.
func DefaultParams() (map[string]any, error) {
	d, err := defaultParams()
	if err != nil {
		return nil, err
	}
	out, _ := deepCopy(d).(map[string]any) // a copy of a map is a map
	return out, nil
}

// loadParams merges data files, in order, over the built-in parameters.
func loadParams(files []string) (map[string]any, error) {
	return loadParamsIn(files, "")
}

// loadParamsIn is loadParams reading only inside the directory root ("" =
// anywhere; see Options.DataRoot).
func loadParamsIn(files []string, root string) (map[string]any, error) {
	params, err := DefaultParams()
	if err != nil {
		return nil, err
	}
	read, done, err := reader(root)
	if err != nil {
		return nil, err
	}
	defer done()
	for _, f := range files {
		b, err := read(f)
		if err != nil {
			return nil, problems{{File: displayPath(f), Message: "cannot read data file: " + readReason(err)}}
		}
		if err := mergeParams(params, displayPath(f), b); err != nil {
			return nil, err
		}
	}
	return params, nil
}

// mergeParams checks a data file (YAML or JSON) named name and merges it
// into params.
func mergeParams(params map[string]any, name string, data []byte) error {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil // empty: nothing to override
		}
		return problems{yamlProblem(name, err)}
	}
	root := &doc
	if root.Kind == yaml.DocumentNode && len(root.Content) > 0 {
		root = root.Content[0]
	}
	if root.Kind == yaml.ScalarNode && root.Tag == "!!null" {
		return nil // only comments
	}
	var ps problems
	mergeInto(params, root, name, "", &ps)
	return ps.Err()
}

var yamlLineRE = strings.NewReplacer("yaml: ", "")

func yamlProblem(name string, err error) *problem {
	msg := yamlLineRE.Replace(err.Error())
	if rest, ok := strings.CutPrefix(msg, "line "); ok {
		if n, tail, ok := strings.Cut(rest, ": "); ok {
			if line, err := strconv.Atoi(n); err == nil {
				return &problem{File: name, Line: line, Message: "invalid YAML or JSON: " + tail}
			}
		}
	}
	return &problem{File: name, Message: "invalid YAML or JSON: " + msg}
}

// mergeInto merges the mapping n into dst, whose keys (the defaults) say
// what may be set; prefix is the dotted path of dst for messages.
func mergeInto(dst map[string]any, n *yaml.Node, name, prefix string, ps *problems) {
	n = resolveAlias(n)
	what := "the data file"
	if prefix != "" {
		what = prefix
	}
	if n.Kind != yaml.MappingNode {
		*ps = append(*ps, nodeProblem(n, name, "%s must be a mapping of parameters, not %s", what, kindOf(n)))
		return
	}
	seen := map[string]int{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], resolveAlias(n.Content[i+1])
		key := k.Value
		path := strings.TrimPrefix(prefix+"."+key, ".")
		if line, dup := seen[key]; dup {
			*ps = append(*ps, nodeProblem(k, name, "%s is set twice (also at line %d)", path, line))
			continue
		}
		seen[key] = k.Line
		if prefix == "" && key == customParams {
			if v.Kind != yaml.MappingNode {
				*ps = append(*ps, nodeProblem(v, name, "custom must be a mapping (your policies read data.kafkalint.params.custom.<key>), not %s", kindOf(v)))
				continue
			}
			val, p := plain(v, name)
			if p != nil {
				*ps = append(*ps, p)
				continue
			}
			old, _ := dst[customParams].(map[string]any)
			m, _ := val.(map[string]any) // v is a mapping
			dst[customParams] = mergeFree(old, m)
			continue
		}
		def, known := dst[key]
		if !known {
			known := slices.Sorted(maps.Keys(dst))
			*ps = append(*ps, nodeProblem(k, name, "unknown parameter %q%s (known here: %s)", path, closest(key, known), strings.Join(known, ", ")))
			continue
		}
		if sub, ok := def.(map[string]any); ok {
			mergeInto(sub, v, name, path, ps)
			continue
		}
		val, p := plain(v, name)
		if p != nil {
			*ps = append(*ps, p)
			continue
		}
		if msg := sameKind(def, val); msg != "" {
			*ps = append(*ps, nodeProblem(v, name, "%s must be %s, not %s", path, msg, kindOf(v)))
			continue
		}
		dst[key] = val
	}
}

// mergeFree merges free-form mappings: src wins, key by key.
func mergeFree(dst, src map[string]any) map[string]any {
	if dst == nil {
		dst = map[string]any{}
	}
	for k, v := range src {
		if sv, ok := v.(map[string]any); ok {
			if dv, ok := dst[k].(map[string]any); ok {
				dst[k] = mergeFree(dv, sv)
				continue
			}
		}
		dst[k] = v
	}
	return dst
}

// sameKind says what val must be to replace def ("" when it may).
func sameKind(def, val any) string {
	switch d := def.(type) {
	case json.Number:
		v, ok := val.(json.Number)
		if !ok {
			return "a number"
		}
		if _, err := strconv.ParseInt(string(d), 10, 64); err == nil {
			if n, err := strconv.ParseInt(string(v), 10, 64); err != nil || n < 0 {
				return "a whole number, 0 or more"
			}
		}
	case bool:
		if _, ok := val.(bool); !ok {
			return "true or false"
		}
	case string:
		if _, ok := val.(string); !ok {
			return "a string"
		}
	case []any:
		if _, ok := val.([]any); !ok {
			return "a list"
		}
	}
	return ""
}

// closest proposes the known key a misspelled one probably means.
func closest(key string, known []string) string {
	norm := func(s string) string {
		return strings.ToLower(strings.NewReplacer("-", "", "_", "", ".", "", " ", "").Replace(s))
	}
	for _, k := range known {
		if norm(k) == norm(key) || strings.TrimSuffix(norm(k), "s") == strings.TrimSuffix(norm(key), "s") {
			return fmt.Sprintf("; did you mean %q?", k)
		}
	}
	return ""
}

func resolveAlias(n *yaml.Node) *yaml.Node {
	for n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	return n
}

func nodeProblem(n *yaml.Node, name, format string, args ...any) *problem {
	return &problem{File: name, Line: n.Line, Column: n.Column, Message: fmt.Sprintf(format, args...)}
}

func kindOf(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	}
	if n.Tag == "!!null" {
		return "empty"
	}
	return strconv.Quote(n.Value)
}

// maxValues bounds the values one data file may expand to: YAML aliases
// can make a small file describe an enormous value.
const maxValues = 1_000_000

// plain converts a YAML node into the JSON value OPA stores: objects with
// string keys, arrays, strings, booleans, null and numbers as json.Number.
func plain(n *yaml.Node, name string) (any, *problem) {
	budget := maxValues
	return plainValue(n, name, &budget)
}

func plainValue(n *yaml.Node, name string, budget *int) (any, *problem) {
	n = resolveAlias(n)
	*budget--
	if *budget < 0 {
		return nil, nodeProblem(n, name, "the data expands to more than %d values (aliases?)", maxValues)
	}
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return nil, nil
		}
		return plainValue(n.Content[0], name, budget)
	case yaml.MappingNode:
		out := map[string]any{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			if k.Kind != yaml.ScalarNode || k.Tag == "!!merge" {
				return nil, nodeProblem(k, name, "keys must be plain strings (no merge keys or complex keys)")
			}
			v, p := plainValue(n.Content[i+1], name, budget)
			if p != nil {
				return nil, p
			}
			out[k.Value] = v
		}
		return out, nil
	case yaml.SequenceNode:
		out := make([]any, 0, len(n.Content))
		for _, c := range n.Content {
			v, p := plainValue(c, name, budget)
			if p != nil {
				return nil, p
			}
			out = append(out, v)
		}
		return out, nil
	}
	switch n.Tag {
	case "!!null":
		return nil, nil
	case "!!bool":
		var b bool
		if err := n.Decode(&b); err != nil {
			return nil, nodeProblem(n, name, "%v", err)
		}
		return b, nil
	case "!!int", "!!float":
		var f float64
		if err := n.Decode(&f); err != nil {
			return nil, nodeProblem(n, name, "%v", err)
		}
		if n.Tag == "!!int" {
			var i int64
			if err := n.Decode(&i); err == nil {
				return json.Number(strconv.FormatInt(i, 10)), nil
			}
		}
		if math.IsInf(f, 0) || math.IsNaN(f) {
			return nil, nodeProblem(n, name, "%s is not a JSON number", n.Value)
		}
		return json.Number(strconv.FormatFloat(f, 'g', -1, 64)), nil
	}
	return n.Value, nil
}

func deepCopy(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = deepCopy(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = deepCopy(e)
		}
		return out
	}
	return v
}

// paramsStore is the store policies read: the parameters at
// data.kafkalint.params and nothing else.
func paramsStore(params map[string]any) storage.Store {
	return inmem.NewFromObject(map[string]any{"kafkalint": map[string]any{"params": params}})
}

// defaultStore holds the built-in parameters.
var defaultStore = sync.OnceValues(func() (storage.Store, error) {
	p, err := DefaultParams()
	if err != nil {
		return nil, err
	}
	return paramsStore(p), nil
})
