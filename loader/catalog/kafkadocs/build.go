package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
)

// manifest says which pages hold each version's keys (sources.json).
type manifest struct {
	// Source is the catalog's "source" line.
	Source string `json:"source"`
	// Versions maps a release line ("4.0") to its scopes, each read from
	// one or more pages.
	Versions map[string]map[string][]page `json:"versions"`
}

// page is one generated list of keys.
type page struct {
	// Path is the file in apache/kafka-site, e.g.
	// "40/generated/topic_config.html".
	Path string `json:"path"`
	// Commit is the kafka-site commit the file is read at (with -git; else
	// it records where the file in -site came from).
	Commit string `json:"commit,omitempty"`
	// Section, for a rendered site page, is the title of the heading
	// whose list is meant ("MirrorMaker Source Configs").
	Section string `json:"section,omitempty"`
	// Connector names the MirrorMaker 2 section of a mirror page: common,
	// source, checkpoint or heartbeat.
	Connector string `json:"connector,omitempty"`
}

// The value sets a field may take; anything else means the page's format
// changed and the generator must be looked at, not the catalog edited.
var (
	types       = []string{"boolean", "string", "int", "short", "long", "double", "list", "class", "password"}
	importances = []string{"high", "medium", "low"}
	updateModes = []string{"read-only", "per-broker", "cluster-wide"}
	connectors  = []string{"common", "source", "checkpoint", "heartbeat"}
)

// identityHash is the "@1b2c3d4e" Java prints after a validator's class
// name when it has no toString (4.1+ mirror *.plugin.version keys): it
// changes with every doc build.
var identityHash = regexp.MustCompile(`([A-Za-z_$][A-Za-z0-9_$.]*)@[0-9a-f]{4,8}\b`)

// deprecatedRE finds a key's own description marking it deprecated. A
// mention of another deprecated thing ("the deprecated clientId option")
// does not match.
var deprecatedRE = regexp.MustCompile(`\[DEPRECATED\]|DEPRECATED:|\bDeprecated\.|\((?i:deprecated)\)|(?i:\bthis config(?:uration)? (?:is|has been) deprecated)`)

// key builds one catalog entry of scope from a page entry.
func key(scope string, e entry) (map[string]any, error) {
	out := map[string]any{
		"type":         e.Cells["Type"],
		"default":      nullable(e.Cells["Default"]),
		"valid_values": nullable(identityHash.ReplaceAllString(e.Cells["Valid Values"], "$1")),
		"importance":   e.Cells["Importance"],
		"deprecated":   deprecatedRE.MatchString(e.Description),
	}
	if !slices.Contains(types, e.Cells["Type"]) {
		return nil, fmt.Errorf("%s: type %q", e.Name, e.Cells["Type"])
	}
	if !slices.Contains(importances, e.Cells["Importance"]) {
		return nil, fmt.Errorf("%s: importance %q", e.Name, e.Cells["Importance"])
	}
	switch scope {
	case "broker":
		if !slices.Contains(updateModes, e.Cells["Update Mode"]) {
			return nil, fmt.Errorf("%s: update mode %q", e.Name, e.Cells["Update Mode"])
		}
		out["update_mode"] = e.Cells["Update Mode"]
	case "topic":
		p, ok := e.Cells["Server Default Property"]
		if !ok {
			return nil, fmt.Errorf("%s: no Server Default Property row", e.Name)
		}
		if p == "null" {
			out["server_default_property"] = nil
		} else {
			out["server_default_property"] = nullable(p)
		}
	}
	return out, nil
}

// nullable is a cell's value: JSON null for an empty cell (for Default:
// the key has no default and must be set), else the text verbatim.
func nullable(cell string) any {
	if cell == "" {
		return nil
	}
	return cell
}

// reader returns the content of a manifest page.
type reader func(p page) ([]byte, error)

// build reads every page of m and returns the catalog.
func build(m manifest, read reader) (map[string]any, error) {
	versions := map[string]any{}
	for _, v := range slices.Sorted(maps.Keys(m.Versions)) {
		scopes := map[string]any{}
		for _, scope := range slices.Sorted(maps.Keys(m.Versions[v])) {
			keys, err := buildScope(scope, m.Versions[v][scope], read)
			if err != nil {
				return nil, fmt.Errorf("%s %s: %w", v, scope, err)
			}
			scopes[scope] = keys
		}
		versions[v] = scopes
	}
	return map[string]any{"source": m.Source, "versions": versions}, nil
}

// buildScope reads the pages of one version's scope. The pages of the
// mirror scope are merged: a key several MirrorMaker 2 connectors list
// appears once, with the connectors in manifest order, and must be the
// same in each.
func buildScope(scope string, pages []page, read reader) (map[string]any, error) {
	out := map[string]any{}
	for _, p := range pages {
		if (scope == "mirror") != (p.Connector != "") || (p.Connector != "" && !slices.Contains(connectors, p.Connector)) {
			return nil, fmt.Errorf("%s: connector %q (want one of %s, for the mirror scope only)", p.Path, p.Connector, strings.Join(connectors, ", "))
		}
		data, err := read(p)
		if err != nil {
			return nil, err
		}
		entries, err := parsePage(string(data), p.Section)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p.Path, err)
		}
		seen := map[string]bool{}
		for _, e := range entries {
			if seen[e.Name] {
				return nil, fmt.Errorf("%s: key %s twice", p.Path, e.Name)
			}
			seen[e.Name] = true
			k, err := key(scope, e)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", p.Path, err)
			}
			if err := add(out, e.Name, k, p.Connector); err != nil {
				return nil, fmt.Errorf("%s: %w", p.Path, err)
			}
		}
	}
	return out, nil
}

// add puts key k into out, merging it with the same key of an earlier
// MirrorMaker 2 connector page.
func add(out map[string]any, name string, k map[string]any, connector string) error {
	prev, ok := out[name].(map[string]any)
	if !ok {
		if connector != "" {
			k["connectors"] = []string{connector}
		}
		out[name] = k
		return nil
	}
	if connector == "" {
		return fmt.Errorf("key %s twice", name)
	}
	for f, v := range k {
		if prev[f] != v {
			return fmt.Errorf("key %s: %s differs between connectors (%v, %v)", name, f, prev[f], v)
		}
	}
	cs, _ := prev["connectors"].([]string)
	if !slices.Contains(cs, connector) {
		prev["connectors"] = append(cs, connector)
	}
	return nil
}

// encode writes a catalog as catalog.json is written: sorted keys, one
// space of indent, no HTML escaping, a final newline, so that a rebuild
// from the same pages is byte-identical and diffs stay small.
func encode(catalog any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", " ")
	if err := enc.Encode(catalog); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
