package loader

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Issue 16: a walked directory's *.config files are read when their
// content is a Kafka client config, and only then.
func TestWalkReadsClientConfigFiles(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "cloud/librdkafka.config", "# Confluent Cloud\nbootstrap.servers=pkc-1.example.com:9092\nsecurity.protocol=SASL_SSL\nsasl.mechanisms=PLAIN\nsasl.username=KEY\nsasl.password=SECRET\n")
	write(t, dir, "eventhubs/producer.config", "bootstrap.servers = ns.servicebus.windows.net:9093\nsecurity.protocol=SASL_SSL\nsasl.mechanism=PLAIN\nsasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required \\\n    username=\"$ConnectionString\" password=\"x\";\n")
	// Not Kafka client configs: XML, INI, settings without bootstrap.servers.
	write(t, dir, "web/web.config", "<configuration>\n  <appSettings>\n    <add key=\"bootstrap.servers\" value=\"b:9092\"/>\n  </appSettings>\n</configuration>\n")
	write(t, dir, "repo/git.config", "[core]\n\tbare = false\nbootstrap.servers=b:9092\n")
	write(t, dir, "app/app.config", "log.level=debug\nlisteners=8080\n")
	res := load(t, dir, Options{})
	var got []string
	for _, c := range res.Clusters {
		for _, f := range c.Files {
			got = append(got, f.Path+" "+f.Kind)
		}
	}
	want := []string{"cloud/librdkafka.config client", "eventhubs/producer.config client"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("files (-want +got):\n%s", diff)
	}
	if res.Files != 2 || res.Skipped != 0 || len(res.Errors) != 0 {
		t.Errorf("files %d, skipped %d, errors %v; want 2 read, none skipped (the others are no inputs)", res.Files, res.Skipped, res.Errors)
	}
}
