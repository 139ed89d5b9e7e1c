package loader

import (
	"regexp"
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

// jaasSecretOption is a JAAS option carrying a secret, as the inline-secret
// rule reads it: password, clientSecret (OAuth), or the PlainLoginModule's
// user_<name> entries, with a quoted or bare value.
var jaasSecretOption = regexp.MustCompile(`(?i)\b(password|clientsecret|client_secret|user_[A-Za-z0-9_.-]+)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s;"']+))`)

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
		for _, m := range jaasSecretOption.FindAllStringSubmatch(s.Raw, -1) {
			add(m[2] + m[3] + m[4])
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
