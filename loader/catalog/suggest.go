package catalog

import (
	"slices"
	"strings"
	"sync"
	"sync/atomic"
)

// Suggest returns the known key a mistyped one most likely meant: a legacy
// 0.8 client key's replacement, a topic key's broker default (retention.ms
// → log.retention.ms) or the other way round, else the closest key by edit
// distance when it is close and unambiguous. The answer depends only on its
// arguments and the embedded catalog, and a bulk tree repeats the same
// unknown keys in file after file, so it is memoized, up to maxSuggestions
// answers per process (an audit of many repositories meets ever new
// application keys; past the bound they are computed each time).
func Suggest(key, version string, scopes []string) string {
	return memoized(&suggestions, key+"\x00"+version+"\x00"+strings.Join(scopes, ","), func() string {
		return suggestUncached(key, version, scopes)
	})
}

// memoized is m's answer for memo, else compute's, kept in m while the
// process holds fewer than maxSuggestions answers.
func memoized(m *sync.Map, memo string, compute func() string) string {
	if v, ok := m.Load(memo); ok {
		if s, ok := v.(string); ok {
			return s
		}
	}
	v := compute()
	if suggestionCount.Add(1) <= maxSuggestions {
		m.Store(memo, v)
	}
	return v
}

const maxSuggestions = 1 << 16

var (
	suggestions     sync.Map // key NUL version NUL scopes -> suggestion
	suggestionCount atomic.Int64
)

func suggestUncached(key, version string, scopes []string) string {
	if slices.Contains(scopes, Producer) || slices.Contains(scopes, Consumer) {
		if r, ok := legacyClientKeys[key]; ok {
			return r
		}
	}
	if slices.Contains(scopes, Broker) {
		if d := ServerDefault(version, key); d != "" {
			return d
		}
	}
	if slices.Contains(scopes, Topic) {
		for _, k := range Keys(version, Topic) {
			if ServerDefault(version, k) == key {
				return k
			}
		}
	}
	return closestIn(key, catalogCandidates(version, scopes))
}

// ClosestKey is Closest over the keys of scope in version and extra,
// memoized as Suggest is: a bulk tree repeats the same mistyped
// MirrorMaker 2 keys file after file (unmemoized, 866 of them were 1.45 %
// of a .properties lint's instructions on bench/compare.sh's separate
// tree).
func ClosestKey(key, version, scope string, extra ...string) string {
	return memoized(&closestKeys, key+"\x00"+version+"\x00"+scope+"\x00"+strings.Join(extra, ","), func() string {
		return closestIn(key, catalogCandidates(version, []string{scope}, extra...))
	})
}

// closestKeys holds ClosestKey's answers (key NUL version NUL scope NUL
// extra), within Suggest's bound.
var closestKeys sync.Map

// catalogCandidates are the keys of scopes in version and extra, prepared
// for closestIn once per version, scopes and extra (a file of many unknown
// keys used to sort and normalize the whole catalog for each of them).
func catalogCandidates(version string, scopes []string, extra ...string) []candidate {
	memo := version + "\x00" + strings.Join(scopes, ",") + "\x00" + strings.Join(extra, ",")
	if v, ok := candidateSets.Load(memo); ok {
		if cs, ok := v.([]candidate); ok {
			return cs
		}
	}
	keys := slices.Clone(extra)
	for _, s := range scopes {
		keys = append(keys, Keys(version, s)...)
	}
	cs := newCandidates(keys)
	candidateSets.Store(memo, cs)
	return cs
}

// candidateSets holds catalogCandidates' answers: a few per cataloged
// version (one per kind of unit, and MirrorMaker 2's with "clusters").
var candidateSets sync.Map

// candidate is a key closestIn may suggest, with its normalized form.
type candidate struct{ key, norm string }

// newCandidates sorts and deduplicates keys and normalizes each.
func newCandidates(keys []string) []candidate {
	sorted := slices.Compact(slices.Sorted(slices.Values(keys)))
	cs := make([]candidate, len(sorted))
	for i, k := range sorted {
		cs[i] = candidate{k, normalizeKey(k)}
	}
	return cs
}

// Closest returns the candidate nearest to key, or "" when none is close
// enough or two are equally close. Case, '_' and '-' are ignored; a key
// missing its last segment (log.retention.check.interval →
// log.retention.check.interval.ms, emit.heartbeats →
// emit.heartbeats.enabled) counts as close.
func Closest(key string, candidates []string) string {
	return closestIn(key, newCandidates(candidates))
}

// closestIn is Closest over prepared candidates.
func closestIn(key string, candidates []candidate) string {
	norm := normalizeKey(key)
	best, bestDist, tie := "", maxDistance(norm)+1, false
	var completions []string
	var rows [2][]int
	for _, cand := range candidates {
		c, nc := cand.key, cand.norm
		if rest, ok := strings.CutPrefix(nc, norm+"."); ok && !strings.Contains(rest, ".") {
			completions = append(completions, c)
		}
		// The distance is at least the difference in length: a candidate
		// further than the best so far changes nothing, so skip the work.
		if abs(len(nc)-len(norm)) > bestDist {
			continue
		}
		d := levenshteinWithin(norm, nc, bestDist, &rows)
		switch {
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

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// maxDistance is how many edits still make a "did you mean": one for short
// keys, where two edits already reach unrelated keys, more for long ones.
func maxDistance(key string) int {
	switch {
	case len(key) < 10:
		return 1
	case len(key) < 24:
		return 2
	}
	return 3
}

var keySeparators = strings.NewReplacer("_", ".", "-", ".")

func normalizeKey(k string) string {
	return keySeparators.Replace(strings.ToLower(k))
}

// levenshteinWithin is the edit distance of a and b when it is at most k,
// else k+1: only the diagonal band of width 2k+1 is computed and a row
// whose every cell exceeds k ends the work, so a file of many unknown keys
// costs O(len·k) per candidate instead of O(len²) (a 49,000-key file spent
// 85 % of its load time in the full table). rows is scratch space reused
// across calls.
func levenshteinWithin(a, b string, k int, rows *[2][]int) int {
	inf := k + 1
	if abs(len(a)-len(b)) > k {
		return inf
	}
	n := len(b)
	for i := range rows {
		if cap(rows[i]) < n+2 {
			rows[i] = make([]int, n+2)
		}
	}
	prev, cur := rows[0][:n+2], rows[1][:n+2]
	for j := range prev {
		prev[j] = min(j, inf)
	}
	for i := 1; i <= len(a); i++ {
		lo, hi := max(1, i-k), min(n, i+k)
		cur[lo-1] = inf
		if lo == 1 {
			cur[0] = min(i, inf)
		}
		rowMin := cur[lo-1]
		for j := lo; j <= hi; j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			v := min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost, inf)
			cur[j] = v
			rowMin = min(rowMin, v)
		}
		cur[hi+1] = inf
		if rowMin > k {
			return inf
		}
		prev, cur = cur, prev
	}
	return prev[n]
}

// legacyClientKeys are the 0.8-era Scala client keys that the Java clients
// never read, with their replacement ("" when there is none).
var legacyClientKeys = map[string]string{
	"metadata.broker.list":            "bootstrap.servers",
	"zookeeper.connect":               "bootstrap.servers",
	"request.required.acks":           "acks",
	"serializer.class":                "value.serializer",
	"key.serializer.class":            "key.serializer",
	"compression.codec":               "compression.type",
	"queue.buffering.max.ms":          "linger.ms",
	"auto.commit.enable":              "enable.auto.commit",
	"producer.type":                   "",
	"zookeeper.connection.timeout.ms": "",
	"zookeeper.session.timeout.ms":    "",
	"zookeeper.sync.time.ms":          "",
}

// LegacyClientKey reports whether key is a 0.8-era Scala client key that
// the Java clients never read, and its replacement ("" when there is none).
func LegacyClientKey(key string) (replacement string, ok bool) {
	replacement, ok = legacyClientKeys[key]
	return replacement, ok
}
