package lsp

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The test binary is also the server Neovim starts: run as
// `lsp.test -test.run=^TestServeStdio$` with this variable set,
// TestServeStdio serves LSP on stdin/stdout.
const serveEnv = "KAFKALINT_LSP_TEST_SERVE"

func TestServeStdio(t *testing.T) {
	if os.Getenv(serveEnv) != "1" {
		t.Skip("only the server TestNeovim starts")
	}
	if err := Serve(context.Background(), stdio{}, Options{}); err != nil {
		t.Error(err)
	}
}

type stdio struct{}

func (stdio) Read(b []byte) (int, error)  { return os.Stdin.Read(b) }
func (stdio) Write(b []byte) (int, error) { return os.Stdout.Write(b) }
func (stdio) Close() error                { return os.Stdin.Close() }

// nvimScript opens a file with Neovim's built-in client, waits for the
// diagnostics, applies the first code action of line 7 (the did-you-mean
// fix), saves, waits for the new diagnostics and writes what it saw.
const nvimScript = `
local out = {}
local id = vim.lsp.start_client({
  cmd = { vim.env.SERVER, "-test.run=^TestServeStdio$" }, cmd_env = { ` + serveEnv + ` = "1" }, root_dir = vim.env.WS,
})
vim.cmd('edit ' .. vim.env.WS .. '/prod/server.properties')
vim.lsp.buf_attach_client(0, id)
local function codes()
  local c = {}
  for _, d in ipairs(vim.diagnostic.get(0)) do table.insert(c, (d.lnum + 1) .. ':' .. tostring(d.code)) end
  table.sort(c)
  return table.concat(c, ' ')
end
vim.wait(60000, function() return #vim.diagnostic.get(0) >= 3 end, 50)
table.insert(out, 'before: ' .. codes())
local params = {
  textDocument = vim.lsp.util.make_text_document_params(),
  range = { start = { line = 6, character = 0 }, ['end'] = { line = 6, character = 0 } },
  context = { diagnostics = {} },
}
local res = vim.lsp.buf_request_sync(0, 'textDocument/codeAction', params, 10000)
for _, r in pairs(res or {}) do
  local a = r.result[1]
  table.insert(out, 'action: ' .. a.title)
  vim.lsp.util.apply_workspace_edit(a.edit, 'utf-16')
end
vim.cmd('write')
vim.wait(60000, function() return #vim.diagnostic.get(0) == 2 end, 50)
table.insert(out, 'after: ' .. codes())
table.insert(out, 'line 7: ' .. vim.api.nvim_buf_get_lines(0, 6, 7, false)[1])
vim.fn.writefile(out, vim.env.OUT)
vim.cmd('qa!')
`

// TestNeovim is the check with a real editor client.
func TestNeovim(t *testing.T) {
	nvim, err := exec.LookPath("nvim")
	if err != nil {
		t.Skip("nvim not installed (apt-get install neovim): the real-client check needs it")
	}
	if testing.Short() {
		t.Skip("starts Neovim and lints twice (seconds)")
	}
	ws := t.TempDir()
	writeAll(t, ws, "prod/server.properties", broker+"log.retention.hour=5\n")
	script := filepath.Join(t.TempDir(), "check.lua")
	out := filepath.Join(t.TempDir(), "out.txt")
	if err := os.WriteFile(script, []byte(nvimScript), 0o600); err != nil {
		t.Fatal(err)
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, nvim, "--headless", "-n", "-i", "NONE", "-u", "NONE", "-c", "luafile "+script)
	cmd.Env = append(os.Environ(), "SERVER="+self, "WS="+ws, "OUT="+out, "HOME="+t.TempDir())
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("nvim: %v\n%s", err, b)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	want := "before: 1:KFK2004 6:KFK1001 7:KFK9004\n" +
		"action: Replace log.retention.hour with log.retention.hours\n" +
		"after: 1:KFK2004 6:KFK1001\n" +
		"line 7: log.retention.hours=5\n"
	if string(got) != want {
		t.Errorf("Neovim saw:\n%s\nwant:\n%s", got, want)
	}
	if b, _ := os.ReadFile(filepath.Join(ws, "prod", "server.properties")); !strings.Contains(string(b), "log.retention.hours=5\n") {
		t.Errorf("the fix was not saved:\n%s", b)
	}
}
