package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/sourcegraph/jsonrpc2"
)

// client is a scripted LSP client on an in-process pipe.
type client struct {
	t     *testing.T
	conn  *jsonrpc2.Conn
	diags chan json.RawMessage // publishDiagnostics params, in order
	done  chan error           // Serve's result
	root  string
}

type pipe struct {
	io.Reader
	io.WriteCloser
}

func start(t *testing.T, debounce time.Duration, files map[string]string) *client {
	t.Helper()
	root := t.TempDir()
	for name, text := range files {
		writeAll(t, root, name, text)
	}
	sr, cw := io.Pipe()
	cr, sw := io.Pipe()
	c := &client{t: t, diags: make(chan json.RawMessage, 100), done: make(chan error, 1), root: root}
	go func() {
		c.done <- Serve(context.Background(), pipe{sr, sw}, Options{Debounce: debounce})
		_ = sw.Close()
	}()
	h := jsonrpc2.HandlerWithError(func(_ context.Context, _ *jsonrpc2.Conn, req *jsonrpc2.Request) (any, error) {
		if req.Method == "textDocument/publishDiagnostics" && req.Params != nil {
			c.diags <- *req.Params
		}
		return nil, nil
	})
	c.conn = jsonrpc2.NewConn(context.Background(), jsonrpc2.NewBufferedStream(pipe{cr, cw}, jsonrpc2.VSCodeObjectCodec{}), h)
	t.Cleanup(func() { _ = c.conn.Close() })
	return c
}

func (c *client) uri(name string) string { return fileURI(c.root, name) }

// call sends a request and returns its result as compact JSON.
func (c *client) call(method string, params any) string {
	c.t.Helper()
	var res json.RawMessage
	if err := c.conn.Call(context.Background(), method, params, &res); err != nil {
		c.t.Fatalf("%s: %v", method, err)
	}
	return compact(c.t, res)
}

func (c *client) notify(method string, params any) {
	c.t.Helper()
	if err := c.conn.Notify(context.Background(), method, params); err != nil {
		c.t.Fatalf("%s: %v", method, err)
	}
}

// nextDiagnostics is the next publishDiagnostics, with the workspace
// folder written ROOT.
func (c *client) nextDiagnostics() string {
	c.t.Helper()
	select {
	case d := <-c.diags:
		return string(bytes.ReplaceAll([]byte(compact(c.t, d)), []byte(fileURI(c.root, "")), []byte("ROOT")))
	case <-time.After(60 * time.Second):
		c.t.Fatal("no diagnostics within 60s")
		return ""
	}
}

func (c *client) initialize() string {
	c.t.Helper()
	return c.call("initialize", map[string]any{"processId": nil, "rootUri": c.uri(""), "capabilities": map[string]any{}})
}

func compact(t *testing.T, raw []byte) string {
	t.Helper()
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		t.Fatalf("%v: %s", err, raw)
	}
	return b.String()
}

func doc(uri string) map[string]any { return map[string]any{"uri": uri} }

func TestLifecycle(t *testing.T) {
	c := start(t, time.Millisecond, nil)
	want := `{"capabilities":{"textDocumentSync":{"openClose":true,"change":1,"save":true},"completionProvider":{"triggerCharacters":[".","="]},"hoverProvider":true,"codeActionProvider":true},"serverInfo":{"name":"kafkalint"}}`
	if got := c.initialize(); got != want {
		t.Errorf("initialize:\n got %s\nwant %s", got, want)
	}
	c.notify("initialized", map[string]any{})
	if got := c.call("shutdown", nil); got != "null" {
		t.Errorf("shutdown = %s, want null", got)
	}
	c.notify("exit", nil)
	select {
	case err := <-c.done:
		if err != nil {
			t.Errorf("Serve after shutdown+exit: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Serve did not return after exit")
	}
}

func writeFile(t *testing.T, root, name, text string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(root, filepath.FromSlash(name)), []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
}

// writeAll writes a file of the workspace, creating its directory.
func writeAll(t *testing.T, root, name, text string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, root, name, text)
}
