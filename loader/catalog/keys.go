package catalog

// Cataloged reports whether the catalog describes exactly the release line
// of version ("3.9", "4.0.1"): only then is a key's absence from it certain.
// Older lines resolve to 3.7 and newer ones to the newest, which may lack or
// hold keys the real release line does not.
func Cataloged(version string) bool {
	mm := MajorMinor(version)
	for _, s := range spans {
		if s.version == mm {
			return true
		}
	}
	return false
}

// Keys returns the keys of a scope in a cataloged version, sorted. The
// slice is the catalog's own: callers must not modify it.
func Keys(version, scope string) []string {
	s := spanOf(version, scope)
	if s == nil {
		return nil
	}
	return names[s.lo:s.hi:s.hi]
}

// ServerDefault returns the broker key that supplies a topic key's cluster
// default (retention.ms → log.retention.ms), or "" when the catalog names
// none.
func ServerDefault(version, topicKey string) string {
	i, ok := lookup(version, Topic, topicKey)
	if !ok {
		return ""
	}
	return entries[i].serverDefault
}
