package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kafkalint/kafkalint/lint"
	"github.com/kafkalint/kafkalint/loader"
	"github.com/kafkalint/kafkalint/report"
)

// TestOverlaySameAsDisk: with no buffer changed, the in-memory lint of an
// unsaved workspace reports what `kafkalint lint` reports on disk, for
// every format of examples/, including where an adapter reads a file
// beside the one it loads (a compose .env, terraform.tfvars, a chart's
// Chart.yaml): the in-memory load reads those in the workspace.
func TestOverlaySameAsDisk(t *testing.T) {
	if testing.Short() {
		t.Skip("lints examples/ twice (seconds)")
	}
	root, err := filepath.Abs("../examples")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	disk, err := lint.Run(ctx, []string{root}, lint.Options{Load: loaderDir(root)})
	if err != nil {
		t.Fatal(err)
	}
	load := loaderDir(root)
	load.SourceRoot = root
	mem, err := lint.Run(ctx, nil, lint.Options{Load: load, Sources: overlay(root, disk.Linted, nil, nil)})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(summary(disk), summary(mem)); diff != "" {
		t.Errorf("disk (-) and in-memory (+) lints differ:\n%s", diff)
	}
}

func summary(rep *report.Report) []string {
	var out []string
	for _, f := range rep.Findings {
		out = append(out, fmt.Sprintf("%s:%d %s %s", f.File, f.Line, f.ID, f.Message))
	}
	for _, e := range rep.Errors {
		out = append(out, e.Error())
	}
	return out
}

func loaderDir(root string) (o loaderOptions) { o.Dir = root; return o }

type loaderOptions = loader.Options

// TestDiagnosticsEveryFormat: a client whose workspace is examples/ gets,
// per file, exactly the findings of `kafkalint lint examples/`: every
// format, cross-file findings in the file they anchor to.
func TestDiagnosticsEveryFormat(t *testing.T) {
	if testing.Short() {
		t.Skip("lints examples/ twice (seconds)")
	}
	root, err := filepath.Abs("../examples")
	if err != nil {
		t.Fatal(err)
	}
	rep, err := lint.Run(context.Background(), []string{root}, lint.Options{Load: loaderDir(root)})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{}
	for _, f := range rep.Findings {
		want[f.File] = append(want[f.File], fmt.Sprintf("%d:%s", f.Line, f.ID))
	}
	c := start(t, time.Millisecond, nil)
	c.root = root
	c.initialize()
	c.notify("initialized", map[string]any{})
	got := map[string][]string{}
	for range want { // one publish per file with findings
		var p struct {
			URI         string `json:"uri"`
			Diagnostics []struct {
				Code  string `json:"code"`
				Range struct {
					Start struct{ Line int } `json:"start"`
				} `json:"range"`
			} `json:"diagnostics"`
		}
		if err := json.Unmarshal([]byte(c.nextDiagnostics()), &p); err != nil {
			t.Fatal(err)
		}
		file := strings.TrimPrefix(p.URI, "ROOT/")
		for _, d := range p.Diagnostics {
			got[file] = append(got[file], fmt.Sprintf("%d:%s", d.Range.Start.Line+1, d.Code))
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("kafkalint lint (-) and the diagnostics (+) differ:\n%s", diff)
	}
	formats := map[string]bool{}
	for f := range got {
		formats[filepath.Ext(f)] = true
	}
	for _, ext := range []string{".properties", ".yaml", ".yml", ".tf"} {
		if !formats[ext] {
			t.Errorf("no diagnostics in a %s file: %v", ext, formats)
		}
	}
}

// TestLintEvaluatesTheEditedCluster: the server keeps one evaluation
// cache across lints, on disk and from memory: after an edit of one file,
// only its cluster is evaluated again.
func TestLintEvaluatesTheEditedCluster(t *testing.T) {
	broker := "process.roles=broker\nnode.id=4\ncontroller.quorum.bootstrap.servers=%s.example.com:9093\ncontroller.listener.names=CONTROLLER\n"
	root := t.TempDir()
	writeAll(t, root, "prod/a/server.properties", fmt.Sprintf(broker, "a"))
	writeAll(t, root, "prod/b/server.properties", fmt.Sprintf(broker, "b"))
	s := newServer(Options{})
	s.root = root
	s.notify = func(string, any) {}
	s.lint(t.Context())
	n := s.cache.cache.Evaluated()
	if n != 2 {
		t.Fatalf("first lint evaluated %d clusters, want 2", n)
	}
	s.docs["prod/a/server.properties"] = fmt.Sprintf(broker, "a") + "num.io.threads=4\n"
	s.lint(t.Context())
	if d := s.cache.cache.Evaluated() - n; d != 1 {
		t.Errorf("the lint after editing one file evaluated %d clusters, want 1", d)
	}
	if len(s.linted) != 2 {
		t.Errorf("linted = %v, want both files", s.linted)
	}
}
