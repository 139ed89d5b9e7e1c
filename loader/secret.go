package loader

import (
	"slices"
	"strconv"
	"strings"
)

// This file is the one definition of a secret in the model. A setting is a
// secret (Setting.SecretKey) when its key holds one: Kafka's catalog types
// it PASSWORD, or its name says so where the catalog cannot type it
// (listener- and alias-prefixed keys, Schema Registry basic auth, API
// secrets, JAAS configurations). The inline-secret rule (KFK2003) reads
// secret_key; a value is never printed (Setting.Sensitive) when it is a
// secret or its source declares it sensitive (a Terraform variable with
// sensitive = true, or a value derived from one).

// Redacted stands for a value that is never printed.
const Redacted = "(sensitive)"

// jaasSecretValues are the values of the JAAS options of s that carry a
// secret, as the inline-secret rule reads them: password, clientSecret
// (OAuth), or the PlainLoginModule's user_<name> entries, with a quoted or
// bare value. It finds what the rule's regular expression finds,
//
//	(?i)\b(password|clientsecret|client_secret|user_[A-Za-z0-9_.-]+)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s;"']+))
//
// (FindAllStringSubmatch; a value is its groups 2-4 joined), scanning once:
// Go's backtracker for it was 1.4 % of a .properties lint's instructions
// (TestJAASValuesAsRegexp and FuzzJAASValues hold it to the expression).
// Each run (a name's characters, the blanks around '=', a bare value's
// characters) is taken as far as it goes, as the expression takes it: a
// shorter run would leave a character that cannot come next.
func jaasSecretValues(s string) []string {
	var out []string
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case 'p', 'P', 'c', 'C', 'u', 'U':
		default:
			continue
		}
		if i > 0 && isWordByte(s[i-1]) {
			continue // \b: a name starts with a word character
		}
		if v, end, ok := jaasOptionAt(s, i); ok {
			out = append(out, v)
			i = end - 1
		}
	}
	return out
}

// jaasOptionAt matches one option at s[i:]: its value and end.
func jaasOptionAt(s string, i int) (value string, end int, ok bool) {
	j := -1
	for _, name := range []string{"password", "clientsecret", "client_secret"} {
		if j = foldPrefix(s, i, name); j >= 0 {
			break
		}
	}
	if j < 0 {
		if j = foldPrefix(s, i, "user_"); j < 0 {
			return "", 0, false
		}
		k := j
		for k < len(s) {
			n := userNameChar(s[k:])
			if n == 0 {
				break
			}
			k += n
		}
		if k == j {
			return "", 0, false
		}
		j = k
	}
	j = skipBlanks(s, j)
	if j >= len(s) || s[j] != '=' {
		return "", 0, false
	}
	j = skipBlanks(s, j+1)
	if j >= len(s) {
		return "", 0, false
	}
	if q := s[j]; q == '"' || q == '\'' {
		k := strings.IndexByte(s[j+1:], q)
		if k < 0 {
			return "", 0, false
		}
		return s[j+1 : j+1+k], j + 2 + k, true
	}
	k := j
	for k < len(s) && strings.IndexByte(" \t\n\f\r;\"'", s[k]) < 0 {
		k++
	}
	if k == j {
		return "", 0, false
	}
	return s[j:k], k, true
}

// foldPrefix matches word at s[i:] as (?i) does, where 's' also matches
// U+017F (ſ, which folds to it): the end of the match, or -1.
func foldPrefix(s string, i int, word string) int {
	for _, c := range []byte(word) {
		switch {
		case i < len(s) && (s[i] == c || s[i] == c-'a'+'A' && c >= 'a' && c <= 'z'):
			i++
		case c == 's' && strings.HasPrefix(s[i:], "ſ"):
			i += len("ſ")
		default:
			return -1
		}
	}
	return i
}

// userNameChar is the length of the character at the head of s when it is
// one of [A-Za-z0-9_.-] under (?i), which adds U+017F (ſ) and U+212A
// (the Kelvin sign, K), else 0.
func userNameChar(s string) int {
	if c := s[0]; isWordByte(c) || c == '.' || c == '-' {
		return 1
	}
	for _, r := range []string{"ſ", "\u212a"} {
		if strings.HasPrefix(s, r) {
			return len(r)
		}
	}
	return 0
}

// isWordByte is an ASCII word character, as \b sees one ([0-9A-Za-z_]).
func isWordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// skipBlanks skips \s ([\t\n\f\r ]) from s[i:].
func skipBlanks(s string, i int) int {
	for i < len(s) && strings.IndexByte(" \t\n\f\r", s[i]) >= 0 {
		i++
	}
	return i
}

// IsSecretKey reports a key that holds a secret: of catalog type password,
// or named like one — (^|\.)(password|sasl\.jaas\.config)$, \.secret$ or
// basic\.auth\.user\.info$ (written with strings functions: this runs for
// every setting of every file).
func IsSecretKey(key, typ string) bool {
	if typ == "password" {
		return true
	}
	for _, name := range []string{"password", "sasl.jaas.config"} {
		// key is name or ends with "."+name (without building that
		// string: every setting of every file is asked).
		if strings.HasSuffix(key, name) && (len(key) == len(name) || key[len(key)-len(name)-1] == '.') {
			return true
		}
	}
	return strings.HasSuffix(key, ".secret") || strings.HasSuffix(key, "basic.auth.user.info")
}

// markSecret sets SecretKey from the key and type, and Sensitive with it.
func (s *Setting) markSecret() {
	s.SecretKey = IsSecretKey(s.Key, s.Type)
	s.Sensitive = s.Sensitive || s.SecretKey
}

// EachSetting calls fn for every setting of the cluster: the settings of
// its nodes (with their platform and ignored settings), clients,
// meta.properties, MirrorMaker 2 configurations (with their aliases' and
// flows' settings, which are shared with the configuration's own, so fn
// may see a setting twice) and topics.
func (c *Cluster) EachSetting(fn func(*Setting)) {
	each := func(m map[string]*Setting) {
		for _, s := range m {
			fn(s)
		}
	}
	for _, n := range c.Nodes {
		each(n.Settings)
		each(n.Platform)
		for _, s := range n.IgnoredSettings {
			fn(s)
		}
	}
	for _, cl := range c.Clients {
		each(cl.Settings)
	}
	for _, m := range c.Meta {
		each(m.Settings)
	}
	for _, mm := range c.MirrorMakers {
		each(mm.Settings)
		for _, a := range mm.Aliases {
			if a.BootstrapServers != nil {
				fn(a.BootstrapServers)
			}
		}
		for _, f := range mm.Flows {
			if f.EnabledSetting != nil {
				fn(f.EnabledSetting)
			}
			each(f.Settings)
		}
	}
	for _, t := range c.Topics {
		for _, s := range []*Setting{t.ReplicationFactor, t.Partitions} {
			if s != nil {
				fn(s)
			}
		}
		each(t.Settings)
	}
}

// SecretForms are the texts under which a sensitive setting's value can
// appear in a message: the value as written and trimmed, quoted as Go
// quotes it (the loader's own reasons, "\"x\" is not a valid int"), and
// each entry of a list (a rule may quote one listener or voter). Empty for
// a setting that is not sensitive or has no text.
func (s *Setting) SecretForms() []string {
	if !s.Sensitive {
		return nil
	}
	var out []string
	add := func(v string) {
		if v != "" && v != Redacted {
			out = append(out, v)
		}
	}
	raw := strings.TrimSpace(s.Raw)
	add(s.Raw)
	add(raw)
	if q := strconv.Quote(raw); q[1:len(q)-1] != raw {
		add(q)
	}
	if list, ok := s.Value.([]string); ok {
		for _, e := range list {
			add(e)
		}
	}
	if strings.HasSuffix(s.Key, "sasl.jaas.config") {
		// A rule may quote one option of a JAAS configuration.
		for _, v := range jaasSecretValues(s.Raw) {
			add(v)
		}
	}
	// Longest first: a form inside another is replaced after it.
	slices.SortStableFunc(out, func(a, b string) int { return len(b) - len(a) })
	return slices.Compact(out)
}

// RedactSecrets replaces the value of every sensitive setting of the
// cluster with Redacted, and removes it from the setting's invalid reason,
// so the model can be printed (kafkalint inspect without --show-secrets).
// Run it after evaluation, never before: the rules read the values.
func RedactSecrets(c *Cluster) {
	c.EachSetting(func(s *Setting) {
		if !s.Sensitive {
			return
		}
		if s.Invalid != "" {
			for _, f := range s.SecretForms() {
				s.Invalid = strings.ReplaceAll(s.Invalid, f, Redacted)
			}
		}
		s.Raw = Redacted
		if s.Value != nil {
			s.Value = Redacted
		}
	})
}
