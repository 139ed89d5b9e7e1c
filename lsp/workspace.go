package lsp

import (
	"cmp"
	"context"
	"errors"
	"maps"
	"math"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"
	"unicode/utf16"

	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/kafkalint/kafkalint/lint"
	"github.com/kafkalint/kafkalint/loader"
	"github.com/kafkalint/kafkalint/loader/catalog"
	"github.com/kafkalint/kafkalint/policies"
	"github.com/kafkalint/kafkalint/report"
)

// schedule (re)starts the debounce: the lint in flight, if any, is
// canceled, and a new one starts after delay unless another edit comes.
func (s *server) schedule(delay time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.shutdown {
		return
	}
	if s.timer != nil {
		s.timer.Stop()
	}
	if s.cancel != nil {
		s.cancel()
	}
	ctx, cancel := context.WithCancel(context.Background())
	s.cancel = cancel
	s.running.Add(1)
	s.timer = time.AfterFunc(delay, func() {
		defer s.running.Done()
		s.lint(ctx)
	})
}

// stop cancels what is scheduled or running and waits for it.
func (s *server) stop() {
	s.mu.Lock()
	if s.timer != nil && s.timer.Stop() {
		s.running.Done() // the timer's function will never run
	}
	if s.cancel != nil {
		s.cancel()
	}
	s.mu.Unlock()
	s.running.Wait()
}

// lint lints the workspace and publishes the diagnostics, unless ctx was
// canceled meanwhile (a newer edit's lint supersedes it).
//
// With no unsaved buffer it is exactly `kafkalint lint` of the workspace
// folder. With unsaved buffers it lints, as in-memory sources, the files
// the last lint on disk read with the buffers in place of their files,
// plus the open buffers that lint did not read (a new file).
func (s *server) lint(ctx context.Context) {
	s.mu.Lock()
	root, docs, linted := s.root, maps.Clone(s.docs), s.linted
	s.mu.Unlock()
	if root == "" {
		return
	}
	opts := lint.Options{}
	if s.opts.Configure != nil {
		var err error
		if opts, err = s.opts.Configure(ctx, root); err != nil {
			if ctx.Err() == nil { // else superseded: nothing to say
				s.logError("kafkalint: " + err.Error())
			}
			return
		}
	}
	opts.Load.Dir = root
	opts.Cache = s.cacheFor(opts.Engine)
	dirty := map[string]string{}
	for rel, text := range docs {
		if b, err := readFile(root, rel); err != nil || string(b) != text {
			dirty[rel] = text
		}
	}
	var rep *report.Report
	var err error
	if len(dirty) == 0 || linted == nil {
		rep, err = lint.Run(ctx, []string{root}, opts)
		if err == nil {
			linted = rep.Linted
		}
		if err == nil && len(dirty) > 0 {
			// The files a lint on disk reads were not known yet: now
			// they are, lint them again with the buffers in place.
			rep = nil
		}
	}
	if rep == nil && err == nil {
		opts.Sources = overlay(root, linted, dirty, opts.Load.Exclude)
		// The sources live in the workspace: the files an adapter reads
		// beside one (a compose .env, a chart's Chart.yaml) are read there
		// unless a buffer holds them.
		opts.Load.SourceRoot = root
		rep, err = lint.Run(ctx, nil, opts)
	}
	if ctx.Err() != nil {
		return
	}
	if err != nil {
		s.logError("kafkalint: " + err.Error())
		return
	}
	s.publish(ctx, root, rep, opts.Load.KafkaVersion, linted)
}

// lintCache is the server's evaluation cache: each lint evaluates only
// the clusters whose model changed since the last (the edited file's).
// A changed .kafkalint.yaml needs nothing here: what it sets either
// changes the model (versions, environments), so the clusters miss, or
// applies after evaluation (severities). A new engine starts a new cache.
type lintCache struct {
	cache  *lint.Cache
	engine *policies.Engine
}

// cacheFor is the cache for lints with engine (nil: the built-in rules).
func (s *server) cacheFor(engine *policies.Engine) *lint.Cache {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cache.cache == nil || s.cache.engine != engine {
		s.cache = lintCache{cache: &lint.Cache{}, engine: engine}
	}
	return s.cache.cache
}

// overlay is the in-memory sources of a lint with unsaved buffers; a new
// buffer is left out when exclude, the configuration's excludes (and the
// configuration file itself), says so.
func overlay(root string, linted []string, dirty map[string]string, exclude func(abs string) bool) []loader.Source {
	var out []loader.Source
	for _, rel := range linted {
		if text, ok := dirty[rel]; ok {
			out = append(out, loader.Source{Name: rel, Data: []byte(text)})
			continue
		}
		if b, err := readFile(root, rel); err == nil {
			out = append(out, loader.Source{Name: rel, Data: b})
		}
	}
	for rel, text := range dirty {
		excluded := exclude != nil && exclude(filepath.Join(root, filepath.FromSlash(rel)))
		if !slices.Contains(linted, rel) && kafkaFileName(rel) && !excluded {
			out = append(out, loader.Source{Name: rel, Data: []byte(text)})
		}
	}
	slices.SortFunc(out, func(a, b loader.Source) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// kafkaFileName is whether a new, unsaved file is worth linting: an
// in-memory source named so is read by the format its name selects, and a
// README must not be read as a .properties file.
func kafkaFileName(rel string) bool {
	switch path.Ext(rel) {
	case ".properties", ".yaml", ".yml", ".tf", ".env":
		return true
	}
	return false
}

// publish records the outcome of a lint (linted: the files a lint on
// disk read) and sends every file's diagnostics, and empty ones to the files
// that had some and have none now.
func (s *server) publish(ctx context.Context, root string, rep *report.Report, version string, linted []string) {
	byFile := map[string][]protocol.Diagnostic{}
	findings := map[string][]report.Finding{}
	texts := map[string]string{} // each file is read once, not once per finding
	text := func(file string) string {
		t, ok := texts[file]
		if !ok {
			t = s.text(file)
			texts[file] = t
		}
		return t
	}
	for _, f := range rep.Findings {
		byFile[f.File] = append(byFile[f.File], diagnostic(root, f, text))
		findings[f.File] = append(findings[f.File], f)
	}
	for _, e := range rep.Errors {
		if e.File == "." || e.File == "" {
			continue
		}
		byFile[e.File] = append(byFile[e.File], errorDiagnostic(e, text))
	}
	rules := map[string]report.Rule{}
	for _, r := range rep.Rules {
		rules[r.ID] = r
	}
	s.mu.Lock()
	if ctx.Err() != nil { // superseded while converting
		s.mu.Unlock()
		return
	}
	s.findings, s.rules = findings, rules
	s.version = cmp.Or(version, catalog.Newest())
	s.versions = rep.KafkaVersions
	s.linted = linted
	var files []string
	for f := range byFile {
		files = append(files, f)
	}
	for f := range s.shown {
		if byFile[f] == nil {
			files = append(files, f)
		}
	}
	shown := map[string]bool{}
	for f := range byFile {
		shown[f] = true
	}
	s.shown = shown
	notify := s.notify
	s.mu.Unlock()
	slices.Sort(files)
	for _, f := range files {
		d := byFile[f]
		if d == nil {
			d = []protocol.Diagnostic{}
		}
		notify(protocol.ServerTextDocumentPublishDiagnostics, protocol.PublishDiagnosticsParams{URI: fileURI(root, f), Diagnostics: d})
	}
}

var severities = map[string]protocol.DiagnosticSeverity{
	report.Error:   protocol.DiagnosticSeverityError,
	report.Warning: protocol.DiagnosticSeverityWarning,
	report.Info:    protocol.DiagnosticSeverityInformation,
}

// diagnostic is a finding as LSP shows it. Its message is the report's
// short message and slug, then, as a second paragraph, the finding's fix:
// VS Code shows the whole message in the hover and the Problems panel,
// Neovim in its diagnostic float (and its virtual text, when on, joins the
// lines), while neither shows relatedInformation as readily (Neovim not
// at all). The why is in the hover on the line (ruleDoc). The report
// never holds a sensitive value (the rules print key names only).
func diagnostic(root string, f report.Finding, text func(file string) string) protocol.Diagnostic {
	sev := severities[f.Severity]
	source := "kafkalint"
	d := protocol.Diagnostic{
		Range:    lineRange(text(f.File), f.Line, f.Column),
		Severity: &sev,
		Code:     &protocol.IntegerOrString{Value: f.ID},
		Source:   &source,
		Message:  f.Message + " (" + f.Slug + ")",
	}
	if fix := paragraph(f.Fix); fix != "" {
		d.Message += "\n\nfix: " + fix
	}
	if f.DocsURL != "" {
		d.CodeDescription = &protocol.CodeDescription{HRef: f.DocsURL}
	}
	for _, r := range f.Related {
		d.RelatedInformation = append(d.RelatedInformation, protocol.DiagnosticRelatedInformation{
			Location: protocol.Location{URI: fileURI(root, r.File), Range: lineRange(text(r.File), r.Line, r.Column)},
			Message:  "related: " + f.ID,
		})
	}
	return d
}

func errorDiagnostic(e report.LoadError, text func(file string) string) protocol.Diagnostic {
	sev := protocol.DiagnosticSeverityError
	source := "kafkalint"
	return protocol.Diagnostic{Range: lineRange(text(e.File), max(e.Line, 1), e.Column), Severity: &sev, Source: &source, Message: e.Message}
}

// lineRange is the range from a finding's column (its line's start when
// unknown) to its line's end in a file's text, in UTF-16 code units as
// LSP counts.
func lineRange(file string, line, column int) protocol.Range {
	if line < 1 {
		line = 1
	}
	text := lineOf(file, line-1)
	start := 0
	if column > 1 {
		start = utf16Len(text[:min(column-1, len(text))])
	}
	l := uint32Of(line - 1)
	return protocol.Range{
		Start: protocol.Position{Line: l, Character: uint32Of(start)},
		End:   protocol.Position{Line: l, Character: uint32Of(utf16Len(text))},
	}
}

// lineOf is line n (0-based) of text, without its line break.
func lineOf(text string, n int) string {
	for range n {
		j := strings.IndexByte(text, '\n')
		if j < 0 {
			return ""
		}
		text = text[j+1:]
	}
	if j := strings.IndexByte(text, '\n'); j >= 0 {
		text = text[:j]
	}
	return strings.TrimSuffix(text, "\r")
}

func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n += utf16.RuneLen(r)
	}
	return n
}

// byteOffset is the byte index in line of a UTF-16 character offset.
func byteOffset(line string, char int) int {
	n := 0
	for i, r := range line {
		if n >= char {
			return i
		}
		n += utf16.RuneLen(r)
	}
	return len(line)
}

// versionFor is the Kafka version a file's keys are documented for: its
// cluster's in the last lint (a version the file or its cluster states,
// else the configured one), else the configured one, else the newest.
// The caller holds s.mu.
func (s *server) versionFor(rel string) string {
	return cmp.Or(s.versions[rel], s.version, catalog.Newest())
}

func (s *server) logError(msg string) {
	s.mu.Lock()
	notify := s.notify
	s.mu.Unlock()
	if notify != nil {
		notify(protocol.ServerWindowLogMessage, protocol.LogMessageParams{Type: protocol.MessageTypeError, Message: msg})
	}
}

// rel is a document's path relative to the workspace folder, when inside.
func (s *server) rel(uri string) (string, bool) {
	p, err := uriPath(uri)
	s.mu.Lock()
	root := s.root
	s.mu.Unlock()
	if err != nil || root == "" {
		return "", false
	}
	r, err := filepath.Rel(root, p)
	if err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return "", false
	}
	return filepath.ToSlash(r), true
}

func uriPath(uri string) (string, error) {
	u, err := url.Parse(uri)
	if err != nil {
		return "", err
	}
	if u.Scheme != "file" {
		return "", errors.New("not a file URI: " + uri)
	}
	return filepath.Clean(filepath.FromSlash(u.Path)), nil
}

func fileURI(root, rel string) string {
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(filepath.Join(root, filepath.FromSlash(rel)))}).String()
}

func readFile(root, rel string) ([]byte, error) {
	return os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
}

// uint32Of is a line or character number as LSP's unsigned integer.
func uint32Of(n int) protocol.UInteger {
	return protocol.UInteger(min(max(n, 0), math.MaxUint32))
}

// paragraph is an explanation (a why or a fix) as one paragraph: the line
// breaks of a METADATA description become spaces.
func paragraph(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
