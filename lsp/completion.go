package lsp

import (
	"path"
	"regexp"
	"strings"

	"github.com/tliron/glsp"
	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/kafkalint/kafkalint/loader/catalog"
)

// completion offers key names and enum values where a line is known to
// set a Kafka key: a .properties line, an MSK server_properties heredoc
// line, a YAML config map entry (Strimzi spec.kafka.config, KafkaTopic
// spec.config, the Helm config maps), a Helm config string block line,
// and a compose environment or .env variable. The context is read from
// the lines above (indentation, heredoc markers), not from a parse: a
// buffer being typed is rarely valid YAML or HCL.
func (s *server) completion(_ *glsp.Context, p *protocol.CompletionParams) (any, error) {
	rel, ok := s.rel(p.TextDocument.URI)
	if !ok {
		return nil, nil
	}
	text := s.text(rel)
	lines := strings.Split(text, "\n")
	l := int(p.Position.Line)
	if l >= len(lines) {
		return nil, nil
	}
	line := strings.TrimSuffix(lines[l], "\r")
	s.mu.Lock()
	version := s.versionFor(rel)
	s.mu.Unlock()
	c := completer{line: line, at: byteOffset(line, int(p.Position.Character)), pos: p.Position, version: version}
	switch path.Ext(rel) {
	case ".properties":
		return c.properties(scopesFor(rel)), nil
	case ".tf":
		if inServerProperties(lines, l) {
			return c.properties([]string{catalog.Broker}), nil
		}
		if inTopicConfig(lines, l) {
			return c.mapping([]string{catalog.Topic}, nil), nil
		}
	case ".env":
		return c.mapping([]string{catalog.Broker}, envNamer(text, line[:c.at])), nil
	case ".yaml", ".yml":
		return c.yaml(text, lines, l), nil
	}
	return nil, nil
}

// completer completes one line at byte offset at.
type completer struct {
	line    string
	at      int
	pos     protocol.Position
	version string
}

// properties completes a .properties line (or a blank line) as a key or,
// after the separator, the key's value.
func (c completer) properties(scopes []string) []protocol.CompletionItem {
	key, ks, vs, ok := propertiesLine(c.line)
	switch {
	case !ok && strings.TrimSpace(c.line) == "": // a blank line: any key
		ks, key = c.at, ""
		vs = len(c.line) + 1
	case !ok:
		return nil
	}
	if c.at <= ks+len(key) {
		return c.keys(ks, scopes, nil)
	}
	if c.at < vs {
		return nil
	}
	return c.values(vs, key, scopes)
}

// keys are the key names of scopes[0] that start with the text between
// ks and the cursor; name, when set, is the name a key is written as
// ("" to leave the key out).
func (c completer) keys(ks int, scopes []string, name func(string) string) []protocol.CompletionItem {
	prefix := c.line[ks:c.at]
	rng := protocol.Range{Start: protocol.Position{Line: c.pos.Line, Character: uint32Of(utf16Len(c.line[:ks]))}, End: c.pos}
	var items []protocol.CompletionItem
	kind := protocol.CompletionItemKindProperty
	for _, k := range catalog.Keys(c.version, scopes[0]) {
		label := k
		if name != nil {
			label = name(k)
		}
		if label == "" || !strings.HasPrefix(label, prefix) {
			continue
		}
		entry, _ := catalog.Lookup(c.version, scopes[0], k)
		detail := entry.Type
		if label != k {
			detail = k + " (" + entry.Type + ")"
		}
		items = append(items, protocol.CompletionItem{
			Label: label, Kind: &kind, Detail: &detail,
			Documentation: protocol.MarkupContent{Kind: protocol.MarkupKindMarkdown, Value: keyDoc(k, c.version, scopes[:1])},
			TextEdit:      protocol.TextEdit{Range: rng, NewText: label},
		})
	}
	return items
}

// values are key's enum or boolean values that start with the text
// between vs and the cursor.
func (c completer) values(vs int, key string, scopes []string) []protocol.CompletionItem {
	entry, ok := catalog.LookupIn(c.version, scopes, key)
	if !ok {
		return nil
	}
	prefix := c.line[vs:c.at]
	rng := protocol.Range{Start: protocol.Position{Line: c.pos.Line, Character: uint32Of(utf16Len(c.line[:vs]))}, End: c.pos}
	var items []protocol.CompletionItem
	kind := protocol.CompletionItemKindEnumMember
	for _, v := range enumValues(entry) {
		if strings.HasPrefix(v, prefix) {
			items = append(items, protocol.CompletionItem{Label: v, Kind: &kind, TextEdit: protocol.TextEdit{Range: rng, NewText: v}})
		}
	}
	return items
}

// mapping completes a YAML mapping entry (`key: value`), a list item
// (`- NAME=value`) or a .env line; name maps a key to the name written
// (nil: the key itself), and back through envKey.
func (c completer) mapping(scopes []string, name func(string) string) []protocol.CompletionItem {
	m := mappingLine.FindStringSubmatchIndex(c.line)
	if m == nil {
		return nil
	}
	ks, ke := m[2], m[3]
	if c.at < ks {
		return nil
	}
	if c.at <= ke {
		return c.keys(ks, scopes, name)
	}
	if m[4] < 0 || c.at < m[5] { // no separator yet, or before the value
		return nil
	}
	key := c.line[ks:ke]
	if name != nil {
		key = envKey(key)
	}
	return c.values(m[5], key, scopes)
}

// mappingLine: indentation, an optional list dash and quote, the name
// (group 1), then optionally the separator, spaces and an opening quote
// (group 2 ends where the value starts).
var mappingLine = regexp.MustCompile(`^\s*(?:-\s+)?["']?([A-Za-z0-9_.-]*)["']?(?:(\s*[:=]\s*["']?))?`)

// envNamer is how an image spells a key as an environment variable: the
// Bitnami KAFKA_CFG_ form in a file that names a Bitnami image or when
// typed, else the apache/Confluent KAFKA_ form. A key the form cannot
// spell (envKey does not map the name back to it) is left out.
func envNamer(text, typed string) func(string) string {
	typed = strings.TrimLeft(typed, " \t-\"'")
	bitnami := strings.HasPrefix(typed, "KAFKA_CFG_") || strings.Contains(strings.ToLower(text), "bitnami")
	return func(key string) string {
		var name string
		if bitnami {
			name = "KAFKA_CFG_" + strings.ToUpper(strings.ReplaceAll(key, ".", "_"))
		} else {
			name = "KAFKA_" + strings.ToUpper(apacheSpelling.Replace(key))
		}
		if envKey(name) != key {
			return ""
		}
		return name
	}
}

// apacheSpelling inverts the apache image's mapping (envKey).
var apacheSpelling = strings.NewReplacer("_", "__", "-", "___", ".", "_")

var heredocStart = regexp.MustCompile(`<<-?\s*"?([A-Za-z_][A-Za-z0-9_]*)"?\s*$`)
var serverPropertiesStart = regexp.MustCompile(`^\s*server_properties\s*=\s*<<`)

// inServerProperties is whether line l is inside a `server_properties =
// <<EOF` heredoc (MSK): the nearest heredoc opener above is that one and
// its terminator has not come yet.
func inServerProperties(lines []string, l int) bool {
	for i := l - 1; i >= 0; i-- {
		m := heredocStart.FindStringSubmatch(lines[i])
		if m == nil {
			continue
		}
		if !serverPropertiesStart.MatchString(lines[i]) {
			return false
		}
		for _, between := range lines[i+1 : l+1] {
			if strings.TrimSpace(between) == m[1] {
				return false
			}
		}
		return true
	}
	return false
}

var topicConfigStart = regexp.MustCompile(`^\s*config\s*=\s*\{\s*$`)

// inTopicConfig is whether line l is an entry of a Terraform `config = {`
// map (a kafka_topic's topic configuration): the innermost block open
// above it, counting braces, is that one.
func inTopicConfig(lines []string, l int) bool {
	depth := 0
	for i := l - 1; i >= 0; i-- {
		line := lines[i]
		if j := strings.IndexByte(line, '#'); j >= 0 {
			line = line[:j]
		}
		depth += strings.Count(line, "}") - strings.Count(line, "{")
		if depth < 0 {
			return topicConfigStart.MatchString(line)
		}
	}
	return false
}

// yamlConfigMaps are the mapping keys whose entries are Kafka keys: Strimzi
// config, the Helm chart's config maps (loader/yamlsrc/helm.go reads
// the same ones).
var yamlConfigMaps = map[string]bool{"config": true, "extraConfig": true, "extraConfigYaml": true, "overrideConfiguration": true, "secretConfig": true}

// configParents are where a `config` map holds Kafka keys: Strimzi
// spec.kafka and KafkaTopic spec, the Helm values root and its roles;
// spec.zookeeper.config or a KafkaConnect's spec.config do not.
var configParents = map[string]bool{"kafka": true, "": true, "controller": true, "broker": true}

var kafkaTopicKind = regexp.MustCompile(`^kind:\s*["']?KafkaTopic["']?\s*$`)

// isKafkaTopic is whether the YAML document holding line l (between its
// `---` separators) is a Strimzi KafkaTopic.
func isKafkaTopic(lines []string, l int) bool {
	first, last := l, l
	for first > 0 && !strings.HasPrefix(lines[first-1], "---") {
		first--
	}
	for last+1 < len(lines) && !strings.HasPrefix(lines[last+1], "---") {
		last++
	}
	for _, line := range lines[first : last+1] {
		if kafkaTopicKind.MatchString(strings.TrimRight(line, "\r")) {
			return true
		}
	}
	return false
}

// mirrorConnectors hold a Strimzi KafkaMirrorMaker2 mirror's connector
// config (MirrorMaker keys).
var mirrorConnectors = map[string]bool{"sourceConnector": true, "checkpointConnector": true, "heartbeatConnector": true}

// yaml completes a line below a config map (keys and values), a line of
// a Helm config string block (`extraConfig: |`, .properties lines), or a
// compose environment entry.
func (c completer) yaml(text string, lines []string, l int) []protocol.CompletionItem {
	parents := yamlParents(lines, l, c.at, 2)
	if len(parents) == 0 {
		return nil
	}
	p := parents[0]
	grand := ""
	if len(parents) > 1 {
		grand = parents[1].key
	}
	scopes := []string{catalog.Broker}
	topic := isKafkaTopic(lines, l)
	if topic {
		scopes = []string{catalog.Topic}
	}
	if mirrorConnectors[grand] {
		scopes = []string{catalog.Mirror}
	}
	switch {
	case p.key == "environment":
		return c.mapping(scopes, envNamer(text, c.line[:c.at]))
	case !yamlConfigMaps[p.key]:
		return nil
	case p.key == "config" && !configParents[grand] && !mirrorConnectors[grand] && (!topic || grand != "spec"):
		return nil
	case strings.HasPrefix(p.rest, "|") || strings.HasPrefix(p.rest, ">"):
		return c.properties(scopes)
	case p.rest == "":
		return c.mapping(scopes, nil)
	}
	return nil
}

// yamlParent is a line that opens a block: its key and what follows the
// colon.
type yamlParent struct{ key, rest string }

var yamlKeyLine = regexp.MustCompile(`^(\s*)(-\s+)?["']?([A-Za-z0-9_.-]+)["']?\s*:\s*(.*?)\s*$`)

// yamlParents are up to n enclosing block keys of line l, innermost
// first, found by indentation (a blank line is indented to the cursor);
// a list item's parent may be indented as much as its dash. The root
// level is key "".
func yamlParents(lines []string, l, at, n int) []yamlParent {
	line := lines[l]
	indent := len(line) - len(strings.TrimLeft(line, " "))
	if strings.TrimSpace(line) == "" {
		indent = min(at, len(line))
	}
	item := strings.HasPrefix(strings.TrimLeft(line, " "), "- ")
	var out []yamlParent
	for i := l - 1; i >= 0 && len(out) < n; i-- {
		t := strings.TrimSpace(lines[i])
		if t == "" || t[0] == '#' {
			continue
		}
		ind := len(lines[i]) - len(strings.TrimLeft(lines[i], " "))
		isItem := strings.HasPrefix(t, "- ")
		if ind > indent || (ind == indent && (!item || isItem)) {
			continue
		}
		m := yamlKeyLine.FindStringSubmatch(lines[i])
		if len(m) < 5 {
			return out // a scalar line: not a block we know
		}
		out = append(out, yamlParent{key: m[3], rest: m[4]})
		// A list item's key (`- sourceConnector:`) is the item's: its
		// parent is the list's, which may be indented as much as the dash.
		indent, item = ind, m[2] != ""
	}
	if len(out) < n && indent > 0 {
		return out
	}
	if len(out) < n {
		out = append(out, yamlParent{}) // the root
	}
	return out
}
