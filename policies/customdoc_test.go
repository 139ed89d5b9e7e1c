package policies

import (
	"encoding/json"
	"flag"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
	"testing"
)

// docs/custom-policies.md holds a reference of the cluster model generated
// from policies/schemas/cluster.json; rewrite it with
// `go test ./policies -run TestCustomPoliciesDoc -update`.

const (
	customDoc      = "../docs/custom-policies.md"
	modelDocStart  = "<!-- model:start (generated from policies/schemas/cluster.json by `go test ./policies -run TestCustomPoliciesDoc -update`) -->"
	modelDocEnd    = "<!-- model:end -->"
	schemaDefsPath = "#/definitions/"
)

func init() {
	if flag.Lookup("update") == nil {
		flag.Bool("update", false, "rewrite generated files")
	}
}

func updatingDocs() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

// jsonSchema is the part of JSON Schema cluster.json uses.
type jsonSchema struct {
	Type                 any                    `json:"type"`
	Ref                  string                 `json:"$ref"`
	Description          string                 `json:"description"`
	Enum                 []any                  `json:"enum"`
	Items                *jsonSchema            `json:"items"`
	Properties           map[string]*jsonSchema `json:"properties"`
	Required             []string               `json:"required"`
	AdditionalProperties any                    `json:"additionalProperties"`
	Definitions          map[string]*jsonSchema `json:"definitions"`
}

// modelReference renders the schema as one table per object type.
func modelReference(t *testing.T) string {
	t.Helper()
	var root jsonSchema
	if err := json.Unmarshal(clusterSchema(), &root); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	section := func(name, intro string, s *jsonSchema) {
		fmt.Fprintf(&b, "\n### %s\n\n", name)
		if d := strings.TrimSpace(cmpOr(intro, s.Description)); d != "" {
			b.WriteString(oneLine(d) + "\n\n")
		}
		if len(s.Properties) == 0 {
			fmt.Fprintf(&b, "%s.\n", typeOf(s))
			return
		}
		b.WriteString("| field | type | description |\n|---|---|---|\n")
		fields(&b, "", s)
	}
	section("cluster (input)", "One cluster: what `input` is. `kafkalint inspect PATH...` prints it.", &root)
	for _, name := range slices.Sorted(maps.Keys(root.Definitions)) {
		section(name, "", root.Definitions[name])
	}
	return b.String()
}

// fields writes one row per property; inline objects are flattened into
// dotted names.
func fields(b *strings.Builder, prefix string, s *jsonSchema) {
	for _, name := range slices.Sorted(maps.Keys(s.Properties)) {
		p := s.Properties[name]
		field := prefix + name
		opt := ""
		if !slices.Contains(s.Required, name) {
			opt = " (optional)"
		}
		fmt.Fprintf(b, "| `%s`%s | %s | %s |\n", field, opt, typeOf(p), oneLine(p.Description))
		if p.Ref == "" && len(p.Properties) > 0 {
			fields(b, field+".", p)
		}
	}
}

func typeOf(s *jsonSchema) string {
	if s.Ref != "" {
		name := strings.TrimPrefix(s.Ref, schemaDefsPath)
		return fmt.Sprintf("[%s](#%s)", name, name)
	}
	var kind string
	switch t := s.Type.(type) {
	case string:
		kind = t
	case []any:
		var parts []string
		for _, x := range t {
			parts = append(parts, fmt.Sprint(x))
		}
		kind = strings.Join(parts, " or ")
	default:
		kind = "any"
	}
	switch {
	case kind == "array" && s.Items != nil:
		return "array of " + typeOf(s.Items)
	case kind == "object" && len(s.Properties) == 0:
		if sub, ok := s.AdditionalProperties.(map[string]any); ok {
			if ref, ok := sub["$ref"].(string); ok {
				return "object: key → " + typeOf(&jsonSchema{Ref: ref})
			}
		}
		return "object"
	}
	if len(s.Enum) > 0 {
		var vals []string
		for _, e := range s.Enum {
			vals = append(vals, fmt.Sprintf("`%v`", e))
		}
		return kind + ": " + strings.Join(vals, ", ")
	}
	return kind
}

func oneLine(s string) string {
	return strings.ReplaceAll(strings.Join(strings.Fields(s), " "), "|", `\|`)
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// TestCustomPoliciesDoc keeps docs/custom-policies.md in sync with the
// model's schema, the built-in parameters and the denied builtins.
func TestCustomPoliciesDoc(t *testing.T) {
	b, err := os.ReadFile(customDoc)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	before, rest, ok1 := strings.Cut(doc, modelDocStart)
	_, after, ok2 := strings.Cut(rest, modelDocEnd)
	if !ok1 || !ok2 {
		t.Fatalf("%s lacks the markers %q ... %q", customDoc, modelDocStart, modelDocEnd)
	}
	want := before + modelDocStart + "\n" + modelReference(t) + "\n" + modelDocEnd + after
	if want != doc {
		if updatingDocs() {
			if err := os.WriteFile(customDoc, []byte(want), 0o644); err != nil {
				t.Fatal(err)
			}
			return
		}
		t.Errorf("%s: the model reference is out of date with policies/schemas/cluster.json; run go test ./policies -run TestCustomPoliciesDoc -update", customDoc)
	}
	params, err := DefaultParams()
	if err != nil {
		t.Fatal(err)
	}
	for group, v := range params {
		keys, _ := v.(map[string]any)
		for key, def := range keys {
			row := fmt.Sprintf("| `%s.%s` | %v |", group, key, def)
			if !strings.Contains(doc, row) {
				t.Errorf("%s does not document the parameter: want a row starting %q", customDoc, row)
			}
		}
	}
	for _, d := range deniedBuiltins {
		if !strings.Contains(doc, "`"+d.name) {
			t.Errorf("%s does not list the denied builtin %s", customDoc, d.name)
		}
	}
}
