package cli

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kafkalint/kafkalint/internal/fifotest"
	"github.com/kafkalint/kafkalint/report"
)

// Issue 14 §4: an audited repository's configuration names only files
// inside that repository, and its custom policies run only with
// --allow-repo-policies; in lint, paths outside the repository need the
// command line.

func repoErrors(repos []report.AuditRepo, path string) []string {
	for _, r := range repos {
		if r.Path == path {
			var out []string
			for _, e := range r.Errors {
				out = append(out, e.File+": "+e.Message)
			}
			return out
		}
	}
	return nil
}

func TestAuditRepoConfigStaysInRepo(t *testing.T) {
	auditTree(t)
	writeFile(t, "repos/victim/thresholds.yaml", "custom: {victim_marker: 1}\n")
	writeFile(t, "repos/victim/prod/server.properties", cleanBroker)
	writeFile(t, "repos/evil/prod/server.properties", cleanBroker)
	writeFile(t, "repos/evil/.kafkalint.yaml", "data: [../victim/thresholds.yaml]\n")
	writeFile(t, "repos/evil2/prod/server.properties", cleanBroker)
	writeFile(t, "repos/evil2/.kafkalint.yaml", "data: [/etc/passwd]\npolicies: [../victim]\n")
	code, repos, _, stderr := auditReport(t, "audit", "--quiet", "--config", "audit.yaml", "--format", "json", "repos")
	if code != ExitError {
		t.Errorf("exit %d, want %d (repositories with errors)\n%s", code, ExitError, stderr)
	}
	for repo, want := range map[string][]string{
		"repos/evil":  {`data "../victim/thresholds.yaml" is outside the repository (evil)`},
		"repos/evil2": {`data "/etc/passwd" is outside the repository (evil2)`, `policies "../victim" is outside the repository (evil2)`},
	} {
		got := strings.Join(repoErrors(repos, repo), "\n")
		for _, w := range want {
			if !strings.Contains(got, w) {
				t.Errorf("%s errors %q, want %q", repo, got, w)
			}
		}
	}
	if got := repoErrors(repos, "repos/victim"); len(got) != 0 {
		t.Errorf("repos/victim errors %v, want none: the other repositories go on", got)
	}
}

func TestAuditRepoPoliciesNeedTheFlag(t *testing.T) {
	auditTree(t)
	writeAcmeRepo(t, ".")
	writeFile(t, "repos/acme/prod/server.properties", badBroker)
	// Its rules: may name the custom rule that does not run.
	writeFile(t, "repos/acme/.kafkalint.yaml", isolatedConfig(t, "policies: [policies]\n", "  ACME003: warning\n"))
	code, repos, _, _ := auditReport(t, "audit", "--quiet", "--format", "json", "repos")
	if code != ExitError {
		t.Errorf("exit %d, want %d", code, ExitError)
	}
	var acme *report.AuditRepo
	for i := range repos {
		if repos[i].Path == "repos/acme" {
			acme = &repos[i]
		}
	}
	if acme == nil {
		t.Fatal("no repos/acme in the report")
	}
	want := ".kafkalint.yaml: the custom policies this file names (1 path) were not run: policies from an audited repository run only with --allow-repo-policies"
	if got := repoErrors([]report.AuditRepo{*acme}, "repos/acme"); !slices.Equal(got, []string{want}) {
		t.Errorf("repos/acme errors %v, want [%s]", got, want)
	}
	ids := repoFindings(*acme)
	if slices.ContainsFunc(ids, func(s string) bool { return strings.Contains(s, "ACME003") }) {
		t.Errorf("repos/acme findings %v: the custom rule ran without --allow-repo-policies", ids)
	}
	if !slices.ContainsFunc(ids, func(s string) bool { return strings.Contains(s, "KFK1001") }) {
		t.Errorf("repos/acme findings %v: the built-in rules must still run", ids)
	}
}

func TestLintConfigPathsStayInRepo(t *testing.T) {
	t.Chdir(t.TempDir())
	writeFile(t, "outside/thresholds.yaml", "custom: {}\n")
	writeFile(t, "repo/.git/HEAD", "ref: refs/heads/main\n")
	writeFile(t, "repo/prod/server.properties", cleanBroker)
	writeFile(t, "repo/.kafkalint.yaml", "data: [../outside/thresholds.yaml]\n")
	t.Chdir("repo")
	code, _, stderr := run(t, "lint", "prod")
	if code != ExitError || !strings.Contains(stderr, `.kafkalint.yaml:1: data "../outside/thresholds.yaml" is outside the repository (repo)`) {
		t.Errorf("exit %d, stderr %q; want the data path refused", code, stderr)
	}
	// The command line may name it.
	writeFile(t, ".kafkalint.yaml", "fail_level: error\n")
	if code, _, stderr := run(t, "lint", "--data", "../outside/thresholds.yaml", "prod"); code == ExitError {
		t.Errorf("--data outside the repository: exit %d, stderr %q", code, stderr)
	}
}

func TestMaxFileSizeFlag(t *testing.T) {
	t.Chdir(t.TempDir())
	writeFile(t, "prod/server.properties", cleanBroker)
	code, out, _ := run(t, "lint", "--max-file-size", "64", "prod")
	if code != ExitError || !strings.Contains(out, "prod/server.properties: load error larger than 64 bytes (--max-file-size)") {
		t.Errorf("exit %d, output %q; want the file refused", code, out)
	}
	if code, out, _ := run(t, "inspect", "--max-file-size", "64", "prod"); code != ExitError || !strings.Contains(out, "larger than 64 bytes") {
		t.Errorf("inspect: exit %d, output %q", code, out)
	}
	if code, _, stderr := run(t, "lint", "--max-file-size", "12X", "prod"); code != ExitError || !strings.Contains(stderr, "invalid size") {
		t.Errorf("bad size: exit %d, stderr %q", code, stderr)
	}
	if code, out, _ := run(t, "lint", "--max-file-size", "1M", "prod"); code == ExitError {
		t.Errorf("1M: exit %d, output %q", code, out)
	}
}

func TestLintReportsSkippedLinks(t *testing.T) {
	outside := t.TempDir()
	writeFile(t, filepath.Join(outside, "server.properties"), cleanBroker)
	t.Chdir(t.TempDir())
	writeFile(t, "prod/a/server.properties", cleanBroker)
	if err := os.Symlink(filepath.Join(outside, "server.properties"), "prod/b.properties"); err != nil {
		t.Fatal(err)
	}
	_, out, _ := run(t, "lint", "prod")
	if !strings.Contains(out, "; 1 symlink not followed: prod/b.properties (symlink leaves the root)") {
		t.Errorf("output %q: want the link listed in the summary", out)
	}
}

// TestBaselineFIFO: a baseline committed as a named pipe is refused, not
// waited on.
func TestBaselineFIFO(t *testing.T) {
	t.Chdir(t.TempDir())
	writeFile(t, "prod/server.properties", cleanBroker)
	fifotest.Make(t, "baseline.json")
	done := make(chan string, 1)
	go func() {
		_, _, stderr := run(t, "lint", "--baseline", "baseline.json", "prod")
		done <- stderr
	}()
	select {
	case stderr := <-done:
		if !strings.Contains(stderr, "baseline baseline.json: not a regular file (named pipe)") {
			t.Errorf("stderr %q", stderr)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("lint blocked on a FIFO baseline")
	}
}

// TestAuditRepoConfigFIFO: a repository whose .kafkalint.yaml is a named
// pipe is that repository's error, not a hung audit.
func TestAuditRepoConfigFIFO(t *testing.T) {
	auditTree(t)
	writeFile(t, "repos/fifo/prod/server.properties", cleanBroker)
	fifotest.Make(t, "repos/fifo/.kafkalint.yaml")
	done := make(chan string, 1)
	go func() {
		_, out, _ := run(t, "audit", "--quiet", "--config", "audit.yaml", "--format", "json", "repos")
		done <- out
	}()
	select {
	case out := <-done:
		var repos []report.AuditRepo
		if _, err := report.ReadAuditJSON(strings.NewReader(out), nil, func(r *report.AuditRepo) error {
			repos = append(repos, *r)
			return nil
		}); err != nil {
			t.Fatalf("not an audit report: %v\n%s", err, out)
		}
		got := strings.Join(repoErrors(repos, "repos/fifo"), "\n")
		if !strings.Contains(got, "not a regular file (named pipe)") {
			t.Errorf("repos/fifo errors %q, want the named pipe refused", got)
		}
		if len(repoErrors(repos, "repos/clean")) != 0 {
			t.Error("repos/clean has errors: the other repositories must go on")
		}
	case <-time.After(20 * time.Second):
		t.Fatal("audit blocked on a FIFO .kafkalint.yaml")
	}
}

// TestTestCommandReadsInsideRepo: `kafkalint test` reads the policies
// .kafkalint.yaml names inside its repository, as lint does.
func TestTestCommandReadsInsideRepo(t *testing.T) {
	outside := t.TempDir()
	writeFile(t, filepath.Join(outside, "x_test.rego"), "package custom.x_test\n\ntest_ok if true\n")
	t.Chdir(t.TempDir())
	writeFile(t, ".git/HEAD", "ref: refs/heads/main\n")
	writeFile(t, ".kafkalint.yaml", "policies: [policies]\n")
	if err := os.MkdirAll("policies", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "x_test.rego"), "policies/x_test.rego"); err != nil {
		t.Fatal(err)
	}
	code, out, stderr := run(t, "test")
	if code != ExitError || !strings.Contains(stderr, "policies/x_test.rego: cannot read policy: resolves outside the linted root") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, stderr)
	}
}

// TestBaselineSymlinkOutside: a committed baseline that is a symlink to a
// file outside the repository is not read, and --write-baseline replaces
// the link instead of writing through it (review of issue 14).
func TestBaselineSymlinkOutside(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "victim.json")
	if err := os.WriteFile(outside, []byte(`{"version": 1, "findings": []}`), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir())
	writeFile(t, "prod/server.properties", cleanBroker+"offsets.topic.replication.factor=1\n")
	if err := os.Symlink(outside, "baseline.json"); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := run(t, "lint", "--baseline", "baseline.json", "prod"); code != ExitError || !strings.Contains(stderr, "outside") {
		t.Errorf("exit %d, stderr %q: want the outside read refused", code, stderr)
	}
	run(t, "lint", "--write-baseline", "baseline.json", "prod")
	if data, err := os.ReadFile(outside); err != nil || string(data) != `{"version": 1, "findings": []}` {
		t.Errorf("the file outside was written through the link: %q, %v", data, err)
	}
	if info, err := os.Lstat("baseline.json"); err != nil || info.Mode()&os.ModeSymlink != 0 {
		t.Errorf("baseline.json is still the link: %v, %v", info, err)
	}
}
