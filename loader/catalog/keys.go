package catalog

import (
	"encoding/json"
	"fmt"
	"slices"
	"sync"
)

// Cataloged reports whether the catalog describes exactly the release line
// of version ("3.9", "4.0.1"): only then is a key's absence from it certain.
// Older lines resolve to 3.7 and newer ones to the newest, which may lack or
// hold keys the real release line does not.
func Cataloged(version string) bool {
	_, ok := load().Versions[MajorMinor(version)]
	return ok
}

// Keys returns the keys of a scope in a cataloged version, sorted.
func Keys(version, scope string) []string {
	return keyIndex()[Resolve(version)+" "+scope]
}

var keyIndex = sync.OnceValue(func() map[string][]string {
	out := map[string][]string{}
	for v, scopes := range load().Versions {
		for s, keys := range scopes {
			names := make([]string, 0, len(keys))
			for k := range keys {
				names = append(names, k)
			}
			slices.Sort(names)
			out[v+" "+s] = names
		}
	}
	return out
})

// ServerDefault returns the broker key that supplies a topic key's cluster
// default (retention.ms → log.retention.ms), or "" when the catalog names
// none.
func ServerDefault(version, topicKey string) string {
	return serverDefaults()[Resolve(version)][topicKey]
}

// serverDefaults reads the topic scope's server_default_property, which Key
// does not carry, once.
var serverDefaults = sync.OnceValue(func() map[string]map[string]string {
	var f struct {
		Versions map[string]struct {
			Topic map[string]struct {
				ServerDefault *string `json:"server_default_property"`
			} `json:"topic"`
		} `json:"versions"`
	}
	if err := json.Unmarshal(raw, &f); err != nil {
		panic(fmt.Sprintf("embedded catalog.json is invalid: %v", err))
	}
	out := map[string]map[string]string{}
	for v, scopes := range f.Versions {
		out[v] = map[string]string{}
		for k, t := range scopes.Topic {
			if t.ServerDefault != nil && *t.ServerDefault != "null" {
				out[v][k] = *t.ServerDefault
			}
		}
	}
	return out
})
