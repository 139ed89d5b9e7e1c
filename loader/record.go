package loader

import (
	"regexp"
	"slices"
	"strings"

	"github.com/kafkalint/kafkalint/loader/properties"
)

// Record kinds.
const (
	KindNode        = "node"
	KindClient      = "client"
	KindMeta        = "meta"
	KindMirrorMaker = "mirrormaker"
)

// rawSetting is a key as written, before typing.
type rawSetting struct {
	key, value string
	loc        Location
}

// record is one file's contribution, format-independent, before it is
// grouped into a cluster and typed for the cluster's Kafka version.
type record struct {
	err        *Error
	kind       string
	format     string
	file       string
	env        string
	envSource  string
	settings   []rawSetting // last value of each key, in file order
	duplicates []Duplicate
	clientKind string

	// Filled for nodes (version-independent structure used for grouping).
	node *Node
}

func (r *record) get(key string) (rawSetting, bool) {
	for _, s := range r.settings {
		if s.key == key {
			return s, true
		}
	}
	return rawSetting{}, false
}

func (r *record) has(key string) bool {
	_, ok := r.get(key)
	return ok
}

func parseProperties(file string, data []byte, opts Options) *record {
	pf, err := properties.Parse(data)
	if err != nil {
		line := 1
		msg := err.Error()
		if pe, ok := err.(*properties.Error); ok {
			line, msg = pe.Line, pe.Msg
		}
		return &record{err: &Error{File: file, Line: line, Message: "invalid properties file: " + msg}}
	}
	r := &record{format: "properties", file: file}
	r.env, r.envSource = environmentOf(file, opts.Environment)
	last := map[string]int{}
	var earlier = map[string][]Location{}
	for _, e := range pf.Entries {
		loc := Location{File: file, Line: e.Line, Column: e.Column}
		if i, ok := last[e.Key]; ok {
			prev := r.settings[i]
			earlier[e.Key] = append(earlier[e.Key], prev.loc)
			r.duplicates = append(r.duplicates, Duplicate{Key: e.Key, Loc: loc, Previous: slices.Clone(earlier[e.Key])})
			r.settings[i] = rawSetting{key: e.Key, value: e.Value, loc: loc}
			continue
		}
		last[e.Key] = len(r.settings)
		r.settings = append(r.settings, rawSetting{key: e.Key, value: e.Value, loc: loc})
	}
	r.kind, r.clientKind = classify(file, r)
	if r.kind == KindNode {
		r.node = buildNode(r)
	}
	return r
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
// meta.properties is recognised by name or by holding only its own keys; a
// MirrorMaker 2 file by `clusters` plus a flow key; a server config by any
// node key (zookeeper.connect only without group.id, which 0.8 consumers
// used with it); a client by its keys or, failing that, by a file name that
// says producer, consumer, admin or client.
func classify(file string, r *record) (kind, clientKind string) {
	base := strings.ToLower(file[strings.LastIndex(file, "/")+1:])
	if base == "meta.properties" || strings.HasSuffix(base, "__meta.properties") {
		return KindMeta, ""
	}
	if len(r.settings) > 0 && r.has("cluster.id") && allKeysIn(r, metaKeys) {
		return KindMeta, ""
	}
	if r.has("clusters") {
		for _, s := range r.settings {
			if flowKeyRE.MatchString(s.key) {
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

func anyKey(r *record, keys []string) bool {
	for _, k := range keys {
		if r.has(k) {
			return true
		}
	}
	return false
}

func allKeysIn(r *record, set map[string]bool) bool {
	for _, s := range r.settings {
		if !set[s.key] {
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
