package loader

import (
	"context"
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kafkalint/kafkalint/internal/fifotest"
	"github.com/kafkalint/kafkalint/loader/safefs"
)

// Hostile trees a pull request can commit (issue 14 §1): every read stays
// inside the linted root, of regular files, bounded; what is refused is an
// errors[] entry naming the file and the reason, and the rest still loads.

func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}

// loadWithin loads paths and fails the test, instead of hanging it, when
// loading blocks (a FIFO read without O_NONBLOCK).
func loadWithin(t *testing.T, paths []string, opts Options) *Result {
	t.Helper()
	type out struct {
		res *Result
		err error
	}
	done := make(chan out, 1)
	go func() {
		res, err := Load(paths, opts)
		done <- out{res, err}
	}()
	select {
	case o := <-done:
		if o.err != nil {
			t.Fatal(o.err)
		}
		return o.res
	case <-time.After(10 * time.Second):
		t.Fatal("loading blocked")
		return nil
	}
}

func errorMessages(res *Result) []string {
	var out []string
	for _, e := range res.Errors {
		out = append(out, e.Error())
	}
	return out
}

// dump is everything a load produced, to look for leaked content.
func dump(t *testing.T, res *Result) string {
	t.Helper()
	b, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

const broker = "process.roles=broker\nnode.id=1\n"

const composeWithToken = "services:\n  kafka:\n    image: apache/kafka:4.0.0\n    environment:\n" +
	"      KAFKA_PROCESS_ROLES: broker,controller\n      KAFKA_SASL_JAAS_CONFIG: ${TOKEN}\n"

func TestLoadRefusesFIFOs(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"compose/compose.yaml": composeWithToken,
		"chart/values.yaml":    "replicaCount: 3\n",
		"ok/server.properties": broker,
	})
	fifotest.Make(t, filepath.Join(dir, "server.properties"))
	fifotest.Make(t, filepath.Join(dir, "compose", ".env"))
	fifotest.Make(t, filepath.Join(dir, "chart", "Chart.yaml"))
	for _, paths := range [][]string{{dir}, {filepath.Join(dir, "server.properties"), filepath.Join(dir, "compose"), filepath.Join(dir, "chart")}} {
		res := loadWithin(t, paths, Options{Dir: dir})
		want := []string{
			"chart/Chart.yaml: not a regular file (named pipe)",
			"compose/.env: not a regular file (named pipe)",
			"server.properties: not a regular file (named pipe)",
		}
		if got := errorMessages(res); !slices.Equal(got, want) {
			t.Errorf("Load(%v) errors:\n%s\nwant:\n%s", paths, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		if len(res.Clusters) == 0 {
			t.Errorf("Load(%v): the compose file's cluster is missing", paths)
		}
	}
}

// TestLoadDotEnvStaysInRoot: a compose .env that is a symlink to a device
// or to a file outside the root is refused, and its content appears
// nowhere; the same .env inside the root is read (the control).
func TestLoadDotEnvStaysInRoot(t *testing.T) {
	outside := t.TempDir()
	writeTree(t, outside, map[string]string{"env": "TOKEN=secret-outside\n"})
	for target, wantErr := range map[string]string{
		"/dev/zero":                       "compose/.env: resolves outside the linted root",
		filepath.Join(outside, "env"):     "compose/.env: resolves outside the linted root",
		"../../" + filepath.Base(outside): "compose/.env: resolves outside the linted root",
		"../inside.env":                   "",
	} {
		dir := t.TempDir()
		writeTree(t, dir, map[string]string{"compose/compose.yaml": composeWithToken, "inside.env": "TOKEN=secret-inside\n"})
		symlink(t, target, filepath.Join(dir, "compose", ".env"))
		res := loadWithin(t, []string{dir}, Options{Dir: dir})
		got := strings.Join(errorMessages(res), "\n")
		if got != wantErr {
			t.Errorf(".env -> %s: errors %q, want %q", target, got, wantErr)
		}
		all := dump(t, res)
		if strings.Contains(all, "secret-outside") {
			t.Errorf(".env -> %s: the outside file's content leaked into the result", target)
		}
		if wantErr == "" && !strings.Contains(all, "secret-inside") {
			t.Errorf(".env -> %s (inside the root): not read", target)
		}
	}
}

// TestLoadTerraformFileStaysInRoot: file("env") through a symlink that
// leaves the root is an error entry, not the content of the target.
func TestLoadTerraformFileStaysInRoot(t *testing.T) {
	outside := t.TempDir()
	writeTree(t, outside, map[string]string{"env": "sasl.jaas.config=TOKEN-secret\n"})
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"tf/main.tf": `resource "aws_msk_configuration" "c" {
  server_properties = file("env")
}
`})
	symlink(t, filepath.Join(outside, "env"), filepath.Join(dir, "tf", "env"))
	res := loadWithin(t, []string{dir}, Options{Dir: dir})
	if got, want := strings.Join(errorMessages(res), "\n"), "tf/env: resolves outside the linted root"; got != want {
		t.Errorf("errors %q, want %q", got, want)
	}
	if strings.Contains(dump(t, res), "TOKEN-secret") {
		t.Error("the symlink target's content leaked into the result")
	}
}

func TestLoadMaxFileSize(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"big/server.properties":   broker + strings.Repeat("# padding\n", 20),
		"small/server.properties": broker,
	})
	res := loadWithin(t, []string{dir}, Options{Dir: dir, MaxFileSize: 100})
	if got, want := strings.Join(errorMessages(res), "\n"), "big/server.properties: larger than 100 bytes (--max-file-size)"; got != want {
		t.Errorf("errors %q, want %q", got, want)
	}
	if res.Files != 2 || len(res.Clusters) == 0 {
		t.Errorf("files %d, clusters %d: the small file must still load", res.Files, len(res.Clusters))
	}
}

// TestWalkSymlinks: links inside the root are followed (files under the
// link's name, directories walked once), links that leave it, dangle or
// loop are listed as skipped with the reason.
func TestWalkSymlinks(t *testing.T) {
	outside := t.TempDir()
	writeTree(t, outside, map[string]string{"x/server.properties": broker})
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"common/server.properties":  broker,
		"shared/kafka/a.properties": broker,
		"app/app.properties":        broker,
	})
	symlink(t, "common/server.properties", filepath.Join(dir, "prod-server.properties"))
	symlink(t, "shared/kafka", filepath.Join(dir, "linked"))
	symlink(t, "../shared/kafka", filepath.Join(dir, "app", "kafka"))
	symlink(t, filepath.Join(outside, "x", "server.properties"), filepath.Join(dir, "escape.properties"))
	symlink(t, "../"+filepath.Base(outside)+"/x", filepath.Join(dir, "escape-dir"))
	symlink(t, "missing.properties", filepath.Join(dir, "dangling.properties"))
	symlink(t, "..", filepath.Join(dir, "shared", "kafka", "up"))
	symlink(t, "b.properties", filepath.Join(dir, "a.properties"))
	symlink(t, "a.properties", filepath.Join(dir, "b.properties"))
	symlink(t, "README.real", filepath.Join(dir, "README")) // dangling, but no configuration: not listed
	symlink(t, "common", filepath.Join(dir, "common-again"))

	res := loadWithin(t, []string{dir}, Options{Dir: dir})
	var files []string
	for _, c := range res.Clusters {
		for _, f := range c.Files {
			files = append(files, f.Path)
		}
	}
	slices.Sort(files)
	wantFiles := []string{"app/app.properties", "common/server.properties", "prod-server.properties", "shared/kafka/a.properties"}
	if !slices.Equal(files, wantFiles) {
		t.Errorf("files %v, want %v", files, wantFiles)
	}
	want := []SkippedLink{
		{Path: "a.properties", Reason: "symlink loop"},
		{Path: "app/kafka", Reason: "symlink to a directory already walked"},
		{Path: "b.properties", Reason: "symlink loop"},
		{Path: "common-again", Reason: "symlink to a directory already walked"},
		{Path: "dangling.properties", Reason: "symlink target does not exist"},
		{Path: "escape-dir", Reason: "symlink leaves the root"},
		{Path: "escape.properties", Reason: "symlink leaves the root"},
		{Path: "linked", Reason: "symlink to a directory already walked"},
		{Path: "shared/kafka/up", Reason: "symlink loop"},
	}
	if !slices.Equal(res.SkippedLinks, want) {
		t.Errorf("skipped links:\n%v\nwant:\n%v", res.SkippedLinks, want)
	}
	if len(res.Errors) != 0 {
		t.Errorf("errors: %v", errorMessages(res))
	}

	// Walking app/ alone, its link to a directory elsewhere in the root is
	// followed; the link below it back up to shared/ finds shared/kafka
	// walked already.
	res = loadWithin(t, []string{filepath.Join(dir, "app")}, Options{Dir: dir})
	files = nil
	for _, c := range res.Clusters {
		for _, f := range c.Files {
			files = append(files, f.Path)
		}
	}
	slices.Sort(files)
	if want := []string{"app/app.properties", "app/kafka/a.properties"}; !slices.Equal(files, want) {
		t.Errorf("app/: files %v, want %v", files, want)
	}
	if len(res.SkippedLinks) != 0 || len(res.Errors) != 0 {
		t.Errorf("app/: skipped links %v, errors %v; want none", res.SkippedLinks, errorMessages(res))
	}
}

// TestNamedPathOutsideRoot: a path argument that is a symlink leaving the
// working directory is refused rather than followed.
func TestNamedPathOutsideRoot(t *testing.T) {
	outside := t.TempDir()
	writeTree(t, outside, map[string]string{"server.properties": broker})
	dir := t.TempDir()
	symlink(t, filepath.Join(outside, "server.properties"), filepath.Join(dir, "server.properties"))
	named := filepath.Join(dir, "server.properties")
	res := loadWithin(t, []string{named}, Options{Dir: dir})
	if got, want := strings.Join(errorMessages(res), "\n"), filepath.ToSlash(named)+": resolves outside the linted root"; got != want {
		t.Errorf("errors %q, want %q", got, want)
	}
	// Named from outside the working directory, the file's own directory
	// is the root.
	res = loadWithin(t, []string{filepath.Join(outside, "server.properties")}, Options{Dir: dir})
	if len(res.Errors) != 0 || len(res.Clusters) != 1 {
		t.Errorf("a file outside the working directory: errors %v, %d clusters", errorMessages(res), len(res.Clusters))
	}
}

// TestWalkListsOnlyRegularFiles: the walk marks as listed (read without a
// second type check before opening) exactly the entries its directory
// listing called regular files; a FIFO, a symlink and a file named on the
// command line are checked before they are opened.
func TestWalkListsOnlyRegularFiles(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"a/server.properties": broker, "b/server.properties": broker})
	fifotest.Make(t, filepath.Join(dir, "a", "pipe.properties"))
	symlink(t, "server.properties", filepath.Join(dir, "a", "link.properties"))
	roots := &rootSet{byDir: map[string]*safefs.Root{}}
	defer roots.close()
	res := &Result{}
	got := map[string]bool{}
	for _, in := range collect(context.Background(), []string{filepath.Join(dir, "a"), filepath.Join(dir, "b", "server.properties")}, dir, res, roots) {
		got[in.Display] = in.listed
	}
	want := map[string]bool{"a/server.properties": true, "a/pipe.properties": false, "a/link.properties": false, "b/server.properties": false}
	if !maps.Equal(got, want) {
		t.Errorf("listed inputs = %v, want %v", got, want)
	}
}
