package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite testdata/catalog.golden.json")

// TestGolden builds the fixture site (generated pages and a rendered,
// minified one with MirrorMaker sections) through the command itself and
// compares the bytes with the golden catalog.
func TestGolden(t *testing.T) {
	out := filepath.Join(t.TempDir(), "catalog.json")
	if err := run([]string{"-site", "testdata/site", "-sources", "testdata/sources.json", "-o", out}, os.Stderr); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "catalog.golden.json")
	if *update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("catalog (-golden +built; go test ./loader/catalog/kafkadocs -update to accept):\n%s", diff)
	}
	// Built again, the same pages give the same bytes.
	if err := run([]string{"-site", "testdata/site", "-sources", "testdata/sources.json", "-o", out}, os.Stderr); err != nil {
		t.Fatal(err)
	}
	again, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, again) {
		t.Error("a second build of the same pages differs")
	}
}

// TestEncodeKeepsCatalogJSON: the generator writes catalog.json exactly as
// it is committed (key order, indent, escaping, final newline), so a
// rebuild's diff shows changed facts only.
func TestEncodeKeepsCatalogJSON(t *testing.T) {
	raw, err := os.ReadFile("../catalog.json")
	if err != nil {
		t.Fatal(err)
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	got, err := encode(v)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(raw, got) {
		t.Error("re-encoding catalog.json changes its bytes")
	}
}

// TestKey: the field rules of loader/catalog/README.md, one case each.
func TestKey(t *testing.T) {
	base := func(kv ...string) entry {
		e := entry{Name: "k", Cells: map[string]string{"Type": "int", "Default": "1", "Valid Values": "", "Importance": "low"}}
		for i := 0; i+1 < len(kv); i += 2 {
			e.Cells[kv[i]] = kv[i+1]
		}
		return e
	}
	withDescription := func(e entry, d string) entry {
		e.Description = d
		return e
	}
	tests := []struct {
		name, scope string
		in          entry
		field       string
		want        any
	}{
		{"an empty default cell: must be set", "producer", base("Default", ""), "default", nil},
		{"a documented null default", "producer", base("Default", "null"), "default", "null"},
		{"an empty string default", "producer", base("Default", `""`), "default", `""`},
		{"a human suffix stays", "producer", base("Default", "604800000 (7 days)"), "default", "604800000 (7 days)"},
		{"no validator", "producer", base(), "valid_values", nil},
		{"identity hash dropped", "mirror", base("Valid Values", "a.B$C@1f2e3d4c"), "valid_values", "a.B$C"},
		{"an email-like text kept", "producer", base("Valid Values", "[a@b.example]"), "valid_values", "[a@b.example]"},
		{"[DEPRECATED]", "producer", withDescription(base(), "[DEPRECATED] Use x."), "deprecated", true},
		{"DEPRECATED:", "producer", withDescription(base(), "DEPRECATED: gone in 5.0."), "deprecated", true},
		{"Deprecated.", "producer", withDescription(base(), "Deprecated. Use y."), "deprecated", true},
		{"(Deprecated)", "producer", withDescription(base(), "(Deprecated) Use y."), "deprecated", true},
		{"this config is deprecated", "producer", withDescription(base(), "Note: this config is deprecated since 3.7."), "deprecated", true},
		{"another thing deprecated", "producer", withDescription(base(), "Replaces the deprecated clientId option."), "deprecated", false},
		{"update mode of a broker key", "broker", base("Update Mode", "cluster-wide"), "update_mode", "cluster-wide"},
		{"server default property null", "topic", base("Server Default Property", "null"), "server_default_property", nil},
		{"server default property", "topic", base("Server Default Property", "log.retention.ms"), "server_default_property", "log.retention.ms"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			k, err := key(tt.scope, tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if got, ok := k[tt.field]; !ok || got != tt.want {
				t.Errorf("%s = %#v (present %v), want %#v", tt.field, got, ok, tt.want)
			}
		})
	}
	if k, _ := key("producer", base()); k["update_mode"] != nil || k["server_default_property"] != nil {
		t.Errorf("a producer key has broker or topic fields: %v", k)
	}
}

// TestRefusals: a page that no longer has the shape the generator knows
// fails the build instead of writing a wrong catalog.
func TestRefusals(t *testing.T) {
	entryHTML := func(rows string) string {
		return `<h4><a id="k">k</a></h4><p>x</p><table><tbody>` + rows + `</tbody></table>`
	}
	good := `<tr><th>Type:</th><td>int</td></tr><tr><th>Default:</th><td>1</td></tr><tr><th>Importance:</th><td>low</td></tr>`
	tests := []struct {
		name, scope, page string
		p                 page
		want              string
	}{
		{"no entries", "producer", "<p>moved</p>", page{}, "no configuration entries"},
		{"no section", "producer", entryHTML(good), page{Section: "Producer Configs"}, `no heading "Producer Configs"`},
		{"unknown type", "producer", entryHTML(strings.Replace(good, ">int<", ">integer<", 1)), page{}, `type "integer"`},
		{"unknown importance", "producer", entryHTML(strings.Replace(good, ">low<", ">lowest<", 1)), page{}, `importance "lowest"`},
		{"broker without update mode", "broker", entryHTML(good), page{}, `update mode ""`},
		{"topic without server default", "topic", entryHTML(good), page{}, "no Server Default Property row"},
		{"a key twice", "producer", entryHTML(good) + entryHTML(good), page{}, "key k twice"},
		{"a row twice", "producer", entryHTML(good + good), page{}, `row "Type" twice`},
		{"a mirror page without connector", "mirror", entryHTML(good), page{}, "connector"},
		{"a connector outside mirror", "producer", entryHTML(good), page{Connector: "source"}, "connector"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.p.Path = "p.html"
			_, err := buildScope(tt.scope, []page{tt.p}, func(page) ([]byte, error) { return []byte(tt.page), nil })
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want one saying %q", err, tt.want)
			}
		})
	}
}

// TestMirrorMerge: a key two connectors list appears once with both; if
// they disagree the build fails.
func TestMirrorMerge(t *testing.T) {
	pageOf := func(def string) string {
		return `<h4>shared</h4><table><tr><th>Type:</th><td>int</td></tr><tr><th>Default:</th><td>` + def + `</td></tr><tr><th>Importance:</th><td>low</td></tr></table>`
	}
	pages := map[string]string{"a": pageOf("1"), "b": pageOf("1"), "c": pageOf("2")}
	read := func(p page) ([]byte, error) { return []byte(pages[p.Path]), nil }
	got, err := buildScope("mirror", []page{{Path: "a", Connector: "source"}, {Path: "b", Connector: "checkpoint"}}, read)
	if err != nil {
		t.Fatal(err)
	}
	k, _ := got["shared"].(map[string]any)
	if diff := cmp.Diff([]string{"source", "checkpoint"}, k["connectors"]); diff != "" {
		t.Errorf("connectors (-want +got):\n%s", diff)
	}
	if _, err := buildScope("mirror", []page{{Path: "a", Connector: "source"}, {Path: "c", Connector: "checkpoint"}}, read); err == nil || !strings.Contains(err.Error(), "differs between connectors") {
		t.Errorf("disagreeing connectors: error %v", err)
	}
}

// TestSourcesCoverCatalog: sources.json names, for every version and
// scope of catalog.json, the pages it comes from, each at a commit, so
// `-git` can rebuild any of them.
func TestSourcesCoverCatalog(t *testing.T) {
	var m manifest
	raw, err := os.ReadFile("../sources.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	var cat struct {
		Source   string                               `json:"source"`
		Versions map[string]map[string]map[string]any `json:"versions"`
	}
	raw, err = os.ReadFile("../catalog.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &cat); err != nil {
		t.Fatal(err)
	}
	if m.Source != cat.Source {
		t.Errorf("source %q, catalog.json says %q", m.Source, cat.Source)
	}
	for v, scopes := range cat.Versions {
		for s := range scopes {
			pages := m.Versions[v][s]
			if len(pages) == 0 {
				t.Errorf("%s %s: no pages in sources.json", v, s)
			}
			for _, p := range pages {
				if p.Commit == "" || (s == "mirror") != (p.Connector != "") {
					t.Errorf("%s %s: page %+v needs a commit (and a connector exactly for mirror)", v, s, p)
				}
			}
		}
		if len(m.Versions[v]) != len(scopes) {
			t.Errorf("%s: sources.json has %d scopes, catalog.json %d", v, len(m.Versions[v]), len(scopes))
		}
	}
	if len(m.Versions) != len(cat.Versions) {
		t.Errorf("sources.json has %d versions, catalog.json %d", len(m.Versions), len(cat.Versions))
	}
}
