package catalog

import (
	"encoding/json"
	"os"
	"slices"
	"testing"
)

// The generated Go data (catalog_data.go) must say exactly what
// catalog.json says: every key of every version and scope, with its type,
// default, validator, deprecation and server default, and nothing else.
// A stale catalog_data.go fails here: run `go generate ./loader/catalog`.
func TestDataMatchesJSON(t *testing.T) {
	raw, err := os.ReadFile("catalog.json")
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Versions map[string]map[string]map[string]struct {
			Type          string  `json:"type"`
			Default       *string `json:"default"`
			ValidValues   *string `json:"valid_values"`
			Deprecated    bool    `json:"deprecated"`
			ServerDefault *string `json:"server_default_property"`
		} `json:"versions"`
	}
	if err := json.Unmarshal(raw, &f); err != nil {
		t.Fatal(err)
	}
	total := 0
	for v, scopes := range f.Versions {
		if !Cataloged(v) || !slices.Contains(Versions(), v) {
			t.Errorf("version %s missing", v)
		}
		for s, keys := range scopes {
			if len(Keys(v, s)) != len(keys) {
				t.Errorf("%s %s: %d keys, JSON has %d", v, s, len(Keys(v, s)), len(keys))
			}
			for name, want := range keys {
				total++
				got, ok := Lookup(v, s, name)
				if !ok {
					t.Errorf("%s %s %s missing", v, s, name)
					continue
				}
				hasDef := want.Default != nil && *want.Default != "null"
				if got.Type != want.Type || got.Deprecated != want.Deprecated || got.HasDefault != hasDef ||
					(hasDef && got.Default != *want.Default) || got.ValidValues != str(want.ValidValues) {
					t.Errorf("%s %s %s: %+v, JSON %+v", v, s, name, got, want)
				}
				if s == Topic && ServerDefault(v, name) != str(want.ServerDefault) && (want.ServerDefault == nil || *want.ServerDefault != "null") {
					t.Errorf("%s %s: server default %q, JSON %v", v, name, ServerDefault(v, name), want.ServerDefault)
				}
			}
		}
	}
	if total != len(entries) || len(names) != len(entries) {
		t.Errorf("%d entries, %d names, JSON has %d keys", len(entries), len(names), total)
	}
	if len(Versions()) != len(f.Versions) {
		t.Errorf("versions %v, JSON has %d", Versions(), len(f.Versions))
	}
}

func str(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func TestLookupMisses(t *testing.T) {
	if _, ok := Lookup("4.3", Broker, "no.such.key"); ok {
		t.Error("found a key the catalog does not hold")
	}
	if _, ok := Lookup("4.3", "nosuchscope", "acks"); ok {
		t.Error("found a key in a scope the catalog does not hold")
	}
	if _, ok := Lookup("4.3", Producer, "acks"); !ok {
		t.Error("acks is a producer key")
	}
	if Cataloged("5.0") || !Cataloged("3.9.1") {
		t.Error("Cataloged: 5.0 is not cataloged, 3.9.1 is")
	}
}
