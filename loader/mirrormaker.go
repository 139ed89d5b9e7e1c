package loader

import (
	"cmp"
	"regexp"
	"slices"
	"strings"

	"github.com/kafkalint/kafkalint/loader/catalog"
)

// This file models a MirrorMaker 2 dedicated-mode configuration
// (mm2.properties) as cluster aliases and replication flows, the way
// MirrorMakerConfig reads it (connect/mirror MirrorMakerConfig): `clusters` lists the
// aliases; `{alias}.key` configures the clients and workers of one cluster;
// a top-level key is the default of every flow and `{source}->{target}.key`
// overrides it for one flow; a flow runs only when
// `{source}->{target}.enabled` reads as true with Boolean.parseBoolean.
//
// A Strimzi KafkaMirrorMaker2 resource maps onto the same keys: its
// clusters[].alias and bootstrapServers become `clusters` and
// `{alias}.bootstrap.servers`, each mirrors[] entry `{source}->{target}.enabled=true`
// plus its connectors' config as `{source}->{target}.key`.

// flowKeyParts matches {source}->{target}.{key}.
var flowKeyParts = regexp.MustCompile(`^([^.\s]+)->([^.\s]+)\.(.+)$`)

// splitFlowKey returns a flow key's aliases and the connector key it sets.
func splitFlowKey(key string) (source, target, base string, ok bool) {
	if !strings.Contains(key, "->") {
		return "", "", "", false // what the pattern needs: most keys are no flow's
	}
	m := flowKeyParts.FindStringSubmatch(key)
	if m == nil {
		return "", "", "", false
	}
	return m[1], m[2], m[3], true
}

// mirrorAliases are the aliases declared in clusters (when known), then
// those only flow keys name, in order of appearance.
func mirrorAliases(r *Doc) (aliases []string, declared map[string]bool) {
	declared = map[string]bool{}
	if s, ok := r.get("clusters"); ok && !isPlaceholder(s.Value) {
		for _, a := range splitList(s.Value) {
			if !declared[a] {
				declared[a] = true
				aliases = append(aliases, a)
			}
		}
	}
	for _, s := range r.Settings {
		if src, tgt, _, ok := splitFlowKey(s.Key); ok {
			for _, a := range []string{src, tgt} {
				if !slices.Contains(aliases, a) {
					aliases = append(aliases, a)
				}
			}
		}
	}
	return aliases, declared
}

// aliasPrefixed reports a {alias}.key cluster setting.
func aliasPrefixed(key string, aliases []string) bool {
	for _, a := range aliases {
		if strings.HasPrefix(key, a+".") {
			return true
		}
	}
	return false
}

// parseBoolean is Java's Boolean.parseBoolean, which MirrorMakerConfig uses
// for {source}->{target}.enabled: anything but "true" (any case) is false.
func parseBoolean(raw string) bool {
	return strings.EqualFold(strings.TrimSpace(raw), "true")
}

// connectorOverridePrefixes are per-flow key namespaces the MirrorMaker
// connectors pass on to their clients, converters, transformations and
// config providers rather than define themselves.
var connectorOverridePrefixes = []string{
	"source.", "target.", "consumer.", "producer.", "admin.", "offset-syncs.",
	"transforms.", "predicates.", "config.providers", "key.converter.", "value.converter.", "header.converter.",
}

// annotateMirror types flow keys by the connector key they set and, for a
// cataloged version, annotates every explicit key: connector keys at the
// top level or per flow are checked against the catalog's mirror scope;
// {alias}.* client and worker settings and connector client overrides are
// exempt; a top-level key the catalog does not know may be a Connect
// worker setting (not cataloged), so it is reported only as a near miss
// of a MirrorMaker key.
func annotateMirror(r *Doc, version string, settings map[string]*Setting) {
	aliases, _ := mirrorAliases(r)
	checked := catalog.Cataloged(version)
	scopes := []string{catalog.Mirror}
	for _, s := range settings {
		if s.Source != SourceExplicit {
			continue
		}
		src, tgt, base, isFlow := splitFlowKey(s.Key)
		if isFlow {
			retypeFlowSetting(s, version, base)
		}
		if !checked {
			continue
		}
		switch {
		case hasTemplate(s.Key):
			s.KeyStatus = KeyExempt
		case isFlow && definedIn(version, scopes, base):
			s.KeyStatus = KeyKnown
			if base != "enabled" {
				checkValue(s, base, version, scopes)
			}
		case isFlow && hasAnyPrefix(base, connectorOverridePrefixes):
			s.KeyStatus = KeyExempt
		case isFlow:
			classifyMissingAs(s, base, version, scopes)
			if s.KeyStatus == KeyUnknown {
				n := s.Notes()
				n.Suggestion = ""
				if c := catalog.ClosestKey(base, version, catalog.Mirror); c != "" {
					n.Suggestion = src + "->" + tgt + "." + c
				}
				s.setNotes(n)
			}
		case s.Key == "clusters":
			s.KeyStatus = KeyKnown
		case aliasPrefixed(s.Key, aliases):
			s.KeyStatus = KeyExempt
		case definedIn(version, scopes, s.Key):
			s.KeyStatus = KeyKnown
			checkValue(s, s.Key, version, scopes)
		default:
			classifyMissingAs(s, s.Key, version, scopes)
			if s.KeyStatus == KeyUnknown {
				n := s.Notes()
				n.Suggestion = catalog.ClosestKey(s.Key, version, catalog.Mirror, "clusters")
				if n.Suggestion == "" {
					s.KeyStatus, n.AddedIn = KeyExempt, ""
				}
				s.setNotes(n)
			}
		}
	}
}

// retypeFlowSetting types {source}->{target}.key by key's ConfigDef type;
// enabled is read with Boolean.parseBoolean and is never invalid.
func retypeFlowSetting(s *Setting, version, base string) {
	s.Type = typeOf(version, []string{catalog.Mirror}, base)
	s.markSecret()
	if s.Unknown {
		return
	}
	if base == "enabled" {
		s.Type, s.Value, s.Invalid = "boolean", parseBoolean(s.Raw), ""
		return
	}
	s.Value, s.Invalid = typedValue(s.Type, s.Raw)
}

func hasAnyPrefix(key string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(key, p) {
			return true
		}
	}
	return false
}

// classifyMissingAs is classifyMissing for a setting whose key sets another
// (a flow override sets its connector key).
func classifyMissingAs(s *Setting, key, version string, scopes []string) {
	probe := &Setting{Key: key}
	classifyMissing(probe, version, scopes, nil)
	n := s.Notes()
	n.RemovedAfter, n.AddedIn = probe.Notes().RemovedAfter, probe.Notes().AddedIn
	s.KeyStatus = probe.KeyStatus
	s.setNotes(n)
}

// buildMirror fills a MirrorMaker's location, aliases and flows from its
// doc and typed settings.
func buildMirror(mm *MirrorMaker, r *Doc) {
	mm.Loc = r.Loc
	if r.Format != "properties" {
		mm.Platform = r.Format
	}
	aliases, declared := mirrorAliases(r)
	clusters := mm.Settings["clusters"]
	mm.Aliases = []MirrorAlias{}
	for _, a := range aliases {
		ma := MirrorAlias{Name: a, Declared: declared[a], BootstrapServers: mm.Settings[a+".bootstrap.servers"], Loc: r.Loc}
		switch {
		case declared[a] && clusters != nil:
			ma.Loc = clusters.Loc
		default:
			if s := firstSetting(mm.Settings, func(k string) bool {
				src, tgt, _, ok := splitFlowKey(k)
				return ok && (src == a || tgt == a)
			}); s != nil {
				ma.Loc = s.Loc
			}
		}
		mm.Aliases = append(mm.Aliases, ma)
	}
	top := map[string]*Setting{}
	for k, s := range mm.Settings {
		if _, _, _, isFlow := splitFlowKey(k); !isFlow && !aliasPrefixed(k, aliases) && k != "clusters" {
			top[k] = s
		}
	}
	var pairs [][2]string
	addPair := func(src, tgt string) {
		if src != tgt && !slices.Contains(pairs, [2]string{src, tgt}) {
			pairs = append(pairs, [2]string{src, tgt})
		}
	}
	for _, a := range aliases {
		for _, b := range aliases {
			if declared[a] && declared[b] {
				addPair(a, b)
			}
		}
	}
	for _, s := range r.Settings {
		if src, tgt, _, ok := splitFlowKey(s.Key); ok {
			addPair(src, tgt)
		}
	}
	mm.Flows = []MirrorFlow{}
	for _, p := range pairs {
		prefix := p[0] + "->" + p[1] + "."
		f := MirrorFlow{Source: p[0], Target: p[1], Settings: map[string]*Setting{}, Loc: r.Loc}
		if clusters != nil {
			f.Loc = clusters.Loc
		}
		for k, s := range top {
			f.Settings[k] = s
		}
		for k, s := range mm.Settings {
			if base, ok := strings.CutPrefix(k, prefix); ok {
				f.Settings[base] = s
			}
		}
		if first := firstSetting(mm.Settings, func(k string) bool { return strings.HasPrefix(k, prefix) }); first != nil {
			f.Loc = first.Loc
		}
		if s := mm.Settings[prefix+"enabled"]; s != nil {
			f.EnabledSetting, f.Loc = s, s.Loc
			// MirrorMaker 2 only runs flows between aliases in clusters.
			f.Enabled = !s.Unknown && parseBoolean(s.Raw) && declared[p[0]] && declared[p[1]]
		}
		mm.Flows = append(mm.Flows, f)
	}
}

// firstSetting returns the explicit setting written first among the keys
// match accepts, or nil.
func firstSetting(settings map[string]*Setting, match func(string) bool) *Setting {
	var first *Setting
	for k, s := range settings {
		if s.Source != SourceExplicit || !match(k) {
			continue
		}
		if first == nil || cmp.Or(cmp.Compare(s.Loc.Line, first.Loc.Line), cmp.Compare(s.Key, first.Key)) < 0 {
			first = s
		}
	}
	return first
}
