package loader

import (
	"slices"
	"strings"

	"github.com/kafkalint/kafkalint/loader/catalog"
)

// This file checks explicit settings against Kafka's configuration
// catalog: whether the key is known for the unit's kind in the cluster's
// Kafka version (else removed, unknown with a did-you-mean suggestion, or
// exempt because a plugin or a prefix reads it), and whether the value is
// one the key's validator accepts. The verdicts are annotations on Setting
// (KeyStatus, Suggestion, KnownFor, AddedIn, RemovedAfter, Invalid); the
// rules only read them. What the catalog alone decides (a key's status
// across releases, did-you-mean, validators) is in package catalog; this
// file holds what depends on the unit (its kind, format and platform).

// Key statuses (Setting.KeyStatus).
const (
	KeyKnown   = catalog.StatusKnown
	KeyUnknown = catalog.StatusUnknown
	KeyRemoved = catalog.StatusRemoved
	// KeyExempt: the catalog cannot judge the key (a plugin or a prefix
	// reads it, it is a template): the loader decides, not the catalog.
	KeyExempt = "exempt"
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
	librdkafka := r.Kind == KindClient && isLibrdkafka(r)
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
		case hasTemplate(s.Key), librdkafka && librdkafkaKeys[s.Key]:
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
	return catalog.DefinedIn(version, scopes, key)
}

// classifyMissing annotates a key the cluster's version does not define for
// the unit's kind with the catalog's verdict (catalog.Classify).
func classifyMissing(s *Setting, version string, own, others []string) {
	v := catalog.Classify(version, s.Key, own, others)
	s.KeyStatus = v.Status
	if v.Status == KeyKnown {
		return
	}
	s.setNotes(KeyNotes{RemovedAfter: v.RemovedAfter, AddedIn: v.AddedIn, Suggestion: v.Suggestion, KnownFor: v.KnownFor})
}

func clientReportable(s *Setting) bool {
	_, legacy := catalog.LegacyClientKey(s.Key)
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
	if s.Invalid != "" {
		s.Invalid = catalog.ParseFailure(s.Type)
		return
	}
	k, _ := catalog.LookupIn(version, scopes, key)
	if reason := k.Check(s.Value); reason != "" {
		s.Value, s.Invalid = nil, reason
	}
}
