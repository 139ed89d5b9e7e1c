// Package catalog embeds the catalog of Apache Kafka configuration keys per
// Kafka release (type, documented default, valid values), derived from
// Apache Kafka's generated configuration docs; README.md beside this file
// gives its provenance and license.
package catalog

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
)

//go:embed catalog.json
var raw []byte

// Scopes of the catalog.
const (
	Broker   = "broker"
	Topic    = "topic"
	Producer = "producer"
	Consumer = "consumer"
	Admin    = "admin"
	Mirror   = "mirror"
)

// Key describes one configuration key in one version and scope.
type Key struct {
	Type        string  `json:"type"`
	Default     *string `json:"default"`
	ValidValues *string `json:"valid_values"`
	Deprecated  bool    `json:"deprecated"`
}

type file struct {
	Versions map[string]map[string]map[string]Key `json:"versions"`
}

var load = sync.OnceValue(func() *file {
	var f file
	if err := json.Unmarshal(raw, &f); err != nil {
		panic(fmt.Sprintf("embedded catalog.json is invalid: %v", err))
	}
	return &f
})

// Preload decodes the embedded catalog now (about 10 ms), so that a caller
// can have it done on another core while it does other start-up work, such
// as compiling the rules.
func Preload() { load() }

var versions = sync.OnceValue(func() []string {
	var vs []string
	for v := range load().Versions {
		vs = append(vs, v)
	}
	slices.SortFunc(vs, CompareVersions)
	return vs
})

// Versions returns the cataloged Kafka versions, oldest first.
func Versions() []string { return slices.Clone(versions()) }

// Newest is the newest cataloged Kafka version.
func Newest() string {
	vs := versions()
	return vs[len(vs)-1]
}

// Resolve maps a Kafka version ("3.9", "3.9.1", "4.0.0") to the cataloged
// release line whose keys and defaults apply: the same major.minor when
// cataloged, else the nearest cataloged one (older versions than the
// catalog covers use its oldest line).
func Resolve(version string) string {
	if r, ok := resolved.Load(version); ok {
		return r.(string) //nolint:forcetypeassert // the map holds strings only
	}
	mm := MajorMinor(version)
	vs := versions()
	best := vs[0]
	for _, v := range vs {
		if CompareVersions(v, mm) <= 0 {
			best = v
		}
	}
	resolved.Store(version, best)
	return best
}

// resolved memoizes Resolve: every setting of every file asks.
var resolved sync.Map

// MajorMinor returns "X.Y" of a version string such as "3.9.1".
func MajorMinor(version string) string {
	parts := strings.SplitN(strings.TrimPrefix(version, "v"), ".", 3)
	if len(parts) < 2 {
		return parts[0] + ".0"
	}
	return parts[0] + "." + parts[1]
}

// ValidVersion reports whether s looks like a Kafka version (X.Y or X.Y.Z).
func ValidVersion(s string) bool {
	parts := strings.Split(s, ".")
	if len(parts) < 2 || len(parts) > 3 {
		return false
	}
	for _, p := range parts {
		if _, err := strconv.Atoi(p); err != nil {
			return false
		}
	}
	return true
}

// CompareVersions compares dotted versions numerically.
func CompareVersions(a, b string) int {
	pa, pb := strings.Split(a, "."), strings.Split(b, ".")
	for i := range max(len(pa), len(pb)) {
		var x, y int
		if i < len(pa) {
			x, _ = strconv.Atoi(pa[i])
		}
		if i < len(pb) {
			y, _ = strconv.Atoi(pb[i])
		}
		if x != y {
			return x - y
		}
	}
	return 0
}

// Lookup returns a key's description for a cataloged version and scope.
func Lookup(version, scope, key string) (Key, bool) {
	k, ok := load().Versions[Resolve(version)][scope][key]
	return k, ok
}

// Default returns the documented default of a key as configuration text,
// without the docs' human suffix ("604800000 (7 days)" → "604800000").
// ok is false when the key has no default or its default is null.
func Default(version, scope, key string) (value string, ok bool) {
	k, found := Lookup(version, scope, key)
	if !found || k.Default == nil || *k.Default == "null" {
		return "", false
	}
	d := *k.Default
	if d == `""` {
		return "", true
	}
	if i := strings.Index(d, " ("); i > 0 {
		d = d[:i]
	}
	return d, true
}
