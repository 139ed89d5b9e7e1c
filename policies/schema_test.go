package policies

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/kafkalint/kafkalint/loader"
)

// TestModelMatchesSchema loads examples/ and validates every cluster model
// against policies/schemas/cluster.json, the schema the rules are
// type-checked with: the Go model and the schema cannot drift apart.
func TestModelMatchesSchema(t *testing.T) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(clusterSchema()))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("cluster.json", doc); err != nil {
		t.Fatal(err)
	}
	schema, err := c.Compile("cluster.json")
	if err != nil {
		t.Fatal(err)
	}
	engine, err := Builtin()
	if err != nil {
		t.Fatal(err)
	}
	_, file, _, _ := runtime.Caller(0)
	root := filepath.Join(filepath.Dir(file), "..")
	res, err := loader.Load([]string{filepath.Join(root, "examples")}, loader.Options{Dir: root, DefaultKeys: engine.DefaultKeys()})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Clusters) == 0 {
		t.Fatal("no clusters loaded from examples/")
	}
	for _, cl := range res.Clusters {
		b, err := json.Marshal(cl)
		if err != nil {
			t.Fatal(err)
		}
		v, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		if err := schema.Validate(v); err != nil {
			t.Errorf("cluster %s does not match the schema: %v", cl.Name, err)
		}
	}
}
