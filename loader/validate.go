package loader

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/kafkalint/kafkalint/loader/catalog"
)

// This file checks explicit settings against Kafka's configuration
// catalog: whether the key is known for the unit's kind in the cluster's
// Kafka version (else removed, unknown with a did-you-mean suggestion, or
// exempt because a plugin or a prefix reads it), and whether the value is
// one the key's validator accepts. The verdicts are annotations on Setting
// (KeyStatus, Suggestion, KnownFor, AddedIn, RemovedAfter, Invalid); the
// rules only read them. The catalog's valid_values strings are parsed
// here, once each.

// Key statuses (Setting.KeyStatus).
const (
	KeyKnown   = "known"
	KeyUnknown = "unknown"
	KeyRemoved = "removed"
	KeyExempt  = "exempt"
)

// annotate sets the catalog annotations of a unit's explicit settings. It
// does nothing for units the catalog does not describe (meta.properties)
// and, apart from MirrorMaker 2 flow keys' types, for a Kafka version whose
// release line is not cataloged: there a key's absence proves nothing.
func annotate(r *Doc, version string, settings map[string]*Setting) {
	switch r.Kind {
	case KindMirrorMaker:
		annotateMirror(r, version, settings)
		return
	case KindNode, KindClient, KindTopic:
	default:
		return
	}
	if !catalog.Cataloged(version) || conditional(r) {
		return
	}
	own, others := kindScopes(r)
	for _, s := range settings {
		if s.Source != SourceExplicit {
			continue
		}
		switch {
		case s.Key == "":
			// A line such as "=value": Java reads the empty key, which
			// nothing reads back. empty-key (KFK9008) reports it; it is no
			// mistyped key to suggest a name for.
			s.KeyStatus = KeyExempt
		case hasTemplate(s.Key):
			s.KeyStatus = KeyExempt
		case definedIn(version, own, s.Key):
			s.KeyStatus = KeyKnown
			checkValue(s, s.Key, version, own)
		case exempt(r, s.Key), r.Format != "properties" && slices.Contains(imageKeys, s.Key):
			s.KeyStatus = KeyExempt
		default:
			classifyMissing(s, version, own, others)
			if r.Kind == KindClient && s.KeyStatus == KeyUnknown && !clientReportable(s) {
				// Clients hand their whole configuration to serializers,
				// interceptors and the application (schema.registry.url,
				// topic, ...): only a near miss of a client key, a key of
				// another kind or a 0.8-era key is certainly a mistake.
				n := s.Notes()
				n.Suggestion, n.KnownFor = "", nil
				s.KeyStatus = KeyExempt
				s.setNotes(n)
			}
		}
	}
}

// kindScopes returns the catalog scopes that define a unit's keys, and the
// other scopes whose keys a user may have put in the wrong file.
func kindScopes(r *Doc) (own, others []string) {
	switch r.Kind {
	case KindNode:
		return []string{catalog.Broker}, []string{catalog.Topic, catalog.Producer, catalog.Consumer, catalog.Admin}
	case KindTopic:
		return []string{catalog.Topic}, []string{catalog.Broker}
	}
	switch r.ClientKind {
	case "producer":
		return []string{catalog.Producer}, []string{catalog.Consumer, catalog.Admin, catalog.Broker}
	case "consumer":
		return []string{catalog.Consumer}, []string{catalog.Producer, catalog.Admin, catalog.Broker}
	case "admin":
		return []string{catalog.Admin}, []string{catalog.Producer, catalog.Consumer, catalog.Broker}
	}
	return []string{catalog.Producer, catalog.Consumer, catalog.Admin}, []string{catalog.Broker}
}

func definedIn(version string, scopes []string, key string) bool {
	for _, s := range scopes {
		if _, ok := catalog.Lookup(version, s, key); ok {
			return true
		}
	}
	return false
}

// classifyMissing annotates a key the cluster's version does not define for
// the unit's kind: removed (an older cataloged release defines it, no newer
// one does), known (it is defined before and after: an internal key in
// between, still accepted), or unknown with the release that adds it, the
// kinds that define it and the closest known key.
func classifyMissing(s *Setting, version string, own, others []string) {
	var older, newer string
	for _, v := range catalog.Versions() {
		if !definedIn(v, own, s.Key) {
			continue
		}
		switch c := catalog.CompareVersions(v, catalog.MajorMinor(version)); {
		case c < 0:
			older = v
		case c > 0 && newer == "":
			newer = v
		}
	}
	switch {
	case older != "" && newer != "":
		s.KeyStatus = KeyKnown
		return
	case older != "":
		s.KeyStatus = KeyRemoved
		s.setNotes(KeyNotes{RemovedAfter: older})
		return
	}
	n := KeyNotes{AddedIn: newer, Suggestion: suggest(s.Key, version, own)}
	for _, o := range others {
		if _, ok := catalog.Lookup(version, o, s.Key); ok {
			n.KnownFor = append(n.KnownFor, o)
		}
	}
	s.KeyStatus = KeyUnknown
	s.setNotes(n)
}

// suggest returns the known key a mistyped one most likely meant: a legacy
// 0.8 client key's replacement, a topic key's broker default (retention.ms
// → log.retention.ms) or the other way round, else the closest key by edit
// distance when it is close and unambiguous. The answer depends only on its
// arguments and the embedded catalog, and a bulk tree repeats the same
// unknown keys in file after file, so it is memoized, up to maxSuggestions
// answers per process (an audit of many repositories meets ever new
// application keys; past the bound they are computed each time).
func suggest(key, version string, scopes []string) string {
	memo := key + "\x00" + version + "\x00" + strings.Join(scopes, ",")
	if v, ok := suggestions.Load(memo); ok {
		if s, ok := v.(string); ok {
			return s
		}
	}
	v := suggestUncached(key, version, scopes)
	if suggestionCount.Add(1) <= maxSuggestions {
		suggestions.Store(memo, v)
	}
	return v
}

const maxSuggestions = 1 << 16

var (
	suggestions     sync.Map // key NUL version NUL scopes -> suggestion
	suggestionCount atomic.Int64
)

func suggestUncached(key, version string, scopes []string) string {
	if slices.Contains(scopes, catalog.Producer) || slices.Contains(scopes, catalog.Consumer) {
		if r, ok := legacyClientKeys[key]; ok {
			return r
		}
	}
	if slices.Contains(scopes, catalog.Broker) {
		if d := catalog.ServerDefault(version, key); d != "" {
			return d
		}
	}
	if slices.Contains(scopes, catalog.Topic) {
		for _, k := range catalog.Keys(version, catalog.Topic) {
			if catalog.ServerDefault(version, k) == key {
				return k
			}
		}
	}
	return closestIn(key, catalogCandidates(version, scopes))
}

// catalogCandidates are the keys of scopes in version, prepared for
// closestIn once per version and scopes (a file of many unknown keys
// used to sort and normalize the whole catalog for each of them).
func catalogCandidates(version string, scopes []string) []candidate {
	memo := version + "\x00" + strings.Join(scopes, ",")
	if v, ok := candidateSets.Load(memo); ok {
		if cs, ok := v.([]candidate); ok {
			return cs
		}
	}
	var keys []string
	for _, s := range scopes {
		keys = append(keys, catalog.Keys(version, s)...)
	}
	cs := newCandidates(keys)
	candidateSets.Store(memo, cs)
	return cs
}

// candidateSets holds catalogCandidates' answers: a few per cataloged
// version (one per kind of unit).
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

// closest returns the candidate nearest to key, or "" when none is close
// enough or two are equally close. Case, '_' and '-' are ignored; a key
// missing its last segment (log.retention.check.interval →
// log.retention.check.interval.ms, emit.heartbeats →
// emit.heartbeats.enabled) counts as close.
func closest(key string, candidates []string) string {
	return closestIn(key, newCandidates(candidates))
}

// closestIn is closest over prepared candidates.
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

func clientReportable(s *Setting) bool {
	_, legacy := legacyClientKeys[s.Key]
	return legacy || s.Notes().Suggestion != "" || len(s.Notes().KnownFor) > 0
}

// imageKeys come from container images' environment variables
// (KAFKA_SSL_KEYSTORE_FILENAME, ...): the image's start script reads them
// to build ssl.keystore.location and the passwords, Kafka never sees them.
var imageKeys = []string{
	"ssl.keystore.filename", "ssl.keystore.credentials", "ssl.key.credentials",
	"ssl.truststore.filename", "ssl.truststore.credentials",
}

// conditional reports a template whose lines are conditional (a Jinja
// {% if %} block read as a key): which keys it sets is not known.
func conditional(r *Doc) bool {
	for _, s := range r.Settings {
		if strings.Contains(s.Key, "{%") {
			return true
		}
	}
	return false
}

// exemptPrefixes are key namespaces that Kafka or a plugin reads although the
// catalog cannot list them (decided from the real-world corpus, see
// docs/rules/KFK9004.md): per-listener overrides, KIP-297 config providers,
// remote storage plugin prefixes, Confluent Server and its plugins
// (metrics reporter, balancer, embedded REST proxy, RBAC and its LDAP
// group provider), the
// Cruise Control metrics reporter, the OPA authorizer, and AutoMQ's storage
// keys.
var exemptPrefixes = map[string][]string{
	KindNode: {
		"listener.name.", "config.providers", "rsm.config.", "rlmm.config.",
		"confluent.", "kafka.rest.", "ldap.", "cruise.control.metrics.", "opa.authorizer.",
		"s3.", "elasticstream.", "automq.",
	},
	KindTopic:  {"confluent."},
	KindClient: {"config.providers", "confluent."},
}

// authorizerKeys are read by the authorizer (StandardAuthorizer, the ZooKeeper
// AclAuthorizer) from the broker configuration, outside its ConfigDef.
var authorizerKeys = []string{"super.users", "allow.everyone.if.no.acl.found"}

func exempt(r *Doc, key string) bool {
	for _, p := range exemptPrefixes[r.Kind] {
		if strings.HasPrefix(key, p) {
			return true
		}
	}
	return r.Kind == KindNode && slices.Contains(authorizerKeys, key)
}

// hasTemplate reports a key that is itself a template expression (a Jinja
// block, a ${VAR} inside the name): what it becomes is unknown.
func hasTemplate(key string) bool {
	for _, m := range []string{"{{", "{%", "${", "}}", "%}"} {
		if strings.Contains(key, m) {
			return true
		}
	}
	return false
}

// checkValue validates the value of a setting of the known key against the
// key's type and cataloged validator. On failure Value is cleared and
// Invalid holds Kafka's own reason, the text after "Invalid value X for
// configuration K: ".
func checkValue(s *Setting, key, version string, scopes []string) {
	if s.Unknown {
		return
	}
	var k catalog.Key
	for _, sc := range scopes {
		if found, ok := catalog.Lookup(version, sc, key); ok {
			k = found
			break
		}
	}
	if s.Invalid != "" {
		s.Invalid = parseFailure(s.Type)
		return
	}
	if k.ValidValues == "" {
		return
	}
	if reason := parseValidator(k.ValidValues).check(s.Value); reason != "" {
		s.Value, s.Invalid = nil, reason
	}
}

// parseFailure is ConfigDef.parseType's message for a value that is not of
// the key's type.
func parseFailure(typ string) string {
	if typ == "boolean" {
		return "Expected value to be either true or false"
	}
	return "Not a number of type " + strings.ToUpper(typ)
}

// validator is a parsed valid_values string.
type validator struct {
	kind     string // "range", "enum", "nonempty" or "" (nothing checkable)
	min, max *float64
	minText  string
	maxText  string
	or       *float64 // "[1,...,9] or -1"
	values   []string
	prefixes []string // enum entries such as "by_duration:PnDTnHnMn.nS"
	fold     bool     // "(case insensitive) [...]"
}

var (
	rangeRE     = regexp.MustCompile(`^\[(-?[0-9]+(?:\.[0-9]+)?),\.\.\.(?:,(-?[0-9]+(?:\.[0-9]+)?))?\](?: or (-?[0-9]+))?$`)
	validators  = map[string]validator{}
	validatorMu sync.Mutex
)

// parseValidator parses a catalog valid_values string once. Forms it does
// not recognize (class constraints, free text, the KRaft voter list whose
// "non-empty list" text does not hold for its empty default) check nothing.
func parseValidator(text string) validator {
	validatorMu.Lock()
	defer validatorMu.Unlock()
	if v, ok := validators[text]; ok {
		return v
	}
	v := validator{}
	switch {
	case rangeRE.MatchString(text):
		m := rangeRE.FindStringSubmatch(text)
		v.kind, v.minText, v.maxText = "range", m[1], m[2]
		v.min = number(m[1])
		v.max = number(m[2])
		v.or = number(m[3])
	case text == "non-empty string":
		v.kind = "nonempty"
	default:
		body, fold := strings.CutPrefix(text, "(case insensitive) ")
		if !strings.HasPrefix(body, "[") || !strings.HasSuffix(body, "]") || strings.Contains(body, "...") {
			break
		}
		v.kind, v.fold = "enum", fold
		for _, e := range strings.Split(body[1:len(body)-1], ", ") {
			switch {
			case strings.Contains(e, "-IV"):
				// Version validators (message.format.version) also accept
				// "2.8" for "2.8-IV1": the list is not the whole story.
				v.kind = ""
			case strings.Contains(e, ":"):
				v.prefixes = append(v.prefixes, e[:strings.Index(e, ":")+1])
			case e == "" || strings.ContainsAny(e, "[] "):
				v.kind = ""
			default:
				v.values = append(v.values, e)
			}
		}
		if len(v.prefixes) > 0 {
			// A pattern entry means a custom validator (auto.offset.reset's
			// by_duration:): its case handling is not documented, so
			// accept any case rather than guess.
			v.fold = true
		}
	}
	validators[text] = v
	return v
}

func number(s string) *float64 {
	if s == "" {
		return nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return nil
	}
	return &f
}

// check returns why value breaks the validator, in Kafka's words, or "".
func (v validator) check(value any) string {
	switch v.kind {
	case "range":
		var n float64
		switch x := value.(type) {
		case int64:
			n = float64(x)
		case float64:
			n = x
		default:
			return ""
		}
		if v.or != nil && n == *v.or {
			return ""
		}
		if v.or != nil && ((v.min != nil && n < *v.min) || (v.max != nil && n > *v.max)) {
			return fmt.Sprintf("Value must be in [%s,...,%s] or %v", v.minText, v.maxText, *v.or)
		}
		if v.min != nil && n < *v.min {
			return "Value must be at least " + v.minText
		}
		if v.max != nil && n > *v.max {
			return "Value must be no more than " + v.maxText
		}
	case "nonempty":
		if s, ok := value.(string); ok && s == "" {
			return "String must be non-empty"
		}
	case "enum":
		switch x := value.(type) {
		case string:
			return v.checkOne(x)
		case []string:
			for _, e := range x {
				if r := v.checkOne(e); r != "" {
					return r
				}
			}
		}
	}
	return ""
}

func (v validator) checkOne(s string) string {
	for _, p := range v.prefixes {
		if strings.HasPrefix(s, p) {
			return ""
		}
	}
	for _, a := range v.values {
		if s == a || (v.fold && strings.EqualFold(s, a)) {
			return ""
		}
	}
	all := slices.Clone(v.values)
	for _, p := range v.prefixes {
		all = append(all, p+"...")
	}
	if v.fold {
		return "String must be one of (case insensitive): " + strings.Join(all, ", ")
	}
	return "String must be one of: " + strings.Join(all, ", ")
}
