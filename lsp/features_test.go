package lsp

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/kafkalint/kafkalint/loader/catalog"
)

func pos(line, char int) map[string]any { return map[string]any{"line": line, "character": char} }

// ready is a client whose workspace has been linted with the buffer
// open and edited to hold a misspelled key on line 7.
func ready(t *testing.T) *client {
	t.Helper()
	c := start(t, time.Millisecond, map[string]string{"prod/server.properties": broker})
	c.initialize()
	open(c, "prod/server.properties", broker)
	c.nextDiagnostics()
	change(c, "prod/server.properties", broker+"log.retention.hour=5\ncompression.type=zs\n", 2)
	c.nextDiagnostics()
	return c
}

func TestHoverKey(t *testing.T) {
	c := ready(t)
	got := c.call("textDocument/hover", map[string]any{"textDocument": doc(c.uri("prod/server.properties")), "position": pos(4, 3)})
	want := `{"contents":{"kind":"markdown","value":"**controlled.shutdown.enable** — broker configuration, Kafka 4.3\n\n- type: boolean\n- default: ` +
		"`true`" + `\n\n[Kafka 4.3 documentation](https://kafka.apache.org/43/documentation.html#brokerconfigs_controlled.shutdown.enable)\n"}}`
	if got != want {
		t.Errorf("hover:\n got %s\nwant %s", got, want)
	}
	// On the value, not the key: no key documentation, and no finding there.
	if got := c.call("textDocument/hover", map[string]any{"textDocument": doc(c.uri("prod/server.properties")), "position": pos(4, 29)}); got != "null" {
		t.Errorf("hover on a value = %s, want null", got)
	}
}

func TestHoverFinding(t *testing.T) {
	c := ready(t)
	got := c.call("textDocument/hover", map[string]any{"textDocument": doc(c.uri("prod/server.properties")), "position": pos(6, 19)})
	for _, want := range []string{
		`**KFK9004** unknown-key (warning)`,
		`did you mean log.retention.hours?`,
		`**Why:** `,             // the finding's why (its rule's description)
		`# KFK9004 unknown-key`, // the rule's page
	} {
		if !strings.Contains(got, want) {
			t.Errorf("hover on the finding lacks %q:\n%s", want, got)
		}
	}
}

func TestCompletion(t *testing.T) {
	c := ready(t)
	uri := c.uri("prod/server.properties")
	got := c.call("textDocument/completion", map[string]any{"textDocument": doc(uri), "position": pos(7, 19)})
	want := `[{"label":"zstd","kind":20,"textEdit":{"range":{"start":{"line":7,"character":17},"end":{"line":7,"character":19}},"newText":"zstd"}}]`
	if got != want {
		t.Errorf("value completion:\n got %s\nwant %s", got, want)
	}
	got = c.call("textDocument/completion", map[string]any{"textDocument": doc(uri), "position": pos(4, 25)})
	if !strings.HasPrefix(got, `[{"label":"controlled.shutdown.enable","kind":10,"detail":"boolean","documentation":{"kind":"markdown","value":"**controlled.shutdown.enable**`) ||
		!strings.Contains(got, `"textEdit":{"range":{"start":{"line":4,"character":0},"end":{"line":4,"character":25}},"newText":"controlled.shutdown.enable"}`) {
		t.Errorf("key completion of controlled.shutdown.:\n%s", got)
	}
}

func TestCodeActions(t *testing.T) {
	c := ready(t)
	uri := c.uri("prod/server.properties")
	got := c.call("textDocument/codeAction", map[string]any{
		"textDocument": doc(uri), "range": map[string]any{"start": pos(6, 0), "end": pos(6, 0)},
		"context": map[string]any{"diagnostics": []any{}},
	})
	u := `"` + uri + `"`
	want := `[{"title":"Replace log.retention.hour with log.retention.hours","kind":"quickfix","edit":{"changes":{` + u + `:[{"range":{"start":{"line":6,"character":0},"end":{"line":6,"character":18}},"newText":"log.retention.hours"}]}}},` +
		`{"title":"Ignore KFK9004 on this line (kafkalint:ignore)","kind":"quickfix","edit":{"changes":{` + u + `:[{"range":{"start":{"line":6,"character":0},"end":{"line":6,"character":0}},"newText":"# kafkalint:ignore KFK9004 -- reason\n"}]}}}]`
	if got != want {
		t.Errorf("code actions:\n got %s\nwant %s", got, want)
	}
}

func TestKeyAt(t *testing.T) {
	for _, tc := range []struct {
		file, line string
		at         int
		want       string
	}{
		{"server.properties", "log.retention.hours=168", 3, "log.retention.hours"},
		{"server.properties", "log.retention.hours=168", 21, ""}, // on the value
		{"strimzi/kafka.yaml", "      log.retention.hours: 168", 8, "log.retention.hours"},
		{"docker-compose.yml", "      KAFKA_CFG_LOG_RETENTION_HOURS: \"168\"", 10, "log.retention.hours"},
		{"docker-compose.yml", "      - KAFKA_LOG_RETENTION_HOURS=168", 12, "log.retention.hours"},
		{"docker-compose.yml", "      KAFKA_CONFLUENT_SUPPORT__METRICS___X: 1", 8, "confluent.support_metrics-x"},
		{"main.tf", "    auto.create.topics.enable=true", 6, "auto.create.topics.enable"},
		{"main.tf", `    "cleanup.policy" = "compact"`, 6, "cleanup.policy"},
		{"main.tf", "  server_properties = <<-EOT", 30, ""},
	} {
		got, ok := keyAt(tc.file, tc.line, tc.at)
		if !ok {
			got = ""
		}
		if got != tc.want {
			t.Errorf("keyAt(%s, %q, %d) = %q, want %q", tc.file, tc.line, tc.at, got, tc.want)
		}
	}
}

func TestHoverCompose(t *testing.T) {
	compose := "services:\n  kafka:\n    image: bitnami/kafka:3.9\n    environment:\n      KAFKA_CFG_AUTO_CREATE_TOPICS_ENABLE: \"true\"\n"
	c := start(t, time.Millisecond, map[string]string{"dev/docker-compose.yml": compose})
	c.initialize()
	got := c.call("textDocument/hover", map[string]any{"textDocument": doc(c.uri("dev/docker-compose.yml")), "position": pos(4, 10)})
	want := `{"contents":{"kind":"markdown","value":"**auto.create.topics.enable** — broker configuration, Kafka 4.3\n\n- type: boolean\n- default: ` +
		"`true`" + `\n\n[Kafka 4.3 documentation](https://kafka.apache.org/43/documentation.html#brokerconfigs_auto.create.topics.enable)\n"}}`
	if got != want {
		t.Errorf("hover:\n got %s\nwant %s", got, want)
	}
}

func TestCodeActionRemovedKey(t *testing.T) {
	c := start(t, time.Millisecond, map[string]string{"prod/server.properties": broker + "log.message.format.version=3.0\n"})
	c.initialize()
	c.notify("initialized", map[string]any{})
	if d := c.nextDiagnostics(); !strings.Contains(d, `"code":"KFK9006"`) {
		t.Fatalf("no removed-key finding: %s", d)
	}
	uri := c.uri("prod/server.properties")
	got := c.call("textDocument/codeAction", map[string]any{
		"textDocument": doc(uri), "range": map[string]any{"start": pos(6, 3), "end": pos(6, 3)},
		"context": map[string]any{"diagnostics": []any{}},
	})
	want := `{"title":"Remove log.message.format.version (removed from Kafka)","kind":"quickfix","edit":{"changes":{"` + uri +
		`":[{"range":{"start":{"line":6,"character":0},"end":{"line":7,"character":0}},"newText":""}]}}}`
	if !strings.HasPrefix(got, "["+want+",") {
		t.Errorf("code actions:\n got %s\nwant first %s", got, want)
	}
}

// complete asks for completion at (line, char) of name holding text, on
// a server that has not linted yet (the newest release is the target).
func complete(t *testing.T, name, text string, line, char int) string {
	t.Helper()
	c := start(t, time.Hour, map[string]string{name: text})
	c.initialize()
	return c.call("textDocument/completion", map[string]any{"textDocument": doc(c.uri(name)), "position": pos(line, char)})
}

// keyItem is the exact completion item of one key, written as label,
// replacing the characters from start to end of line.
func keyItem(t *testing.T, label, key, scope, detail string, line, start, end int) string {
	t.Helper()
	d, err := json.Marshal(keyDoc(key, catalog.Newest(), []string{scope}))
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf(`[{"label":%q,"kind":10,"detail":%q,"documentation":{"kind":"markdown","value":%s},`+
		`"textEdit":{"range":{"start":{"line":%d,"character":%d},"end":{"line":%d,"character":%d}},"newText":%q}}]`,
		label, detail, d, line, start, line, end, label)
}

// valueItem is the exact completion of one value from start to end.
func valueItem(v string, line, start, end int) string {
	return fmt.Sprintf(`[{"label":%q,"kind":20,"textEdit":{"range":{"start":{"line":%d,"character":%d},"end":{"line":%d,"character":%d}},"newText":%q}}]`,
		v, line, start, line, end, v)
}

func TestCompletionFormats(t *testing.T) {
	strimzi := "apiVersion: kafka.strimzi.io/v1beta2\nkind: Kafka\nspec:\n  kafka:\n    config:\n      auto.create.topics.en\n      compression.type: \"zs\n" +
		"  zookeeper:\n    config:\n      auto.create.topics.en\n"
	topic := "apiVersion: kafka.strimzi.io/v1beta2\nkind: KafkaTopic\nspec:\n  config:\n    cleanup.pol\n    cleanup.policy: com\n"
	helm := "controller:\n  overrideConfiguration:\n    auto.create.topics.en\nextraConfig: |\n  compression.type=zs\nimage:\n  auto.create.topics.en\n"
	bitnami := "services:\n  kafka:\n    image: bitnami/kafka:3.9\n    environment:\n      KAFKA_CFG_AUTO_CREATE_TOPICS_E\n      KAFKA_CFG_COMPRESSION_TYPE: \"zs\n"
	apache := "services:\n  kafka:\n    image: apache/kafka:3.9.0\n    environment:\n      - KAFKA_AUTO_CREATE_TOPICS_E\n      - KAFKA_COMPRESSION_TYPE=zs\n    KAFKA_AUTO_CREATE_TOPICS_E\n"
	topicTF := "resource \"kafka_topic\" \"t\" {\n  name = \"${var.name}\"\n  config = {\n    \"cleanup.pol\n    \"cleanup.policy\" = \"d\n  }\n  cleanup.pol\n}\n"
	mm2 := "kind: KafkaMirrorMaker2\nspec:\n  mirrors:\n    - sourceConnector:\n        config:\n          sync.group.offsets.en\n"
	msk := "resource \"aws_msk_configuration\" \"c\" {\n  server_properties = <<-EOT\n    auto.create.topics.en\n    compression.type=zs\n  EOT\n  auto.create.topics.en\n}\n"
	for _, tc := range []struct {
		name, file, text string
		line, char       int
		want             string
	}{
		{"strimzi key", "strimzi/kafka.yaml", strimzi, 5, 27, keyItem(t, "auto.create.topics.enable", "auto.create.topics.enable", "broker", "boolean", 5, 6, 27)},
		{"strimzi value", "strimzi/kafka.yaml", strimzi, 6, 27, valueItem("zstd", 6, 25, 27)},
		{"zookeeper config", "strimzi/kafka.yaml", strimzi, 9, 27, "null"},
		{"topic key", "strimzi/topic.yaml", topic, 4, 15, keyItem(t, "cleanup.policy", "cleanup.policy", "topic", "list", 4, 4, 15)},
		{"topic value", "strimzi/topic.yaml", topic, 5, 23, valueItem("compact", 5, 20, 23)},
		{"kafka beside a topic", "strimzi/all.yaml", topic + "---\n" + strimzi, 12, 27,
			keyItem(t, "auto.create.topics.enable", "auto.create.topics.enable", "broker", "boolean", 12, 6, 27)},
		{"helm map key", "chart/values.yaml", helm, 2, 25, keyItem(t, "auto.create.topics.enable", "auto.create.topics.enable", "broker", "boolean", 2, 4, 25)},
		{"helm block value", "chart/values.yaml", helm, 4, 21, valueItem("zstd", 4, 19, 21)},
		{"helm other map", "chart/values.yaml", helm, 6, 23, "null"},
		{"bitnami env key", "dev/docker-compose.yml", bitnami, 4, 36,
			keyItem(t, "KAFKA_CFG_AUTO_CREATE_TOPICS_ENABLE", "auto.create.topics.enable", "broker", "auto.create.topics.enable (boolean)", 4, 6, 36)},
		{"bitnami env value", "dev/docker-compose.yml", bitnami, 5, 37, valueItem("zstd", 5, 35, 37)},
		{"apache env key", "dev/docker-compose.yml", apache, 4, 34,
			keyItem(t, "KAFKA_AUTO_CREATE_TOPICS_ENABLE", "auto.create.topics.enable", "broker", "auto.create.topics.enable (boolean)", 4, 8, 34)},
		{"apache env value", "dev/docker-compose.yml", apache, 5, 33, valueItem("zstd", 5, 31, 33)},
		{"outside environment", "dev/docker-compose.yml", apache, 6, 30, "null"},
		{"mirror connector key", "strimzi/mm2.yaml", mm2, 5, 31,
			keyItem(t, "sync.group.offsets.enabled", "sync.group.offsets.enabled", "mirror", "boolean", 5, 10, 31)},
		{"msk key", "msk/main.tf", msk, 2, 25, keyItem(t, "auto.create.topics.enable", "auto.create.topics.enable", "broker", "boolean", 2, 4, 25)},
		{"msk value", "msk/main.tf", msk, 3, 23, valueItem("zstd", 3, 21, 23)},
		{"topic config key", "topics/main.tf", topicTF, 3, 15, keyItem(t, "cleanup.policy", "cleanup.policy", "topic", "list", 3, 5, 15)},
		{"topic config value", "topics/main.tf", topicTF, 4, 25, valueItem("delete", 4, 24, 25)},
		{"topic resource body", "topics/main.tf", topicTF, 6, 14, "null"},
		{"after the heredoc", "msk/main.tf", msk, 5, 23, "null"},
		{".env value", "dev/.env", "KAFKA_CFG_AUTO_CREATE_TOPICS_ENABLE=f\n", 0, 37, valueItem("false", 0, 36, 37)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := complete(t, tc.file, tc.text, tc.line, tc.char); got != tc.want {
				t.Errorf("completion at %d:%d:\n got %s\nwant %s", tc.line, tc.char, got, tc.want)
			}
		})
	}
}

// TestCodeActionReplaceInYAML: the did-you-mean quick fix also replaces a
// misspelled key where a YAML file writes it (Strimzi spec.kafka.config).
func TestCodeActionReplaceInYAML(t *testing.T) {
	const kafka = `apiVersion: kafka.strimzi.io/v1beta2
kind: Kafka
metadata:
  name: c
spec:
  kafka:
    replicas: 3
    config:
      log.retention.hour: 5
`
	c := start(t, time.Millisecond, map[string]string{"prod/kafka.yaml": kafka})
	c.initialize()
	open(c, "prod/kafka.yaml", kafka)
	c.nextDiagnostics()
	uri := c.uri("prod/kafka.yaml")
	got := c.call("textDocument/codeAction", map[string]any{
		"textDocument": doc(uri), "range": map[string]any{"start": pos(8, 0), "end": pos(8, 0)},
		"context": map[string]any{"diagnostics": []any{}},
	})
	want := `{"title":"Replace log.retention.hour with log.retention.hours","kind":"quickfix","edit":{"changes":{"` + uri +
		`":[{"range":{"start":{"line":8,"character":6},"end":{"line":8,"character":24}},"newText":"log.retention.hours"}]}}}`
	if !strings.Contains(got, want) {
		t.Errorf("code actions on a YAML key:\n got %s\nwant it to contain %s", got, want)
	}
}

// TestHoverUsesTheClustersVersion: a file whose cluster states its Kafka
// version (Strimzi spec.kafka.version) is documented for that version, not
// the workspace's default.
func TestHoverUsesTheClustersVersion(t *testing.T) {
	const kafka = `apiVersion: kafka.strimzi.io/v1beta2
kind: Kafka
metadata:
  name: c
spec:
  kafka:
    version: 3.8.0
    replicas: 3
    config:
      log.retention.hours: 5
`
	c := start(t, time.Millisecond, map[string]string{"prod/kafka.yaml": kafka})
	c.initialize()
	open(c, "prod/kafka.yaml", kafka)
	c.nextDiagnostics()
	got := c.call("textDocument/hover", map[string]any{"textDocument": doc(c.uri("prod/kafka.yaml")), "position": pos(9, 8)})
	if !strings.Contains(got, "**log.retention.hours** — broker configuration, Kafka 3.8") {
		t.Errorf("hover in a Kafka 3.8.0 cluster:\n%s\nwant it documented for Kafka 3.8", got)
	}
}
