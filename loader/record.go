package loader

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unique"

	"github.com/kafkalint/kafkalint/loader/properties"
)

// Doc kinds.
const (
	KindNode        = "node"
	KindClient      = "client"
	KindMeta        = "meta"
	KindMirrorMaker = "mirrormaker"
	KindTopic       = "topic"
)

// RawSetting is a key as a format adapter found it, before typing.
type RawSetting struct {
	Key   string
	Value string
	Loc   Location
	// Unknown marks a value the adapter could not resolve statically (a
	// Terraform data source, an unset ${VAR}); Expr is its source text.
	Unknown bool
	Expr    string
	// Origin names the source field the value is written in or follows
	// from when that is not the Kafka key itself (Strimzi
	// "spec.kafka.config", a Helm chart key, a compose variable).
	Origin string // Sensitive: the source declares the value sensitive (a Terraform
	// variable with sensitive = true, or a value derived from one).
	Sensitive bool
}

// Comment is a comment in a source file.
type Comment struct {
	Line int
	Text string // without the comment marker
	// Trailing: the comment follows code on its line (YAML, HCL); in
	// .properties a '#' after a value is part of the value, so never.
	Trailing bool
}

// Doc is one unit of Kafka configuration found in a source: a server
// config, a client, a meta.properties, a MirrorMaker 2 config or a topic.
// Every format adapter produces Docs; everything after that (typing,
// defaults, grouping into clusters) is the same for all formats.
type Doc struct {
	Err        *Error
	Kind       string
	ClientKind string // producer | consumer | admin | client
	Format     string // properties, terraform, strimzi, helm, compose, ...
	// Template: a Jinja template ({% if %} lines read as keys), not the
	// text Kafka reads, which is rendered from it.
	Template bool
	File     string // display path
	// Name names the unit inside its file (a resource, CR or service);
	// empty for a properties file.
	Name string
	// Loc is where the unit starts (resource block, YAML document, service);
	// zero means line 1 of File. Findings about missing keys point here.
	Loc        Location
	Settings   []RawSetting // the last value of each key, in source order
	Duplicates []Duplicate
	// Environment, when the source states it (a tag, a namespace), wins
	// over the path; EnvironmentFrom names where it came from.
	Environment     string
	EnvironmentFrom string
	// Group links docs that belong to one cluster whatever their files
	// (a Strimzi cluster name, an MSK cluster resource, a compose project).
	Group string
	// KafkaVersion is the cluster's version when the source states it.
	KafkaVersion *Count
	// BrokerCount and ControllerCount are cluster sizes known for certain.
	BrokerCount     *Count
	ControllerCount *Count
	// Replicas: this node doc stands for that many identical nodes (a
	// Strimzi node pool, a Helm replicaCount, compose deploy.replicas).
	Replicas *Count
	// QuorumManaged: the platform maintains the controller quorum itself,
	// so the config holds no quorum keys by design.
	QuorumManaged bool
	// ManagedKeys are keys the platform sets itself.
	ManagedKeys []string
	// Ignored are keys the source writes that the platform drops before
	// Kafka reads them (Strimzi's forbidden spec.kafka.config keys): they
	// never take effect, so they are not Settings.
	Ignored []RawSetting
	// Platform holds a managed platform's own attributes of the cluster
	// (MSK encryption_info, client_authentication, broker_node_group_info,
	// flattened to dotted paths), for security rules.
	Platform []RawSetting
	// Topic is set for KindTopic.
	Topic *Topic
	// Comments are the comment lines of the source file (for inline
	// directives such as `# kafkalint:ignore`); every doc of a file may
	// carry the same list. They serve only directives: prepare drops them
	// from a doc that has none.
	Comments []Comment

	env       string
	envSource string
	node      *Node  // version-independent structure, for grouping
	metaNode  string // a meta.properties: the node config it belongs to
}

func (r *Doc) get(key string) (RawSetting, bool) {
	for _, s := range r.Settings {
		if s.Key == key {
			return s, true
		}
	}
	return RawSetting{}, false
}

func (r *Doc) has(key string) bool {
	_, ok := r.get(key)
	return ok
}

func parseProperties(file string, data []byte) *Doc {
	pf, err := properties.Parse(data)
	if err != nil {
		line := 1
		msg := err.Error()
		var pe *properties.Error
		if errors.As(err, &pe) {
			line, msg = pe.Line, pe.Msg
		}
		return &Doc{Err: &Error{File: file, Line: line, Message: "invalid properties file: " + msg}}
	}
	r := &Doc{Format: "properties", File: file}
	for _, c := range pf.Comments {
		r.Comments = append(r.Comments, Comment{Line: c.Line, Text: c.Text})
	}
	last := map[string]int{}
	earlier := map[string][]Location{}
	repeated := map[string]int{}
	tooOften := -1 // the entry past MaxKeyRepeats, if any
	for i, e := range pf.Entries {
		// Keys and values are substrings of the whole file text, comments
		// included; copy them so that text is not kept for the whole run
		// (keys interned: a bulk tree repeats the same few thousand).
		e.Key, e.Value = unique.Make(e.Key).Value(), strings.Clone(e.Value)
		loc := Location{File: file, Line: e.Line, Column: e.Column}
		if j, ok := last[e.Key]; ok {
			repeated[e.Key]++
			if repeated[e.Key] == MaxKeyRepeats && tooOften < 0 {
				tooOften = i
			}
			// Each duplicate lists every earlier occurrence: they share
			// one growing array (a full slice expression keeps a later
			// append from writing into an earlier duplicate's list), so
			// memory stays linear in the entries.
			prev := earlier[e.Key]
			if len(prev) == 0 {
				prev = append(prev, r.Settings[j].Loc)
			}
			r.Duplicates = append(r.Duplicates, Duplicate{Key: e.Key, Loc: loc, Previous: prev[:len(prev):len(prev)]})
			earlier[e.Key] = append(prev, loc)
			r.Settings[j] = RawSetting{Key: e.Key, Value: e.Value, Loc: loc}
			continue
		}
		last[e.Key] = len(r.Settings)
		r.Settings = append(r.Settings, RawSetting{Key: e.Key, Value: e.Value, Loc: loc})
	}
	r.Kind, r.ClientKind = classify(file, r)
	if conditional(r) {
		// A Jinja template repeats keys in {% if %}/{% else %} branches: only
		// one of them is rendered, so repetition is not duplication.
		r.Template, r.Duplicates = true, nil
	} else if tooOften >= 0 {
		e := pf.Entries[tooOften]
		return &Doc{Err: &Error{File: file, Line: e.Line, Message: fmt.Sprintf(
			"invalid properties file: key %s is set more than %d times (the limit of repetitions of one key)", properties.Quote(e.Key), MaxKeyRepeats)}}
	}
	return r
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
		return &Error{File: loc.File, Line: loc.Line, Message: fmt.Sprintf(
			"%s has more than %d entries (the limit of entries of one list value)", key, MaxListEntries)}
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

var nodeKeys = []string{"process.roles", "node.id", "broker.id", "listeners", "log.dirs", "log.dir"}

var metaKeys = map[string]bool{"version": true, "cluster.id": true, "node.id": true, "broker.id": true, "directory.id": true}

var flowKeyRE = regexp.MustCompile(`^[^.\s]+->[^.\s]+\.`)

// producerKeys and consumerKeys mark a client's role; the 0.8-era names
// (metadata.broker.list, producer.type, serializer.class) are included.
var producerKeys = []string{"acks", "key.serializer", "value.serializer", "enable.idempotence", "transactional.id", "linger.ms", "batch.size", "max.in.flight.requests.per.connection", "compression.type", "delivery.timeout.ms", "buffer.memory", "metadata.broker.list", "producer.type", "serializer.class", "request.required.acks"}

var consumerKeys = []string{"group.id", "key.deserializer", "value.deserializer", "auto.offset.reset", "enable.auto.commit", "isolation.level", "fetch.min.bytes", "max.poll.records", "session.timeout.ms"}

// clientKeys are connection settings every client kind uses (and a
// Confluent cluster link's link.mode).
var clientKeys = []string{"bootstrap.servers", "security.protocol", "sasl.mechanism", "sasl.jaas.config", "client.id", "interceptor.classes", "ssl.truststore.location", "ssl.keystore.location", "link.mode"}

// classify decides what a properties file is. Order matters: a
// meta.properties is recognized by name or by holding only its own keys; a
// MirrorMaker 2 file by `clusters` plus a flow key; a server config by any
// node key (zookeeper.connect only without group.id, which 0.8 consumers
// used with it); a client by its keys or, failing that, by a file name that
// says producer, consumer, admin or client.
func classify(file string, r *Doc) (kind, clientKind string) {
	base := strings.ToLower(file[strings.LastIndex(file, "/")+1:])
	if base == "meta.properties" || strings.HasSuffix(base, "__meta.properties") {
		return KindMeta, ""
	}
	if len(r.Settings) > 0 && r.has("cluster.id") && allKeysIn(r, metaKeys) {
		return KindMeta, ""
	}
	if r.has("clusters") {
		for _, s := range r.Settings {
			if flowKeyRE.MatchString(s.Key) {
				return KindMirrorMaker, ""
			}
		}
	}
	if anyKey(r, nodeKeys) || (r.has("zookeeper.connect") && !r.has("group.id")) {
		return KindNode, ""
	}
	isProducer, isConsumer := anyKey(r, producerKeys), anyKey(r, consumerKeys)
	switch {
	case isProducer && !isConsumer:
		return KindClient, "producer"
	case isConsumer && !isProducer:
		return KindClient, "consumer"
	case isProducer && isConsumer:
		return KindClient, "client"
	}
	named := ""
	for _, k := range []string{"producer", "consumer", "admin", "client"} {
		if strings.Contains(base, k) {
			named = k
			break
		}
	}
	switch {
	case anyKey(r, clientKeys) && (named == "" || named == "client"):
		return KindClient, "client"
	case named != "":
		return KindClient, named
	}
	return "", ""
}

func anyKey(r *Doc, keys []string) bool {
	for _, k := range keys {
		if r.has(k) {
			return true
		}
	}
	return false
}

func allKeysIn(r *Doc, set map[string]bool) bool {
	for _, s := range r.Settings {
		if !set[s.Key] {
			return false
		}
	}
	return true
}

// isPlaceholder reports a value that Kafka resolves at runtime (KIP-297
// config providers, ${file:...}, ${env:...}) or a template expression: the
// linter cannot know it.
func isPlaceholder(v string) bool {
	return strings.Contains(v, "${") || strings.Contains(v, "{{")
}
