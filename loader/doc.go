package loader

import (
	"slices"
	"strings"

	"github.com/kafkalint/kafkalint/loader/doc"
)

// Doc kinds.
const (
	KindNode        = doc.KindNode
	KindClient      = doc.KindClient
	KindMeta        = doc.KindMeta
	KindMirrorMaker = doc.KindMirrorMaker
	KindTopic       = doc.KindTopic
)

// Comment is a comment in a source file.
type Comment = doc.Comment

// Doc is what a format adapter found (loader/doc.Doc) with what the loader
// derives from it. Everything after the adapter (typing, defaults,
// grouping into clusters) is the same for all formats.
type Doc struct {
	doc.Doc
	// Topic is the model topic of a KindTopic doc, built from the
	// embedded doc's Topic (which it hides) when the doc is made.
	Topic *Topic

	env       string
	envSource string
	node      *Node  // version-independent structure, for grouping
	metaNode  string // a meta.properties: the node config it belongs to
	// held is what a unit's load keeps for its format's join (joiner);
	// such a doc is no doc of its own.
	held any
}

// newDocs takes what an adapter's format package returns.
func newDocs(ds []doc.Doc) []*Doc {
	out := make([]*Doc, len(ds))
	for i := range ds {
		out[i] = newDoc(ds[i])
	}
	return out
}

func newDoc(d doc.Doc) *Doc {
	r := &Doc{Doc: d}
	if t := d.Topic; t != nil {
		r.Topic = &Topic{Name: t.Name, Loc: t.Loc, ConfigUnknown: t.ConfigUnknown}
		source := SourceExplicit
		if t.FixedReplication {
			source = SourcePlatform
		}
		r.Topic.ReplicationFactor = topicSetting(t.ReplicationFactor, source)
		r.Topic.Partitions = topicSetting(t.Partitions, SourceExplicit)
		r.Doc.Topic = nil
	}
	return r
}

// topicSetting types a topic's replication factor or partition count; an
// unknown one keeps its expression.
func topicSetting(s *doc.Setting, source string) *Setting {
	if s == nil {
		return nil
	}
	if s.Unknown {
		t := &Setting{Key: s.Key, Raw: s.Value, Type: "int", Unknown: true, Source: source, Loc: s.Loc}
		t.setOrigin(s.Origin)
		return t
	}
	t := newSetting(s.Key, s.Value, "int", source, s.Loc)
	t.setOrigin(s.Origin)
	t.Sensitive = t.Sensitive || s.Sensitive
	return t
}

// failed is the doc of a file that cannot be read.
func failed(file, message string) *Doc {
	return &Doc{Doc: *doc.Failed(&Error{File: file, Message: message})}
}

// setEnvironment sets the environment of each doc from the first of its
// hints that word names one ("" when a hint names none).
func setEnvironment(docs []doc.Doc, word func(string) string) []doc.Doc {
	for i := range docs {
		d := &docs[i]
		for _, h := range d.EnvHints {
			if env := word(h.Value); env != "" {
				d.Environment, d.EnvironmentFrom = env, h.From
				break
			}
		}
	}
	return docs
}

func (r *Doc) get(key string) (doc.Setting, bool) {
	return r.Get(key)
}

func (r *Doc) has(key string) bool {
	_, ok := r.get(key)
	return ok
}

// prepare finishes a doc from any format: its environment and, for a
// node, the structure used for grouping.
func prepare(d *Doc, opts Options) {
	if d.Err != nil || d.Kind == "" {
		return
	}
	if d.Loc.File == "" {
		d.Loc = Location{File: d.File, Line: 1, Column: 1}
	}
	switch {
	case opts.Environment != "":
		d.env, d.envSource = opts.Environment, EnvFromFlag
	case d.Environment != "":
		d.env, d.envSource = d.Environment, EnvFromConfig
	case opts.EnvironmentOf != nil && opts.EnvironmentOf(absPath(d.File, opts.Dir)) != "":
		d.env, d.envSource = opts.EnvironmentOf(absPath(d.File, opts.Dir)), EnvFromConfig
	default:
		d.env, d.envSource = environmentOf(d.File, "")
	}
	if err := tooManyEntries(d); err != nil {
		d.Err = err
		return
	}
	if d.Kind == KindNode {
		d.node = buildNode(d)
	}
	// Comments serve only directives. Without one they would keep a bulk
	// tree's license headers and Kafka's documentation of every key (and,
	// as substrings, whole file texts) in memory for the whole run.
	if !slices.ContainsFunc(d.Comments, isDirective) {
		d.Comments = nil
	}
	for i := range d.SourceComments {
		if !slices.ContainsFunc(d.SourceComments[i].Comments, isDirective) {
			d.SourceComments[i].Comments = nil
		}
	}
}

// tooManyEntries refuses a doc whose list value has more than
// MaxListEntries entries: the rules compare a node's voters, listeners and
// endpoints with each other.
func tooManyEntries(d *Doc) *Error {
	for _, key := range listKeys {
		s, ok := d.get(key)
		if !ok || !pastEntries(s.Value, MaxListEntries) {
			continue
		}
		loc := s.Loc
		if loc.File == "" {
			loc = d.Loc
		}
		return doc.Errorf(loc, "%s has more than %d entries (the limit of entries of one list value)", key, MaxListEntries)
	}
	return nil
}

// pastEntries reports whether the LIST value v has more than n entries
// (as splitList counts them: blank ones dropped), without splitting it.
func pastEntries(v string, n int) bool {
	if strings.Count(v, ",") < n {
		return false
	}
	entries := 0
	for e := range strings.SplitSeq(v, ",") {
		if strings.TrimSpace(e) != "" {
			entries++
			if entries > n {
				return true
			}
		}
	}
	return false
}

// isPlaceholder reports a value that Kafka resolves at runtime (KIP-297
// config providers, ${file:...}, ${env:...}) or a template expression: the
// linter cannot know it.
func isPlaceholder(v string) bool {
	return strings.Contains(v, "${") || strings.Contains(v, "{{")
}
