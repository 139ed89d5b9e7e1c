package cli

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// needTool finds a program the test runs: required in CI, else the test
// is skipped when it is missing.
func needTool(t *testing.T, name, install string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("%s is required in CI (%s)", name, install)
		}
		t.Skipf("%s not installed (%s)", name, install)
	}
	return p
}

// runIn runs a command in dir with env added to the environment and
// returns its combined output and exit code.
func runIn(t *testing.T, dir string, env []string, name string, args ...string) (string, int) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return out.String(), 0
	case errors.As(err, &ee):
		return out.String(), ee.ExitCode()
	}
	t.Fatalf("%s %v: %v\n%s", name, args, err, out.String())
	return "", -1
}

// copyModule copies the repository's files (tracked and untracked, not
// ignored: what `go build` sees) into dir. pre-commit clones hook
// repositories at a commit, and this working tree may be uncommitted.
func copyModule(t *testing.T, root, dir string) {
	t.Helper()
	var files []string
	out, code := runIn(t, root, nil, "git", "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	if code == 0 {
		for _, f := range strings.Split(out, "\x00") {
			if f != "" {
				files = append(files, f)
			}
		}
	} else {
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || (d.IsDir() && d.Name() == ".git") {
				if err == nil {
					return filepath.SkipDir
				}
				return err
			}
			if !d.IsDir() {
				rel, _ := filepath.Rel(root, p)
				files = append(files, rel)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join(root, f))
		if err != nil {
			continue // deleted in the working tree
		}
		writeFile(t, filepath.Join(dir, f), string(data))
	}
}

// TestPreCommitHooks runs the real pre-commit tool with this repository's
// .pre-commit-hooks.yaml (language: golang, so pre-commit builds kafkalint
// itself with `go install ./...`) in a fresh git repository: a bad staged
// file blocks the commit and prints the finding, a good one passes, and a
// finding in a file that is not being committed does not block it.
//
// pre-commit installs golang hooks into a GOPATH of its own, so the build
// is pointed at the module cache `go test` already filled (GOMODCACHE) with
// GOPROXY=off: no network, and a dependency missing from go.mod fails here
// as it would for users.
func TestPreCommitHooks(t *testing.T) {
	preCommit := needTool(t, "pre-commit", "Debian: apt-get install -y pre-commit")
	needTool(t, "git", "apt-get install -y git")
	goBin := needTool(t, "go", "the Go toolchain")
	if testing.Short() {
		t.Skip("builds kafkalint through pre-commit")
	}
	isolateGit(t)
	modCache, code := runIn(t, ".", nil, goBin, "env", "GOMODCACHE")
	if code != 0 {
		t.Fatal(modCache)
	}
	env := []string{
		"PRE_COMMIT_HOME=" + t.TempDir(),
		"GOMODCACHE=" + strings.TrimSpace(modCache),
		"GOPROXY=off",
		// Same build flags as `go test`, so the dependencies compiled for
		// the test binary are reused from the build cache (-trimpath would
		// rebuild all of them once).
		"GOFLAGS=-buildvcs=false",
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com",
		"NO_COLOR=1",
	}
	git := func(dir string, args ...string) string {
		t.Helper()
		out, code := runIn(t, dir, env, "git", append([]string{"-c", "commit.gpgsign=false", "-c", "init.defaultBranch=main"}, args...)...)
		if code != 0 {
			t.Fatalf("git %v: exit %d\n%s", args, code, out)
		}
		return out
	}

	hooks := t.TempDir()
	copyModule(t, repoRoot(t), hooks)
	git(hooks, "init", "-q")
	git(hooks, "add", "-A")
	git(hooks, "commit", "-q", "-m", "kafkalint")
	rev := strings.TrimSpace(git(hooks, "rev-parse", "HEAD"))

	repo := t.TempDir()
	git(repo, "init", "-q")
	writeFile(t, filepath.Join(repo, ".pre-commit-config.yaml"),
		"repos:\n  - repo: "+hooks+"\n    rev: "+rev+"\n    hooks:\n      - id: kafkalint\n      - id: kafkalint-files\n")
	writeFile(t, repo+"/.kafkalint.yaml", isolatedConfig(t, "", ""))
	// A finding committed earlier (without the hook): the kafkalint hook
	// must not block unrelated commits because of it.
	writeFile(t, repo+"/legacy/prod/server.properties", strings.Replace(cleanBroker, "c1.", "legacy.", 1)+"offsets.topic.replication.factor=1\n")
	git(repo, "add", "-A")
	git(repo, "commit", "-q", "-m", "setup")
	if out, code := runIn(t, repo, env, preCommit, "install"); code != 0 {
		t.Fatalf("pre-commit install: exit %d\n%s", code, out)
	}

	bad := repo + "/deploy/prod/server.properties"
	writeFile(t, bad, cleanBroker+"offsets.topic.replication.factor=1\n")
	git(repo, "add", "-A")
	out, code := runIn(t, repo, env, "git", "commit", "-m", "bad broker")
	if code == 0 {
		t.Fatalf("a bad staged file was committed:\n%s", out)
	}
	t.Logf("bad commit output:\n%s", out)
	if strings.Count(out, "deploy/prod/server.properties:6:1: error KFK1001 ") != 2 || strings.Contains(out, "legacy/") {
		t.Errorf("both hooks must report the staged file's KFK1001, and nothing about legacy/:\n%s", out)
	}

	writeFile(t, bad, cleanBroker)
	git(repo, "add", "-A")
	if out, code := runIn(t, repo, env, "git", "commit", "-m", "good broker"); code != 0 {
		t.Errorf("a good staged file was rejected: exit %d\n%s", code, out)
	} else if !strings.Contains(out, "kafkalint (staged files only)") || strings.Count(out, "Passed") < 2 {
		t.Errorf("the hooks did not run and pass:\n%s", out)
	}
}
