package lsp

import (
	"strings"
	"testing"
	"time"

	"github.com/kafkalint/kafkalint/report"
)

// broker has one finding of its own (KFK1001, line 6) besides the
// workspace-wide KFK2004 on line 1.
const broker = "process.roles=broker\n" +
	"node.id=4\n" +
	"controller.quorum.bootstrap.servers=c1.example.com:9093\n" +
	"controller.listener.names=CONTROLLER\n" +
	"controlled.shutdown.enable=true\n" +
	"offsets.topic.replication.factor=1\n"

const (
	kfk2004   = `{"code":"KFK2004","codeDescription":{"href":"https://github.com/kafkalint/kafkalint/blob/main/docs/rules/KFK2004.md"},"message":"auto.create.topics.enable is not set: Kafka's default (true) lets clients create missing topics (auto-create-topics-in-production)\n\nfix: Set auto.create.topics.enable=false and create topics deliberately (kafka-topics.sh, Terraform, Strimzi KafkaTopic).","range":{"end":{"character":20,"line":0},"start":{"character":0,"line":0}},"severity":3,"source":"kafkalint"}`
	kfk1001   = `{"code":"KFK1001","codeDescription":{"href":"https://github.com/kafkalint/kafkalint/blob/main/docs/rules/KFK1001.md"},"message":"offsets.topic.replication.factor=1: __consumer_offsets has a single replica (offsets-topic-replication-factor-one)\n\nfix: Set offsets.topic.replication.factor=3 (Kafka's default) on every broker, or delete the line. An existing __consumer_offsets keeps its replicas: add them with kafka-reassign-partitions.sh.","range":{"end":{"character":34,"line":5},"start":{"character":0,"line":5}},"severity":1,"source":"kafkalint"}`
	kfk9004   = `{"code":"KFK9004","codeDescription":{"href":"https://github.com/kafkalint/kafkalint/blob/main/docs/rules/KFK9004.md"},"message":"log.retention.hour is not a broker or controller key; did you mean log.retention.hours? (unknown-key)\n\nfix: Rename it to log.retention.hours if that is the key meant.","range":{"end":{"character":20,"line":6},"start":{"character":0,"line":6}},"severity":2,"source":"kafkalint"}`
	brokerURI = `"uri":"ROOT/prod/server.properties"`
)

func open(c *client, name, text string) {
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": c.uri(name), "languageId": "properties", "version": 1, "text": text}})
}

func change(c *client, name, text string, version int) {
	c.notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": c.uri(name), "version": version},
		"contentChanges": []any{map[string]any{"text": text}},
	})
}

func TestDiagnosticsOnOpenChangeSave(t *testing.T) {
	c := start(t, time.Millisecond, map[string]string{"prod/server.properties": broker})
	c.initialize()
	c.notify("initialized", map[string]any{})
	onDisk := `{"diagnostics":[` + kfk2004 + `,` + kfk1001 + `],` + brokerURI + `}`
	if got := c.nextDiagnostics(); got != onDisk {
		t.Errorf("after initialized:\n got %s\nwant %s", got, onDisk)
	}
	open(c, "prod/server.properties", broker)
	if got := c.nextDiagnostics(); got != onDisk {
		t.Errorf("after didOpen:\n got %s\nwant %s", got, onDisk)
	}
	// The unsaved buffer is what is linted.
	change(c, "prod/server.properties", broker+"log.retention.hour=5\n", 2)
	edited := `{"diagnostics":[` + kfk2004 + `,` + kfk1001 + `,` + kfk9004 + `],` + brokerURI + `}`
	if got := c.nextDiagnostics(); got != edited {
		t.Errorf("after didChange:\n got %s\nwant %s", got, edited)
	}
	// Fixed in the buffer, then saved: the file has no KFK1001 any more.
	fixed := strings.Replace(broker, "factor=1", "factor=3", 1)
	change(c, "prod/server.properties", fixed, 3)
	want := `{"diagnostics":[` + kfk2004 + `],` + brokerURI + `}`
	if got := c.nextDiagnostics(); got != want {
		t.Errorf("after the fix:\n got %s\nwant %s", got, want)
	}
	writeFile(t, c.root, "prod/server.properties", fixed)
	c.notify("textDocument/didSave", map[string]any{"textDocument": doc(c.uri("prod/server.properties"))})
	if got := c.nextDiagnostics(); got != want {
		t.Errorf("after didSave:\n got %s\nwant %s", got, want)
	}
}

// TestDebounce: edits in quick succession give one lint, of the last text.
func TestDebounce(t *testing.T) {
	c := start(t, 300*time.Millisecond, map[string]string{"prod/server.properties": broker})
	c.initialize()
	open(c, "prod/server.properties", broker)
	for i, text := range []string{broker + "log.retention.hour=5\n", broker + "log.retention.hour=6\n", strings.Replace(broker, "factor=1", "factor=3", 1)} {
		change(c, "prod/server.properties", text, i+2)
	}
	want := `{"diagnostics":[` + kfk2004 + `],` + brokerURI + `}`
	if got := c.nextDiagnostics(); got != want {
		t.Errorf("first diagnostics:\n got %s\nwant %s", got, want)
	}
	select {
	case d := <-c.diags:
		t.Errorf("a second publish after the debounced lint: %s", d)
	case <-time.After(time.Second):
	}
}

func TestRelatedInformation(t *testing.T) {
	texts := map[string]string{"a.properties": "a=1\nbb=ccc\n"}
	f := report.Finding{
		ID: "KFK3001", Slug: "s", Severity: report.Warning, Message: "m", File: "a.properties", Line: 2, Column: 3,
		Related: []report.Location{{File: "b/c.properties", Line: 4}},
	}
	d := diagnostic("/ws", f, func(file string) string { return texts[file] })
	if len(d.RelatedInformation) != 1 {
		t.Fatalf("related = %+v", d.RelatedInformation)
	}
	r := d.RelatedInformation[0]
	if r.Location.URI != "file:///ws/b/c.properties" || r.Location.Range.Start.Line != 3 || r.Message != "related: KFK3001" {
		t.Errorf("related = %+v", r)
	}
	if d.Range.Start.Line != 1 || d.Range.Start.Character != 2 || d.Range.End.Character != 6 {
		t.Errorf("range = %+v, want line 1 characters 2 to 6", d.Range)
	}
}

// TestNoSecretShown: diagnostics and hovers on lines that hold secrets
// (the rules fire on them) never show the secret values.
func TestNoSecretShown(t *testing.T) {
	c := start(t, time.Millisecond, map[string]string{"prod/server.properties": broker})
	c.initialize()
	open(c, "prod/server.properties", broker)
	c.nextDiagnostics()
	secrets := broker +
		"ssl.keystore.password=MARK-SECRET-1\n" +
		`listener.name.internal.plain.sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username="admin" password="MARK-SECRET-2";` + "\n" +
		"ssl.keystore.password=MARK-SECRET-3\n"
	change(c, "prod/server.properties", secrets, 2)
	got := c.nextDiagnostics()
	for line := 6; line <= 8; line++ {
		if !strings.Contains(got, `"line":`+string(rune('0'+line))+`},"start"`) {
			t.Errorf("no diagnostic on secret line %d (the test needs the rules to fire there):\n%s", line+1, got)
		}
		h := c.call("textDocument/hover", map[string]any{"textDocument": doc(c.uri("prod/server.properties")), "position": pos(line, 1)})
		if strings.Contains(h, "MARK-SECRET") {
			t.Errorf("hover on line %d shows a secret:\n%s", line+1, h)
		}
	}
	if strings.Contains(got, "MARK-SECRET") {
		t.Errorf("diagnostics show a secret:\n%s", got)
	}
}
