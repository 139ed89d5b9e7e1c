// Package lsp is kafkalint's language server (`kafkalint lsp`, LSP over
// stdio): diagnostics from the same pipeline as `kafkalint lint` (package
// lint) with the editor's unsaved buffers overlaid, hover and completion
// from the Kafka key catalog (loader/catalog), and quick fixes. The
// protocol types and request dispatch are github.com/tliron/glsp's, the
// transport github.com/sourcegraph/jsonrpc2 (docs/editors.md says why).
package lsp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/sourcegraph/jsonrpc2"
	"github.com/tliron/glsp"
	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/kafkalint/kafkalint/lint"
	"github.com/kafkalint/kafkalint/report"
)

// Options configure a server.
type Options struct {
	// Configure returns the lint options for the workspace at root
	// (absolute). It is called before every lint, so an edited
	// .kafkalint.yaml applies from the next one; nil = the zero Options.
	Configure func(ctx context.Context, root string) (lint.Options, error)
	// Debounce is how long edits must pause before a lint starts
	// (0 = DefaultDebounce).
	Debounce time.Duration
}

// DefaultDebounce is the pause after the last edit before a lint starts:
// long enough to skip the intermediate states of a word being typed.
const DefaultDebounce = 250 * time.Millisecond

// Serve runs a server on one connection (stdin/stdout for an editor, a
// pipe in tests) until the client sends exit or the connection closes.
// It returns an error when exit came without shutdown (LSP: exit code 1).
func Serve(ctx context.Context, rwc io.ReadWriteCloser, opts Options) error {
	s := newServer(opts)
	h := jsonrpc2.HandlerWithError(func(ctx context.Context, conn *jsonrpc2.Conn, req *jsonrpc2.Request) (any, error) {
		return s.handle(ctx, conn, req)
	})
	conn := jsonrpc2.NewConn(ctx, jsonrpc2.NewBufferedStream(rwc, jsonrpc2.VSCodeObjectCodec{}), h)
	select {
	case <-conn.DisconnectNotify():
	case <-ctx.Done():
		_ = conn.Close()
	}
	s.stop()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.exited && !s.shutdown {
		return errors.New("exit without shutdown")
	}
	return nil
}

// server is the state of one connection.
type server struct {
	opts    Options
	handler protocol.Handler

	mu       sync.Mutex
	notify   func(method string, params any)
	root     string            // workspace folder, absolute
	docs     map[string]string // open buffers by path relative to root, slash-separated
	shutdown bool
	exited   bool

	// The last lint's outcome, which hover and code actions read.
	findings map[string][]report.Finding // by file
	rules    map[string]report.Rule
	version  string            // target Kafka version of the last lint
	versions map[string]string // each linted file's own target version (its cluster's)
	linted   []string          // files the last lint on disk read
	shown    map[string]bool
	cache    lintCache

	// Scheduling: timer fires a lint after the debounce; cancel stops
	// the lint in flight when a newer edit arrives; running counts the
	// lints scheduled and not finished.
	timer   *time.Timer
	cancel  context.CancelFunc
	running sync.WaitGroup
}

func newServer(opts Options) *server {
	if opts.Debounce == 0 {
		opts.Debounce = DefaultDebounce
	}
	s := &server{opts: opts, docs: map[string]string{}, shown: map[string]bool{}, findings: map[string][]report.Finding{}}
	s.handler = protocol.Handler{
		Initialize:             s.initialize,
		Initialized:            func(*glsp.Context, *protocol.InitializedParams) error { s.schedule(0); return nil },
		Shutdown:               s.shutdownRequest,
		Exit:                   func(*glsp.Context) error { s.mu.Lock(); s.exited = true; s.mu.Unlock(); return nil },
		SetTrace:               func(*glsp.Context, *protocol.SetTraceParams) error { return nil },
		TextDocumentDidOpen:    s.didOpen,
		TextDocumentDidChange:  s.didChange,
		TextDocumentDidSave:    func(*glsp.Context, *protocol.DidSaveTextDocumentParams) error { s.schedule(0); return nil },
		TextDocumentDidClose:   s.didClose,
		TextDocumentHover:      s.hover,
		TextDocumentCompletion: s.completion,
		TextDocumentCodeAction: s.codeAction,
		WorkspaceDidChangeWatchedFiles: func(*glsp.Context, *protocol.DidChangeWatchedFilesParams) error {
			s.schedule(0) // a file on disk or .kafkalint.yaml changed
			return nil
		},
	}
	return s
}

// handle dispatches one message as glsp's server does, minus its logging
// and transports (which would bring a dozen modules along).
func (s *server) handle(_ context.Context, conn *jsonrpc2.Conn, req *jsonrpc2.Request) (any, error) {
	s.mu.Lock()
	if s.notify == nil {
		s.notify = func(method string, params any) { _ = conn.Notify(context.Background(), method, params) }
	}
	s.mu.Unlock()
	gc := &glsp.Context{Method: req.Method, Notify: s.notify}
	if req.Params != nil {
		gc.Params = *req.Params
	}
	r, validMethod, validParams, err := s.handler.Handle(gc)
	switch {
	case req.Method == protocol.MethodExit:
		return nil, conn.Close()
	case !validMethod:
		if req.Notif {
			return nil, nil // unknown notifications ($/...) are ignored
		}
		return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeMethodNotFound, Message: "method not supported: " + req.Method}
	case !validParams:
		return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeInvalidParams, Message: errMessage(err)}
	case err != nil:
		return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeInvalidRequest, Message: err.Error()}
	}
	return r, nil
}

func (s *server) initialize(_ *glsp.Context, p *protocol.InitializeParams) (any, error) {
	root := ""
	switch {
	case len(p.WorkspaceFolders) > 0:
		root = p.WorkspaceFolders[0].URI
	case p.RootURI != nil:
		root = *p.RootURI
	case p.RootPath != nil:
		root = "file://" + *p.RootPath
	}
	dir, err := uriPath(root)
	if err != nil {
		return nil, fmt.Errorf("workspace folder: %w", err)
	}
	s.mu.Lock()
	s.root = dir
	s.mu.Unlock()
	s.handler.SetInitialized(true)
	yes := true
	full := protocol.TextDocumentSyncKindFull
	return protocol.InitializeResult{
		Capabilities: protocol.ServerCapabilities{
			TextDocumentSync: protocol.TextDocumentSyncOptions{
				OpenClose: &yes, Change: &full, Save: true,
			},
			HoverProvider:      true,
			CompletionProvider: &protocol.CompletionOptions{TriggerCharacters: []string{".", "="}},
			CodeActionProvider: true,
		},
		ServerInfo: &protocol.InitializeResultServerInfo{Name: "kafkalint"},
	}, nil
}

func (s *server) shutdownRequest(*glsp.Context) error {
	s.stop()
	s.mu.Lock()
	s.shutdown = true
	s.mu.Unlock()
	return nil
}

func (s *server) didOpen(_ *glsp.Context, p *protocol.DidOpenTextDocumentParams) error {
	if rel, ok := s.rel(p.TextDocument.URI); ok {
		s.mu.Lock()
		s.docs[rel] = p.TextDocument.Text
		s.mu.Unlock()
		s.schedule(s.opts.Debounce)
	}
	return nil
}

func (s *server) didChange(_ *glsp.Context, p *protocol.DidChangeTextDocumentParams) error {
	rel, ok := s.rel(p.TextDocument.URI)
	if !ok {
		return nil
	}
	s.mu.Lock()
	for _, c := range p.ContentChanges {
		// Full sync (initialize says so): every change is the whole text.
		if w, ok := c.(protocol.TextDocumentContentChangeEventWhole); ok {
			s.docs[rel] = w.Text
		}
	}
	s.mu.Unlock()
	s.schedule(s.opts.Debounce)
	return nil
}

func (s *server) didClose(_ *glsp.Context, p *protocol.DidCloseTextDocumentParams) error {
	if rel, ok := s.rel(p.TextDocument.URI); ok {
		s.mu.Lock()
		delete(s.docs, rel)
		s.mu.Unlock()
		s.schedule(s.opts.Debounce) // the file on disk is what counts again
	}
	return nil
}

// text is the content of a workspace file: its open buffer, else disk.
func (s *server) text(rel string) string {
	s.mu.Lock()
	t, ok := s.docs[rel]
	root := s.root
	s.mu.Unlock()
	if ok {
		return t
	}
	b, _ := readFile(root, rel)
	return string(b)
}

func errMessage(err error) string {
	if err == nil {
		return "invalid params"
	}
	return err.Error()
}
