package catalog

import (
	"slices"
	"strings"
	"testing"
)

func TestClosest(t *testing.T) {
	candidates := []string{"log.retention.hours", "log.retention.ms", "log.retention.minutes", "linger.ms", "acks", "emit.heartbeats.enabled", "emit.heartbeats.interval.seconds"}
	tests := []struct{ key, want string }{
		{"log.retention.hour", "log.retention.hours"},
		{"log.retention.m", "log.retention.ms"},
		{"lingerms", "linger.ms"},
		{"ack", "acks"},
		{"emit.heartbeats", "emit.heartbeats.enabled"},
		{"zzz", ""},
		{"log.retention", ""}, // three completions: ambiguous
	}
	for _, tt := range tests {
		if got := Closest(tt.key, candidates); got != tt.want {
			t.Errorf("Closest(%q) = %q, want %q", tt.key, got, tt.want)
		}
	}
}

// FuzzClosest: did-you-mean never panics and only suggests candidates.
func FuzzClosest(f *testing.F) {
	f.Add("log.retention.hour", "log.retention.hours")
	f.Add("", "")
	f.Add("émit_heartbeats", "emit.heartbeats.enabled")
	f.Fuzz(func(t *testing.T, key, candidate string) {
		candidates := []string{candidate, "acks", "linger.ms"}
		got := Closest(key, candidates)
		if got != "" && got != candidate && got != "acks" && got != "linger.ms" {
			t.Errorf("Closest(%q) = %q, not a candidate", key, got)
		}
		if want := closestByScan(key, candidates); got != want {
			t.Errorf("Closest(%q) = %q, a full scan finds %q", key, got, want)
		}
	})
}

// closestByScan is closest without its shortcuts (no length bound, a fresh
// distance table per candidate): the reference the fast one must match.
func closestByScan(key string, candidates []string) string {
	norm := normalizeKey(key)
	best, bestDist, tie := "", maxDistance(norm)+1, false
	var completions []string
	seen := map[string]bool{}
	for _, c := range candidates {
		if seen[c] {
			continue
		}
		seen[c] = true
		nc := normalizeKey(c)
		if rest, ok := strings.CutPrefix(nc, norm+"."); ok && !strings.Contains(rest, ".") {
			completions = append(completions, c)
		}
		var rows [2][]int
		switch d := levenshtein(norm, nc, &rows); {
		case d < bestDist:
			best, bestDist, tie = c, d, false
		case d == bestDist:
			tie = true
		}
	}
	if best != "" && !tie {
		return best
	}
	if len(completions) == 1 {
		return completions[0]
	}
	return ""
}

// TestClosestMatchesFullScan mistypes every broker and producer key of the
// newest catalog (a letter dropped, doubled, swapped; a segment dropped)
// and checks that the suggestion is the one a full scan finds.
func TestClosestMatchesFullScan(t *testing.T) {
	version := Newest()
	for _, scope := range []string{Broker, Producer} {
		keys := Keys(version, scope)
		slices.Sort(keys) // closest's iteration order decides among completions
		checked := 0
		for i, k := range keys {
			if i%7 != 0 { // a sample keeps the test fast; every shape of key is still there
				continue
			}
			mid := len(k) / 2
			typos := []string{k[:mid] + k[mid+1:], k[:mid] + k[mid:mid+1] + k[mid:], k + "x", k[:strings.LastIndex(k, ".")+1]}
			if mid+1 < len(k) {
				typos = append(typos, k[:mid]+k[mid+1:mid+2]+k[mid:mid+1]+k[mid+2:])
			}
			for _, typo := range typos {
				if got, want := Closest(typo, keys), closestByScan(typo, keys); got != want {
					t.Errorf("Closest(%q) = %q, a full scan finds %q", typo, got, want)
				}
				checked++
			}
		}
		if checked < 50 {
			t.Fatalf("%s: only %d typos checked", scope, checked)
		}
	}
}

// levenshtein is the full edit distance table of a and b, the reference
// levenshteinWithin must match; rows is scratch space
// reused across calls (closest compares one key with every catalog key).
func levenshtein(a, b string, rows *[2][]int) int {
	for i := range rows {
		if cap(rows[i]) < len(b)+1 {
			rows[i] = make([]int, len(b)+1)
		}
	}
	prev, cur := rows[0][:len(b)+1], rows[1][:len(b)+1]
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// levenshteinWithin is the full distance when it is at most k, else k+1.
func FuzzLevenshteinWithin(f *testing.F) {
	f.Add("log.retention.hour", "log.retention.hours", uint8(2))
	f.Add("", "abc", uint8(0))
	f.Add("abcdef", "badcfe", uint8(3))
	f.Fuzz(func(t *testing.T, a, b string, k uint8) {
		var r1, r2 [2][]int
		want := min(levenshtein(a, b, &r1), int(k)+1)
		if got := levenshteinWithin(a, b, int(k), &r2); got != want {
			t.Errorf("levenshteinWithin(%q, %q, %d) = %d, want %d", a, b, k, got, want)
		}
	})
}

// TestSuggest: the did-you-mean answers in order of precedence.
func TestSuggest(t *testing.T) {
	tests := []struct {
		name, key string
		scopes    []string
		want      string
	}{
		{"a 0.8 client key", "metadata.broker.list", []string{Producer}, "bootstrap.servers"},
		{"a 0.8 key without successor", "producer.type", []string{Producer}, ""},
		{"0.8 keys mean nothing to a broker", "request.required.acks", []string{Broker}, ""},
		{"a topic key in a broker file", "retention.ms", []string{Broker}, "log.retention.ms"},
		{"a broker default in a topic", "log.retention.ms", []string{Topic}, "retention.ms"},
		{"a typo", "linger.msec", []string{Producer}, "linger.ms"},
		{"nothing close", "schema.registry.url", []string{Producer}, ""},
		{"a near miss", "lingerms", []string{Producer}, "linger.ms"},
		{"a missing last segment", "log.retention.check.interval", []string{Broker}, "log.retention.check.interval.ms"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Suggest(tt.key, "4.0", tt.scopes); got != tt.want {
				t.Errorf("Suggest(%q, %v) = %q, want %q", tt.key, tt.scopes, got, tt.want)
			}
			// A second answer comes from the memo and must not differ.
			if got := Suggest(tt.key, "4.0", tt.scopes); got != tt.want {
				t.Errorf("memoized Suggest(%q, %v) = %q, want %q", tt.key, tt.scopes, got, tt.want)
			}
		})
	}
	if r, ok := LegacyClientKey("auto.commit.enable"); !ok || r != "enable.auto.commit" {
		t.Errorf("LegacyClientKey(auto.commit.enable) = %q, %v", r, ok)
	}
	if _, ok := LegacyClientKey("acks"); ok {
		t.Error("acks is no legacy key")
	}
}

// TestClosestKeyAsClosest: ClosestKey, memoized and over prepared
// candidates, answers as Closest over the same keys, for near misses of
// every MirrorMaker 2 key, with and without an extra candidate, twice.
func TestClosestKeyAsClosest(t *testing.T) {
	for _, v := range []string{"3.8", "4.0", "4.1"} {
		keys := Keys(v, Mirror)
		if len(keys) == 0 {
			t.Fatalf("no MirrorMaker 2 keys in %s", v)
		}
		for _, k := range keys {
			for _, key := range []string{k, k[:len(k)-1], strings.ToUpper(k), k + "s", "cluster", "clusterz"} {
				for _, extra := range [][]string{nil, {"clusters"}} {
					want := Closest(key, append(slices.Clone(keys), extra...))
					for range 2 {
						if got := ClosestKey(key, v, Mirror, extra...); got != want {
							t.Fatalf("ClosestKey(%q, %s, %v) = %q, Closest %q", key, v, extra, got, want)
						}
					}
				}
			}
		}
	}
}
