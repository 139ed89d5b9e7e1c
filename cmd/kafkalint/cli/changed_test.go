package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/kafkalint/kafkalint/report"
)

// gitCmd runs git in the working directory with a configuration of its own.
func gitCmd(t *testing.T, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=kafkalint test", "-c", "user.email=test@example.com", "-c", "commit.gpgsign=false", "-c", "init.defaultBranch=main"}, args...)...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// isolateGit keeps the user's git configuration out of the test.
func isolateGit(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("git is required in CI")
		}
		t.Skip("git not installed")
	}
	t.Setenv("GIT_CONFIG_GLOBAL", os.DevNull)
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
}

func TestNewFromRev(t *testing.T) {
	isolateGit(t)
	t.Chdir(t.TempDir())
	isolate(t)
	writeFile(t, "prod/a/server.properties", cleanBroker+"offsets.topic.replication.factor=1\n")
	writeFile(t, "prod/b/server.properties", strings.Replace(cleanBroker, "c1.", "c2.", 1)+"auto.leader.rebalance.enable=false\n")
	writeFile(t, ".gitignore", "ignored/\n")
	gitCmd(t, "init", "-q")
	gitCmd(t, "add", ".")
	gitCmd(t, "commit", "-q", "-m", "initial")

	code, rep := lintJSON(t, "--new-from-rev", "HEAD", ".")
	if code != ExitOK || len(rep.Findings) != 0 || rep.Summary.Files != 2 || rep.Summary.Filtered != 2 {
		t.Errorf("nothing changed: exit %d, findings %v, files %d, filtered %d; want 0, none, 2 analyzed, 2 filtered out",
			code, found(rep), rep.Summary.Files, rep.Summary.Filtered)
	}
	// The text summary says what the filter hid instead of looking clean.
	if _, out, _ := run(t, "lint", "--new-from-rev", "HEAD", "."); !strings.Contains(out, "0 errors, 0 warnings, 0 info; not shown: 2 outside the changed files\n") {
		t.Errorf("text summary does not count the findings outside the changed files:\n%s", out)
	}

	// Change b (staged or not does not matter), add an untracked file and
	// an ignored one: a's finding is old and not reported.
	writeFile(t, "prod/b/server.properties", strings.Replace(cleanBroker, "c1.", "c2.", 1)+"auto.leader.rebalance.enable=false\nnum.partitions=1\nnum.partitions=2\n")
	writeFile(t, "prod/c/server.properties", strings.Replace(cleanBroker, "c1.", "c3.", 1)+"offsets.topic.replication.factor=1\n")
	writeFile(t, "ignored/server.properties", strings.Replace(cleanBroker, "c1.", "c4.", 1)+"offsets.topic.replication.factor=1\n")
	code, rep = lintJSON(t, "--new-from-rev", "HEAD", ".")
	want := []string{
		"prod/b/server.properties:6:KFK4003",
		"prod/b/server.properties:8:KFK9001",
		"prod/c/server.properties:6:KFK1001",
	}
	if diff := gocmp.Diff(want, found(rep)); diff != "" {
		t.Errorf("findings mismatch (-want +got):\n%s", diff)
	}
	if code != ExitFindings || rep.Summary.Files != 4 || rep.Summary.Filtered != 2 {
		t.Errorf("exit %d, files %d, filtered %d; want 1, all 4 files analyzed, a's and the ignored file's findings filtered out", code, rep.Summary.Files, rep.Summary.Filtered)
	}

	// A commit later, HEAD~1 still sees b and c as changed; from a
	// subdirectory the paths are resolved the same way.
	gitCmd(t, "add", ".")
	gitCmd(t, "commit", "-q", "-m", "second")
	t.Chdir("prod")
	_, rep = lintJSON(t, "--new-from-rev", "HEAD~1", ".")
	want = []string{"b/server.properties:6:KFK4003", "b/server.properties:8:KFK9001", "c/server.properties:6:KFK1001"}
	if diff := gocmp.Diff(want, found(rep)); diff != "" {
		t.Errorf("from prod/, HEAD~1: findings mismatch (-want +got):\n%s", diff)
	}

	code, _, errOut := run(t, "lint", "--new-from-rev", "no-such-rev", ".")
	if code != ExitError || !strings.Contains(errOut, `--new-from-rev no-such-rev: unknown git revision "no-such-rev"`) {
		t.Errorf("bad revision: exit %d, %s", code, errOut)
	}
}

func TestNewFromRevOutsideGit(t *testing.T) {
	isolateGit(t)
	dir := t.TempDir()
	t.Chdir(dir)
	t.Setenv("GIT_CEILING_DIRECTORIES", dir)
	writeFile(t, "prod/server.properties", cleanBroker)
	code, _, errOut := run(t, "lint", "--new-from-rev", "HEAD", ".")
	if code != ExitError || !strings.Contains(errOut, "not a git repository") {
		t.Errorf("outside a repository: exit %d, %s", code, errOut)
	}
}

// TestContext: --context analyzes the directory, and only findings
// touching the PATH arguments are reported (the pre-commit hook).
func TestContext(t *testing.T) {
	t.Chdir(t.TempDir())
	isolate(t)
	writeFile(t, "prod/a/server.properties", cleanBroker+"offsets.topic.replication.factor=1\n")
	writeFile(t, "prod/b/server.properties", strings.Replace(cleanBroker, "c1.", "c2.", 1)+"auto.leader.rebalance.enable=false\n")
	writeFile(t, "docs/notes.yaml", "not: kafka\n")
	code, rep := lintJSON(t, "--context", ".", "prod/b/server.properties", "docs/notes.yaml")
	if diff := gocmp.Diff([]string{"prod/b/server.properties:6:KFK4003"}, found(rep)); diff != "" || code != ExitOK {
		t.Errorf("exit %d; findings mismatch (-want +got):\n%s", code, diff)
	}
	if n := rep.Summary.Files - rep.Summary.Skipped; n != 2 || rep.Summary.Filtered != 1 {
		t.Errorf("%d Kafka files analyzed, %d findings filtered out; want the whole directory's 2, a's 1", n, rep.Summary.Filtered)
	}
	summary := filepath.Join(t.TempDir(), "summary.md")
	t.Setenv("GITHUB_STEP_SUMMARY", summary)
	run(t, "lint", "--format", "github", "--context", ".", "prod/b/server.properties")
	if b, err := os.ReadFile(summary); err != nil || !strings.Contains(string(b), "(not shown: 1 outside the changed files)") {
		t.Errorf("GitHub step summary does not count the finding outside the PATH arguments (%v):\n%s", err, b)
	}
	code, rep = lintJSON(t, "--context", ".", "prod")
	if len(rep.Findings) != 2 || code != ExitFindings {
		t.Errorf("a directory argument keeps everything under it: exit %d, %v", code, found(rep))
	}
	if code, _, errOut := run(t, "lint", "--context", ".", "missing.properties"); code != ExitError || !strings.Contains(errOut, "missing.properties") {
		t.Errorf("missing PATH: exit %d, %s", code, errOut)
	}
}

func TestPathFilterKeepsRelatedFindings(t *testing.T) {
	t.Chdir(t.TempDir())
	writeFile(t, "a/server.properties", "")
	keep, err := existingPaths([]string{"a/server.properties"}, realPaths{})
	if err != nil {
		t.Fatal(err)
	}
	anchoredElsewhere := report.Finding{ID: "KFK3010", File: "b/server.properties", Related: []report.Location{{File: "a/server.properties", Line: 3}}}
	unrelated := report.Finding{ID: "KFK3010", File: "b/server.properties", Related: []report.Location{{File: "c/server.properties", Line: 3}}}
	if !keep.keeps(anchoredElsewhere) || keep.keeps(unrelated) || !keep.keeps(report.Finding{File: "./a/server.properties"}) {
		t.Error("pathFilter must keep findings anchored in or related to its files, and only those")
	}
	if newPathFilter(realPaths{}).keeps(anchoredElsewhere) {
		t.Error("an empty filter (nothing changed) must keep nothing")
	}
}
