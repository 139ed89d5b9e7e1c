package loader

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestFlaggedKeys: every node, client, MirrorMaker 2 configuration and
// topic of the examples, the corpus and a flagged topic lists exactly the
// keys of its settings that carry an unknown or removed key status, an
// invalid value or a secret key, sorted (the rules that look for these
// read only them), and each kind of flag occurs.
func TestFlaggedKeys(t *testing.T) {
	seen := map[string]int{}
	for _, dir := range []string{filepath.Join("..", "examples"), corpusDir(t), flaggedTopicDir(t)} {
		for _, c := range load(t, dir, Options{}).Clusters {
			for _, u := range flaggableUnits(c) {
				if want := flagged(u.settings, seen); !slices.Equal(u.flagged, want) {
					t.Errorf("%s: flagged_keys %q, want %q", u.name, u.flagged, want)
				}
			}
			for _, tp := range c.Topics {
				seen["topic"] += len(tp.FlaggedKeys)
			}
		}
	}
	for _, f := range []string{"unknown", "removed", "invalid", "secret", "topic"} {
		if seen[f] == 0 {
			t.Errorf("no %s setting is flagged: the test checks nothing for it", f)
		}
	}
}

type flaggableUnit struct {
	name     string
	settings map[string]*Setting
	flagged  []string
}

func flaggableUnits(c *Cluster) []flaggableUnit {
	var units []flaggableUnit
	for _, n := range c.Nodes {
		units = append(units, flaggableUnit{n.File, n.Settings, n.FlaggedKeys})
	}
	for _, cl := range c.Clients {
		units = append(units, flaggableUnit{cl.File, cl.Settings, cl.FlaggedKeys})
	}
	for _, mm := range c.MirrorMakers {
		units = append(units, flaggableUnit{mm.File, mm.Settings, mm.FlaggedKeys})
	}
	for _, tp := range c.Topics {
		units = append(units, flaggableUnit{tp.File + " " + tp.Name, tp.Settings, tp.FlaggedKeys})
	}
	return units
}

// flagged are the keys of the settings with a flag, sorted; seen counts
// the flags.
func flagged(settings map[string]*Setting, seen map[string]int) []string {
	var keys []string
	for key, s := range settings {
		flags := map[string]bool{"unknown": s.KeyStatus == KeyUnknown, "removed": s.KeyStatus == KeyRemoved, "invalid": s.Invalid != "", "secret": s.SecretKey}
		flaggedOnce := false
		for f, on := range flags {
			if on {
				seen[f]++
				flaggedOnce = true
			}
		}
		if flaggedOnce {
			keys = append(keys, key)
		}
	}
	slices.Sort(keys)
	return keys
}

// flaggedTopicDir holds a Strimzi topic with an unknown key and an invalid
// value: neither the examples nor the corpus have one.
func flaggedTopicDir(t *testing.T) string {
	t.Helper()
	example, err := os.ReadFile(filepath.Join("..", "examples", "strimzi", "production", "kafka-four-controllers.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Replace(string(example), "    retention.ms: 604800000\n", "    retention.hours: 24\n    cleanup.policy: compacted\n", 1)
	if text == string(example) {
		t.Fatal("the example's topic config changed: update this test")
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "kafka.yaml"), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}
