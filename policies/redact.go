package policies

import (
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/kafkalint/kafkalint/loader"
	"github.com/kafkalint/kafkalint/report"
)

// This file is the one place where messages are made safe to print. Rules
// quote values freely (key=value is the clearest message); after a
// cluster is evaluated, the values of that cluster that must not appear
// verbatim are collected once — a sensitive value becomes "(sensitive)", a
// long or multi-line value its first line cut at maxQuoted characters with
// "…" — and every finding's message is rewritten in one pass over its
// text. Most settings need neither, so the set is small; a message is
// never compared with every setting.

// maxQuoted is the longest value a message quotes in full (in characters,
// first line only); a longer or multi-line value is cut with "…". 60
// keeps ordinary values whole (a three-voter quorum, a listener or two)
// inside a message of about 120 characters, and stops a 30 KB voter list
// or a multi-line text from filling a pull-request annotation; the full
// value is at the finding's file:line.
const maxQuoted = 60

// redactor rewrites the texts that must not be printed. Patterns are found
// by their first headLen bytes (a map lookup per candidate position and
// head length, the first byte filtering most positions out), then compared
// in full, longest first, so the cost of a message is proportional to its
// length, however long the values are.
type redactor struct {
	// lengths[first[c]-1] are the distinct lengths of the heads that
	// start with byte c, longest first; first[c] is 0 when none does. A
	// position is tried only at the lengths of its byte's heads: a
	// cluster's secrets have many lengths, and trying each at every
	// candidate position was 1.8 % of the shared bench tree's lint.
	first   [256]uint16
	lengths [][]int
	// seconds[first[c]-1] are the second bytes of the patterns that start
	// with byte c, anySecond[first[c]-1] whether one of them is that
	// byte alone: a position whose next byte starts no pattern's second
	// is skipped without a lookup (English text starts a pattern at one
	// position in four, and its next byte rarely continues one).
	seconds   [][]byte
	anySecond []bool
	heads     map[string][]pattern // by head; longest pattern first
}

type pattern struct {
	old, new string
	// word: old is replaced only where it is not part of a longer word
	// (wordAt), so that a secret such as "confluent" or "secret" leaves
	// keys and the rule's own text (confluent.metadata.server...,
	// secrets.properties) alone while a quoted value is still caught.
	word bool
}

const headLen = 32

// newRedactor collects what the cluster's messages must not quote; nil
// when there is nothing.
func newRedactor(c *loader.Cluster) *redactor {
	if c == nil {
		return nil
	}
	repl := map[string]string{}
	secret := map[string]bool{}
	c.EachSetting(func(s *loader.Setting) {
		if s.Sensitive {
			for _, f := range s.SecretForms() {
				repl[f], secret[f] = loader.Redacted, true
			}
			return
		}
		if !long(s.Raw) {
			return
		}
		cut := truncate(s.Raw)
		for _, f := range []string{s.Raw, strings.TrimSpace(s.Raw)} {
			if _, seen := repl[f]; !seen && long(f) {
				repl[f] = cut
			}
		}
	})
	if len(repl) == 0 {
		return nil
	}
	r := &redactor{heads: map[string][]pattern{}}
	for old, new := range repl {
		h := old[:min(len(old), headLen)]
		r.heads[h] = append(r.heads[h], pattern{old: old, new: new, word: secret[old]})
		if r.first[old[0]] == 0 {
			r.lengths = append(r.lengths, nil)
			r.seconds = append(r.seconds, nil)
			r.anySecond = append(r.anySecond, false)
			r.first[old[0]] = uint16(len(r.lengths)) //nolint:gosec // one entry per distinct first byte: at most 256
		}
		k := r.first[old[0]] - 1
		if ls := &r.lengths[k]; !slices.Contains(*ls, len(h)) {
			*ls = append(*ls, len(h))
		}
		if len(old) == 1 {
			r.anySecond[k] = true
		} else if !slices.Contains(r.seconds[k], old[1]) {
			r.seconds[k] = append(r.seconds[k], old[1])
		}
	}
	for _, ls := range r.lengths {
		slices.SortFunc(ls, func(a, b int) int { return b - a })
	}
	for _, ps := range r.heads {
		slices.SortFunc(ps, func(a, b pattern) int { return len(b.old) - len(a.old) })
	}
	return r
}

// long reports a value a message must not quote in full.
func long(v string) bool {
	v = strings.TrimSpace(v)
	return strings.ContainsAny(v, "\r\n") || utf8.RuneCountInString(v) > maxQuoted
}

// truncate is the first line of v, cut at maxQuoted characters, with "…".
func truncate(v string) string {
	v = strings.TrimSpace(v)
	line, _, _ := strings.Cut(v, "\n")
	line = strings.TrimRight(line, "\r")
	if i := runeOffset(line, maxQuoted); i < len(line) {
		line = line[:i]
	}
	return line + "…"
}

// runeOffset is the byte offset of the n-th rune of s (len(s) if shorter).
func runeOffset(s string, n int) int {
	for i := range s {
		if n == 0 {
			return i
		}
		n--
	}
	return len(s)
}

// replace rewrites s.
func (r *redactor) replace(s string) string {
	if r == nil {
		return s
	}
	var b strings.Builder
	done := 0 // s[:done] is written to b
	// budget bounds the bytes spent comparing long patterns that turn out
	// not to match (a periodic text can match a head at every period).
	budget := 8*len(s) + 1<<16
	for i := 0; i < len(s); {
		if r.first[s[i]] == 0 {
			i++
			continue
		}
		p, ok := r.match(s, i, &budget)
		if !ok {
			i++
			continue
		}
		b.WriteString(s[done:i])
		b.WriteString(p.new)
		i += len(p.old)
		done = i
	}
	if done == 0 {
		return s
	}
	b.WriteString(s[done:])
	return b.String()
}

// match finds the longest pattern at s[i:]. Once the budget is spent, a
// long pattern is no longer compared in full: a secret's head then counts
// as the whole secret, as many bytes as it has (hiding too much is safe),
// a long value is left as it is.
func (r *redactor) match(s string, i int, budget *int) (pattern, bool) {
	k := r.first[s[i]] - 1
	if !r.anySecond[k] && (i+1 == len(s) || !slices.Contains(r.seconds[k], s[i+1])) {
		return pattern{}, false
	}
	for _, n := range r.lengths[k] {
		if i+n > len(s) {
			continue
		}
		for _, p := range r.heads[s[i:i+n]] {
			if len(p.old) > n && *budget <= 0 {
				if end := i + min(len(p.old), len(s)-i); p.word && !joined(s, i, end) {
					return pattern{old: s[i:end], new: p.new}, true
				}
				continue
			}
			if strings.HasPrefix(s[i:], p.old) && (!p.word || !joined(s, i, i+len(p.old))) {
				return p, true
			}
			if len(p.old) > n {
				*budget -= len(p.old)
			}
		}
	}
	return pattern{}, false
}

// joined reports whether s[i:j] is glued to the text around it: a word
// character (wordChar) on a side where the match itself ends with one, or
// a '.' that continues a dotted name (the '.' of "confluent.metadata",
// not a full stop).
func joined(s string, i, j int) bool {
	if wordChar(s[i]) && i > 0 {
		if p := s[i-1]; wordChar(p) || p == '.' && i > 1 && wordChar(s[i-2]) {
			return true
		}
	}
	if wordChar(s[j-1]) && j < len(s) {
		if n := s[j]; wordChar(n) || n == '.' && j+1 < len(s) && wordChar(s[j+1]) {
			return true
		}
	}
	return false
}

// wordChar: letters, digits and the characters keys and paths are made of.
func wordChar(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-' || c == '/' || c >= 0x80
}

// findings rewrites the texts (message, why, fix) of a cluster's findings;
// a nil redactor (nothing to redact) leaves them as they are.
func (r *redactor) findings(fs []report.Finding) []report.Finding {
	if r == nil {
		return fs
	}
	// A rule's why and fix texts are mostly its own, the same on each of
	// its findings (a large cluster has thousands): each distinct text is
	// rewritten once. Messages quote values, and are rarely repeated.
	done := map[string]string{}
	replaced := func(s string) string {
		t, ok := done[s]
		if !ok {
			t = r.replace(s)
			if len(done) < maxRewritten {
				done[s] = t
			}
		}
		return t
	}
	for i := range fs {
		fs[i].Message = r.replace(fs[i].Message)
		fs[i].Why = replaced(fs[i].Why)
		fs[i].Fix = replaced(fs[i].Fix)
	}
	return fs
}

// maxRewritten bounds the texts findings keeps rewritten per cluster.
const maxRewritten = 4096
