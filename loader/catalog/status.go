package catalog

// Key statuses: what the catalog says of a key that a unit sets.
const (
	StatusKnown   = "known"
	StatusUnknown = "unknown"
	StatusRemoved = "removed"
)

// LookupIn returns a key's description in the first of scopes that
// defines it in version.
func LookupIn(version string, scopes []string, key string) (Key, bool) {
	for _, s := range scopes {
		if k, ok := Lookup(version, s, key); ok {
			return k, true
		}
	}
	return Key{}, false
}

// DefinedIn reports whether any of scopes defines key in version.
func DefinedIn(version string, scopes []string, key string) bool {
	_, ok := LookupIn(version, scopes, key)
	return ok
}

// Verdict is the catalog's verdict on a key that version does not define
// in the unit's own scopes.
type Verdict struct {
	// Status is StatusKnown (defined before and after version: an internal
	// key in between, still accepted), StatusRemoved or StatusUnknown.
	Status string
	// RemovedAfter is the last cataloged release defining a removed key.
	RemovedAfter string
	// AddedIn is the first cataloged release newer than version that
	// defines an unknown key.
	AddedIn string
	// Suggestion is the known key an unknown one most likely meant.
	Suggestion string
	// KnownFor are the scopes among others that define an unknown key in
	// version (a consumer key in a producer file).
	KnownFor []string
}

// Classify judges a key that version does not define in own: removed when
// an older cataloged release defines it and no newer one does, known when
// releases before and after define it, else unknown, with the release
// that adds it, the scopes among others that define it and a did-you-mean
// suggestion.
func Classify(version, key string, own, others []string) Verdict {
	var older, newer string
	for _, v := range Versions() {
		if !DefinedIn(v, own, key) {
			continue
		}
		switch c := CompareVersions(v, MajorMinor(version)); {
		case c < 0:
			older = v
		case c > 0 && newer == "":
			newer = v
		}
	}
	switch {
	case older != "" && newer != "":
		return Verdict{Status: StatusKnown}
	case older != "":
		return Verdict{Status: StatusRemoved, RemovedAfter: older}
	}
	out := Verdict{Status: StatusUnknown, AddedIn: newer, Suggestion: Suggest(key, version, own)}
	for _, o := range others {
		if _, ok := Lookup(version, o, key); ok {
			out.KnownFor = append(out.KnownFor, o)
		}
	}
	return out
}
