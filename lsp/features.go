package lsp

import (
	"fmt"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/tliron/glsp"
	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/kafkalint/kafkalint/loader/catalog"
	"github.com/kafkalint/kafkalint/report"
)

// propertiesLine splits a .properties line into its key and where the key
// and value start (byte offsets); ok is false for a blank or comment line.
// A key ends at the first unescaped '=', ':' or whitespace.
func propertiesLine(line string) (key string, keyStart, valueStart int, ok bool) {
	trimmed := strings.TrimLeft(line, " \t\f")
	if trimmed == "" || trimmed[0] == '#' || trimmed[0] == '!' {
		return "", 0, 0, false
	}
	keyStart = len(line) - len(trimmed)
	end := len(line)
	for i := keyStart; i < len(line); i++ {
		if line[i] == '\\' {
			i++
			continue
		}
		if strings.IndexByte("=: \t\f", line[i]) >= 0 {
			end = i
			break
		}
	}
	valueStart = end
	for valueStart < len(line) && strings.IndexByte(" \t\f", line[valueStart]) >= 0 {
		valueStart++
	}
	if valueStart < len(line) && (line[valueStart] == '=' || line[valueStart] == ':') {
		valueStart++
	}
	for valueStart < len(line) && strings.IndexByte(" \t\f", line[valueStart]) >= 0 {
		valueStart++
	}
	return line[keyStart:end], keyStart, valueStart, true
}

// keyAt is the Kafka key written where the byte offset at of line is,
// when the line sets one: a .properties line; in the other formats a YAML
// mapping key (Strimzi and Helm config), a `- NAME=value` list item or
// .env line, a Terraform map key or heredoc line (MSK server_properties).
// Compose and Helm environment variables (KAFKA_CFG_LOG_RETENTION_MS,
// KAFKA_LOG_RETENTION_MS) are mapped to the key the images derive. The
// caller checks the catalog: a name it does not define shows nothing.
func keyAt(rel, line string, at int) (string, bool) {
	if path.Ext(rel) == ".properties" {
		key, ks, _, ok := propertiesLine(line)
		return key, ok && at >= ks && at <= ks+len(key)
	}
	m := otherKey.FindStringSubmatchIndex(line)
	if len(m) < 4 || at < m[2] || at > m[3] {
		return "", false
	}
	return envKey(line[m[2]:m[3]]), true
}

var otherKey = regexp.MustCompile(`^\s*(?:-\s+)?["']?([A-Za-z0-9_.-]+)["']?\s*[:=]`)

// envKey is the Kafka key an image derives from an environment variable
// (Bitnami KAFKA_CFG_*: '_' is '.'; Apache and Confluent KAFKA_*: '___'
// is '-', '__' is '_', '_' is '.'), or name itself when it is none.
func envKey(name string) string {
	if rest, ok := strings.CutPrefix(name, "KAFKA_CFG_"); ok {
		return strings.ToLower(strings.ReplaceAll(rest, "_", "."))
	}
	if rest, ok := strings.CutPrefix(name, "KAFKA_"); ok {
		r := strings.NewReplacer("___", "-", "__", "_", "_", ".")
		return strings.ToLower(r.Replace(rest))
	}
	return name
}

// scopesFor are the catalog scopes a .properties file's keys are looked
// up in, the one its name suggests first (the loader's own kind detection
// also reads the content; a hover only needs a good first guess).
func scopesFor(rel string) []string {
	base := strings.ToLower(path.Base(rel))
	first := catalog.Broker
	switch {
	case strings.Contains(base, "producer"):
		first = catalog.Producer
	case strings.Contains(base, "consumer"):
		first = catalog.Consumer
	case strings.Contains(base, "admin"):
		first = catalog.Admin
	case strings.Contains(base, "mirror"):
		first = catalog.Mirror
	case strings.Contains(base, "topic"):
		first = catalog.Topic
	}
	out := []string{first}
	for _, s := range []string{catalog.Broker, catalog.Topic, catalog.Producer, catalog.Consumer, catalog.Admin, catalog.Mirror} {
		if s != first {
			out = append(out, s)
		}
	}
	return out
}

// keyDoc is a key's catalog entry as Markdown, or "" when no scope of
// version defines it. It never shows a value from the file.
func keyDoc(key, version string, scopes []string) string {
	for _, scope := range scopes {
		k, ok := catalog.Lookup(version, scope, key)
		if !ok {
			continue
		}
		v := catalog.Resolve(version)
		var b strings.Builder
		fmt.Fprintf(&b, "**%s** — %s configuration, Kafka %s\n\n", key, scope, v)
		fmt.Fprintf(&b, "- type: %s\n", k.Type)
		if k.HasDefault {
			fmt.Fprintf(&b, "- default: `%s`\n", k.Default)
		} else {
			b.WriteString("- default: none (null)\n")
		}
		if k.ValidValues != "" {
			fmt.Fprintf(&b, "- valid values: %s\n", k.ValidValues)
		}
		if k.Deprecated {
			b.WriteString("- deprecated\n")
		}
		added, last := span(key, scope)
		if vs := catalog.Versions(); added != vs[0] {
			fmt.Fprintf(&b, "- added in Kafka %s\n", added)
		}
		if last != catalog.Newest() {
			fmt.Fprintf(&b, "- removed after Kafka %s\n", last)
		}
		// The catalog holds no documentation text: link to Kafka's.
		fmt.Fprintf(&b, "\n[Kafka %s documentation](https://kafka.apache.org/%s/documentation.html#%sconfigs_%s)\n",
			v, strings.ReplaceAll(v, ".", ""), anchorScope[scope], key)
		return b.String()
	}
	return ""
}

var anchorScope = map[string]string{
	catalog.Broker: "broker", catalog.Topic: "topic", catalog.Producer: "producer",
	catalog.Consumer: "consumer", catalog.Admin: "admin", catalog.Mirror: "mirror",
}

// span is the first and last cataloged release defining key in scope.
func span(key, scope string) (first, last string) {
	for _, v := range catalog.Versions() {
		if _, ok := catalog.Lookup(v, scope, key); ok {
			if first == "" {
				first = v
			}
			last = v
		}
	}
	return first, last
}

func (s *server) hover(_ *glsp.Context, p *protocol.HoverParams) (*protocol.Hover, error) {
	rel, ok := s.rel(p.TextDocument.URI)
	if !ok {
		return nil, nil
	}
	line := lineOf(s.text(rel), int(p.Position.Line))
	s.mu.Lock()
	version := s.versionFor(rel)
	findings := s.onLine(rel, int(p.Position.Line)+1)
	rules := s.rules
	s.mu.Unlock()
	var parts []string
	if key, ok := keyAt(rel, line, byteOffset(line, int(p.Position.Character))); ok {
		if d := keyDoc(key, version, scopesFor(rel)); d != "" {
			parts = append(parts, d)
		}
	}
	for _, f := range findings {
		parts = append(parts, ruleDoc(f, rules[f.ID]))
	}
	if len(parts) == 0 {
		return nil, nil
	}
	return &protocol.Hover{Contents: protocol.MarkupContent{Kind: protocol.MarkupKindMarkdown, Value: strings.Join(parts, "\n---\n\n")}}, nil
}

// ruleDoc is a finding as a hover shows it: its rule, its message, its
// why and its fix, then the rule's documentation page (or, without one,
// its description when that is not the why already shown).
func ruleDoc(f report.Finding, r report.Rule) string {
	var b strings.Builder
	fmt.Fprintf(&b, "**%s** %s (%s)\n\n%s\n", f.ID, f.Slug, f.Severity, f.Message)
	if why := paragraph(f.Why); why != "" {
		fmt.Fprintf(&b, "\n**Why:** %s\n", why)
	}
	if fix := paragraph(f.Fix); fix != "" {
		fmt.Fprintf(&b, "\n**Fix:** %s\n", fix)
	}
	switch {
	case r.Help != "":
		b.WriteString("\n" + r.Help)
	case r.Description != "" && paragraph(r.Description) != paragraph(f.Why):
		b.WriteString("\n" + r.Description)
	}
	return b.String()
}

// onLine are the last lint's findings on a file's line (1-based).
func (s *server) onLine(rel string, line int) []report.Finding {
	var out []report.Finding
	for _, f := range s.findings[rel] {
		if f.Line == line {
			out = append(out, f)
		}
	}
	return out
}

var enumList = regexp.MustCompile(`^(?:\(case insensitive\) )?\[([^\]]*)\]$`)
var enumName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_.-]*$`)

// enumValues are the values a key accepts when the catalog lists them
// (its validator is a list of names, or it is a boolean).
func enumValues(k catalog.Key) []string {
	if k.Type == "boolean" {
		return []string{"true", "false"}
	}
	m := enumList.FindStringSubmatch(k.ValidValues)
	if m == nil {
		return nil
	}
	vals := strings.Split(m[1], ", ")
	for _, v := range vals {
		if !enumName.MatchString(v) {
			return nil // a range such as [1,...] or a pattern
		}
	}
	slices.Sort(vals)
	return vals
}

// removedKeyRule is removed-key, whose fix is deleting the key.
const removedKeyRule = "KFK9006"

var didYouMean = regexp.MustCompile(`did you mean ([A-Za-z0-9_.-]+)\?`)

// codeAction offers, for each finding on the lines of the range, a
// directive that ignores it and, in .properties, for a misspelled key the
// key the finding suggests, for a removed key its deletion. Findings come from the last lint, not from the
// request's diagnostics: glsp cannot decode a diagnostic's code.
func (s *server) codeAction(_ *glsp.Context, p *protocol.CodeActionParams) (any, error) {
	rel, ok := s.rel(p.TextDocument.URI)
	if !ok {
		return nil, nil
	}
	text := s.text(rel)
	s.mu.Lock()
	var findings []report.Finding
	for l := p.Range.Start.Line; l <= p.Range.End.Line; l++ {
		findings = append(findings, s.onLine(rel, int(l)+1)...)
	}
	root := s.root
	s.mu.Unlock()
	uri := fileURI(root, rel)
	quickfix := protocol.CodeActionKindQuickFix
	var out []protocol.CodeAction
	for _, f := range findings {
		line := lineOf(text, f.Line-1)
		if m := didYouMean.FindStringSubmatch(f.Message); m != nil && path.Ext(rel) != ".properties" {
			// YAML and Terraform write the Kafka key itself on its line
			// (a compose variable name does not: no action there).
			if ks := strings.Index(line, f.Key); f.Key != "" && ks >= 0 && strings.Count(line, f.Key) == 1 {
				l := uint32Of(f.Line - 1)
				edit := protocol.TextEdit{
					Range: protocol.Range{
						Start: protocol.Position{Line: l, Character: uint32Of(utf16Len(line[:ks]))},
						End:   protocol.Position{Line: l, Character: uint32Of(utf16Len(line[:ks+len(f.Key)]))},
					},
					NewText: m[1],
				}
				out = append(out, protocol.CodeAction{
					Title: fmt.Sprintf("Replace %s with %s", f.Key, m[1]), Kind: &quickfix,
					Edit: &protocol.WorkspaceEdit{Changes: map[string][]protocol.TextEdit{uri: {edit}}},
				})
			}
		}
		if m := didYouMean.FindStringSubmatch(f.Message); m != nil && path.Ext(rel) == ".properties" {
			if key, ks, _, ok := propertiesLine(line); ok {
				l := uint32Of(f.Line - 1)
				edit := protocol.TextEdit{
					Range: protocol.Range{
						Start: protocol.Position{Line: l, Character: uint32Of(utf16Len(line[:ks]))},
						End:   protocol.Position{Line: l, Character: uint32Of(utf16Len(line[:ks+len(key)]))},
					},
					NewText: m[1],
				}
				out = append(out, protocol.CodeAction{
					Title: fmt.Sprintf("Replace %s with %s", key, m[1]), Kind: &quickfix,
					Edit: &protocol.WorkspaceEdit{Changes: map[string][]protocol.TextEdit{uri: {edit}}},
				})
			}
		}
		if f.ID == removedKeyRule && path.Ext(rel) == ".properties" {
			// Kafka names no replacement for the keys it removed (the
			// catalog holds none; 0.8 client keys are unknown keys with a
			// suggestion): the rule's fix is deleting the line.
			if key, _, _, ok := propertiesLine(line); ok {
				l := uint32Of(f.Line - 1)
				edit := protocol.TextEdit{Range: protocol.Range{Start: protocol.Position{Line: l}, End: protocol.Position{Line: l + 1}}}
				out = append(out, protocol.CodeAction{
					Title: "Remove " + key + " (removed from Kafka)", Kind: &quickfix,
					Edit: &protocol.WorkspaceEdit{Changes: map[string][]protocol.TextEdit{uri: {edit}}},
				})
			}
		}
		indent := line[:len(line)-len(strings.TrimLeft(line, " \t"))]
		at := protocol.Position{Line: uint32Of(f.Line - 1)}
		edit := protocol.TextEdit{
			Range:   protocol.Range{Start: at, End: at},
			NewText: fmt.Sprintf("%s# kafkalint:ignore %s -- reason\n", indent, f.ID),
		}
		out = append(out, protocol.CodeAction{
			Title: fmt.Sprintf("Ignore %s on this line (kafkalint:ignore)", f.ID), Kind: &quickfix,
			Edit: &protocol.WorkspaceEdit{Changes: map[string][]protocol.TextEdit{uri: {edit}}},
		})
	}
	return out, nil
}
