package loader

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// clientKeyStatus loads dir and returns each client setting's key status,
// by file and key.
func clientKeyStatus(t *testing.T, dir string) map[string]string {
	t.Helper()
	got := map[string]string{}
	for _, c := range load(t, dir, Options{}).Clusters {
		for _, cl := range c.Clients {
			for k, s := range cl.Settings {
				if s.Source == SourceExplicit {
					got[cl.File+" "+k] = s.KeyStatus
				}
			}
		}
	}
	return got
}

// Issue 16: a librdkafka client configuration (a Confluent Cloud sample's
// shape, by its keys or by its name) is not judged as a Java client's;
// the same typo in a Java client's file still is.
func TestLibrdkafkaKeysAreNotUnknownJavaKeys(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "python/client.properties", "bootstrap.servers=pkc-1.example.com:9092\nsecurity.protocol=SASL_SSL\nsasl.mechanisms=PLAIN\nsasl.username=KEY\nsasl.password=SECRET\nsession.timeout.ms=45000\nauto.offset.reset=smallest\n")
	write(t, dir, "go/librdkafka-client.properties", "bootstrap.servers=pkc-1.example.com:9092\nsasl.mechanisms=PLAIN\n")
	write(t, dir, "java/client.properties", "bootstrap.servers=pkc-1.example.com:9092\nsasl.mechanisms=PLAIN\nsasl.jaas.config=x\n")
	got := clientKeyStatus(t, dir)
	want := map[string]string{
		"python/client.properties bootstrap.servers":        KeyExempt,
		"python/client.properties security.protocol":        KeyExempt,
		"python/client.properties sasl.mechanisms":          KeyExempt,
		"python/client.properties sasl.username":            KeyExempt,
		"python/client.properties sasl.password":            KeyExempt,
		"python/client.properties session.timeout.ms":       KeyExempt,
		"python/client.properties auto.offset.reset":        KeyExempt,
		"go/librdkafka-client.properties bootstrap.servers": KeyExempt,
		"go/librdkafka-client.properties sasl.mechanisms":   KeyExempt,
		"java/client.properties bootstrap.servers":          KeyKnown,
		"java/client.properties sasl.mechanisms":            KeyUnknown,
		"java/client.properties sasl.jaas.config":           KeyKnown,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("key status (-want +got):\n%s", diff)
	}
}

// The markers are librdkafka keys no Kafka release defines for Java, so a
// Java file is never taken for a librdkafka one by a key Java reads.
func TestLibrdkafkaMarkers(t *testing.T) {
	m := librdkafkaMarkers()
	for _, k := range []string{"sasl.username", "ssl.ca.location", "debug", "enable.partition.eof"} {
		if !m[k] {
			t.Errorf("%s is not a marker", k)
		}
	}
	for _, k := range []string{"sasl.mechanisms", "bootstrap.servers", "acks", "queue.buffering.max.ms", "batch.num.messages"} {
		if m[k] {
			t.Errorf("%s is a marker: a Java or 0.8 client file may hold it", k)
		}
	}
}
