package loader

import (
	"regexp"
	"strings"

	"github.com/kafkalint/kafkalint/loader/doc"
	"github.com/kafkalint/kafkalint/loader/properties"
)

// propertiesFormat reads Java .properties files (loader/properties), a file
// at a time; what a file is (a server config, a client, a meta.properties,
// a MirrorMaker 2 config) its keys and name say (classify).
type propertiesFormat struct{}

func (propertiesFormat) name() string { return "properties" }

func (propertiesFormat) match(path string) bool { return hasSuffix(path, ".properties") }

func (propertiesFormat) perDir() bool { return false }

func (propertiesFormat) load(files []Input) []*Doc {
	var out []*Doc
	for _, f := range files {
		data, errDoc := readInput(f)
		if errDoc != nil {
			out = append(out, errDoc)
			continue
		}
		out = append(out, parseProperties(f.Display, data, f.data == nil))
	}
	return out
}

// parseProperties reads one .properties file and decides what it is;
// owned: the loader read data itself (not an in-memory source, whose
// bytes are the caller's), so nothing else holds it.
func parseProperties(file string, data []byte, owned bool) *Doc {
	read := properties.Read
	if owned {
		read = properties.ReadOwned
	}
	d, tooOften := read(file, data, MaxKeyRepeats)
	r := &Doc{Doc: d}
	if r.Err != nil {
		return r
	}
	r.Kind, r.ClientKind = classify(file, r)
	if conditional(r) {
		// A Jinja template repeats keys in {% if %}/{% else %} branches: only
		// one of them is rendered, so repetition is not duplication.
		r.Template, r.Duplicates = true, nil
	} else if tooOften != nil {
		// No File, as for a file that does not parse (properties.Read).
		return &Doc{Doc: doc.Doc{Err: tooOften}}
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
