package loader

import (
	"path"
	"strings"
	"sync"

	"github.com/kafkalint/kafkalint/loader/catalog"
)

// librdkafka (and the clients built on it: confluent-kafka-go, -python,
// -dotnet) reads a configuration of its own, not the Java client's:
// sasl.mechanisms, sasl.username, ssl.ca.location, queue.buffering.max.ms
// are right there. Its keys (librdkafka_keys.go) are never reported as
// unknown Java keys, and the Java catalog does not judge their values.

// isLibrdkafka reports a client configuration written for librdkafka: its
// file name says so ("librdkafka.config", "rdkafka.properties"), or it
// sets a key only librdkafka defines (librdkafkaMarkers).
func isLibrdkafka(r *Doc) bool {
	if strings.Contains(strings.ToLower(path.Base(r.File)), "rdkafka") {
		return true
	}
	markers := librdkafkaMarkers()
	for _, s := range r.Settings {
		if markers[s.Key] {
			return true
		}
	}
	return false
}

// librdkafkaMarkers are the librdkafka keys that tell a librdkafka config
// from a Java one: no cataloged Kafka release defines them for any kind
// of configuration, no 0.8-era Java client used them (librdkafka accepts
// those names too), and they are no near miss of a Java key, so a typo in
// a Java file (sasl.mechanisms for sasl.mechanism) is still reported
// there.
var librdkafkaMarkers = sync.OnceValue(func() map[string]bool {
	all := []string{catalog.Broker, catalog.Topic, catalog.Producer, catalog.Consumer, catalog.Admin}
	clients := []string{catalog.Producer, catalog.Consumer, catalog.Admin}
	versions := catalog.Versions()
	out := map[string]bool{}
	for k := range librdkafkaKeys {
		if _, legacy := catalog.LegacyClientKey(k); legacy || scalaClientKeys[k] || catalog.Suggest(k, catalog.Newest(), clients) != "" {
			continue
		}
		java := false
		for _, v := range versions {
			if catalog.DefinedIn(v, all, k) {
				java = true
				break
			}
		}
		if !java {
			out[k] = true
		}
	}
	return out
})

// scalaClientKeys are librdkafka keys the 0.8-era Scala clients read too
// (Kafka 0.8's config/producer.properties and consumer.properties): they
// mark no librdkafka config.
var scalaClientKeys = map[string]bool{
	"batch.num.messages": true, "fetch.message.max.bytes": true, "fetch.wait.max.ms": true,
	"message.send.max.retries": true, "queue.buffering.max.messages": true, "socket.timeout.ms": true,
	"topic.metadata.refresh.interval.ms": true,
}
