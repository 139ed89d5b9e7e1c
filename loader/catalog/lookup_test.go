package catalog

import (
	"slices"
	"sort"
	"testing"
)

// TestLookupAsBinarySearch: lookup's index finds, for every cataloged
// version and scope, each name and a few absent ones where a binary search
// of the span's sorted names does; asked in turn for other versions and
// scopes and through patch releases, as the version kept from the last
// lookup must follow.
func TestLookupAsBinarySearch(t *testing.T) {
	for _, s := range spans {
		if !slices.IsSorted(names[s.lo:s.hi]) {
			t.Fatalf("%s %s: names not sorted", s.version, s.scope)
		}
		keys := append(slices.Clone(names[s.lo:s.hi]), "", "no.such.key", "~")
		for _, key := range keys {
			i := s.lo + sort.SearchStrings(names[s.lo:s.hi], key)
			want, wantOK := i, i < s.hi && names[i] == key
			for _, version := range []string{s.version, s.version + ".9"} { // a patch release resolves to its line
				got, ok := lookup(version, s.scope, key)
				if ok != wantOK || ok && got != want {
					t.Fatalf("lookup(%s, %s, %q) = %d, %v; want %d, %v", version, s.scope, key, got, ok, want, wantOK)
				}
			}
		}
	}
	if _, ok := lookup(Newest(), "no such scope", "acks"); ok {
		t.Error("a scope the catalog lacks has keys")
	}
	if _, ok := lookup(Newest()+".7", Producer, "acks"); !ok {
		t.Error("a patch release does not resolve to its release line")
	}
}
