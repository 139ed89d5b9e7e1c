package cli

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// The GitHub Action (action.yml and action/install.sh), run locally: the
// steps' scripts with the environment the runner would give them.

type actionStep struct {
	Name string            `yaml:"name"`
	ID   string            `yaml:"id"`
	If   string            `yaml:"if"`
	Uses string            `yaml:"uses"`
	Run  string            `yaml:"run"`
	Env  map[string]string `yaml:"env"`
	With map[string]string `yaml:"with"`
}

type actionFile struct {
	Inputs map[string]struct {
		Default string `yaml:"default"`
	} `yaml:"inputs"`
	Runs struct {
		Using string       `yaml:"using"`
		Steps []actionStep `yaml:"steps"`
	} `yaml:"runs"`
}

func readAction(t *testing.T) actionFile {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(repoRoot(t), "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var a actionFile
	if err := yaml.Unmarshal(data, &a); err != nil {
		t.Fatal(err)
	}
	if a.Runs.Using != "composite" {
		t.Fatalf("action.yml: runs.using %q, want composite", a.Runs.Using)
	}
	return a
}

func (a actionFile) step(t *testing.T, name string) actionStep {
	t.Helper()
	for _, s := range a.Runs.Steps {
		if s.Name == name {
			return s
		}
	}
	t.Fatalf("action.yml has no step %q", name)
	return actionStep{}
}

// TestActionSteps: every value a step reads is an input, an earlier
// step's output or a context the runner fills; the install and build steps
// run action/install.sh; nothing reaches later steps of the user's job (no
// setup-go, no PATH or environment file written, Go's caches in the
// runner's temp directory).
func TestActionSteps(t *testing.T) {
	a := readAction(t)
	contexts := []string{"${{ inputs.", "${{ steps.release.outputs.", "${{ github.action_", "${{ runner.temp }}"}
	for _, s := range a.Runs.Steps {
		if strings.HasPrefix(s.Uses, "actions/setup-go") {
			t.Errorf("step %q: setup-go changes PATH and GOROOT for the rest of the job", s.Name)
		}
		if strings.Contains(s.Run, "GITHUB_PATH") || strings.Contains(s.Run, "GITHUB_ENV") {
			t.Errorf("step %q writes the job's PATH or environment", s.Name)
		}
		for name, val := range s.Env {
			known := !strings.Contains(val, "${{")
			for _, c := range contexts {
				known = known || strings.HasPrefix(val, c)
			}
			if name, ok := strings.CutPrefix(val, "${{ inputs."); ok {
				_, known = a.Inputs[strings.TrimSuffix(name, " }}")]
			}
			if !known {
				t.Errorf("step %q: env %s = %s: not an input, an output of the install step or a runner context", s.Name, name, val)
			}
		}
	}
	script, err := os.ReadFile(filepath.Join(repoRoot(t), "action", "install.sh"))
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(script, []byte("GITHUB_PATH")) || bytes.Contains(script, []byte("GITHUB_ENV")) {
		t.Error("action/install.sh writes the job's PATH or environment")
	}
	for _, name := range []string{"Install kafkalint", "Build kafkalint"} {
		if s := a.step(t, name); !strings.Contains(s.Run, `"$ACTION_PATH/action/install.sh"`) {
			t.Errorf("step %q does not run action/install.sh: %q", name, s.Run)
		}
	}
	build := a.step(t, "Build kafkalint")
	for _, v := range []string{"GOPATH", "GOMODCACHE", "GOCACHE"} {
		if !strings.HasPrefix(build.Env[v], "${{ runner.temp }}/") {
			t.Errorf("the build's %s is %q: want a directory of its own under runner.temp", v, build.Env[v])
		}
	}
	if c := a.step(t, "Cache the kafkalint build"); !strings.HasPrefix(c.Uses, "actions/cache@") || c.If != build.If {
		t.Errorf("the cache step (%q, if %q) must be actions/cache, under the build's condition %q", c.Uses, c.If, build.If)
	}
}

// runnerPlatform is the runner's RUNNER_OS and RUNNER_ARCH for this
// machine, and the name of the release archive's binary.
func runnerPlatform(t *testing.T) (osName, arch, exe string) {
	t.Helper()
	osName = map[string]string{"linux": "Linux", "darwin": "macOS", "windows": "Windows"}[runtime.GOOS]
	arch = map[string]string{"amd64": "X64", "arm64": "ARM64"}[runtime.GOARCH]
	if osName == "" || arch == "" {
		t.Skipf("no kafkalint release for %s/%s", runtime.GOOS, runtime.GOARCH)
	}
	exe = "kafkalint"
	if runtime.GOOS == "windows" {
		exe += ".exe"
	}
	return osName, arch, exe
}

// fakeRelease writes a release as GoReleaser publishes it
// (.goreleaser.yaml) under dir/TAG/: this platform's archive holding the
// binary, and the checksums file (sums replaces it when not empty).
func fakeRelease(t *testing.T, dir, tag string, binary []byte, sums string) {
	t.Helper()
	_, _, exe := runnerPlatform(t)
	name := fmt.Sprintf("kafkalint_%s_%s_%s", strings.TrimPrefix(tag, "v"), runtime.GOOS, runtime.GOARCH)
	var archive bytes.Buffer
	if runtime.GOOS == "windows" {
		name += ".zip"
		zw := zip.NewWriter(&archive)
		w, err := zw.Create(exe)
		if err == nil {
			_, err = w.Write(binary)
		}
		if err != nil || zw.Close() != nil {
			t.Fatal(err)
		}
	} else {
		name += ".tar.gz"
		gz := gzip.NewWriter(&archive)
		tw := tar.NewWriter(gz)
		for _, f := range []struct {
			name string
			data []byte
		}{{"README.md", []byte("# kafkalint\n")}, {exe, binary}} {
			if err := tw.WriteHeader(&tar.Header{Name: f.name, Mode: 0o755, Size: int64(len(f.data))}); err != nil {
				t.Fatal(err)
			}
			if _, err := tw.Write(f.data); err != nil {
				t.Fatal(err)
			}
		}
		if tw.Close() != nil || gz.Close() != nil {
			t.Fatal("tar.gz")
		}
	}
	sum := sha256.Sum256(archive.Bytes())
	if sums == "" {
		sums = hex.EncodeToString(sum[:]) + "  " + name + "\n" + strings.Repeat("0", 64) + "  kafkalint_other_platform.tar.gz\n"
	}
	writeFile(t, filepath.Join(dir, tag, name), archive.String())
	writeFile(t, filepath.Join(dir, tag, "kafkalint_"+strings.TrimPrefix(tag, "v")+"_checksums.txt"), sums)
}

// runInstall runs action/install.sh as the Action's steps do, with the
// Action at ref, and returns its log, exit code and step outputs.
func runInstall(t *testing.T, releases string, env []string, args ...string) (string, int, map[string]string) {
	t.Helper()
	bash := needTool(t, "bash", "apt-get install -y bash")
	needTool(t, "curl", "apt-get install -y curl")
	osName, arch, _ := runnerPlatform(t)
	tmp := t.TempDir()
	outputs := filepath.Join(tmp, "github-output")
	writeFile(t, outputs, "")
	env = append([]string{"RUNNER_OS=" + osName, "RUNNER_ARCH=" + arch, "RUNNER_TEMP=" + tmp, "GITHUB_OUTPUT=" + outputs,
		"ACTION_PATH=" + repoRoot(t), "ACTION_REPOSITORY=kafkalint/kafkalint", "KAFKALINT_VERSION=", "ACTION_REF=",
		"KAFKALINT_DOWNLOAD_URL=file://" + filepath.ToSlash(releases)}, env...)
	out, code := runIn(t, tmp, env, bash, append([]string{filepath.Join(repoRoot(t), "action", "install.sh")}, args...)...)
	data, err := os.ReadFile(outputs)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for line := range strings.Lines(string(data)) {
		k, v, _ := strings.Cut(strings.TrimSuffix(line, "\n"), "=")
		got[k] = v
	}
	return out, code, got
}

// TestActionInstallRelease: at a release tag the Action downloads that
// release's archive for the runner, checks it against the checksums file
// and runs the binary inside; a checksum mismatch fails the step, and so
// does an archive the checksums list but the release lacks.
func TestActionInstallRelease(t *testing.T) {
	releases := t.TempDir()
	fake := []byte("#!/bin/sh\necho \"release kafkalint $*\"\n")
	fakeRelease(t, releases, "v1.2.3", fake, "")

	for _, env := range [][]string{{"ACTION_REF=v1.2.3"}, {"ACTION_REF=", "KAFKALINT_VERSION=v1.2.3"}} {
		out, code, got := runInstall(t, releases, env, "release")
		if code != 0 || got["build"] != "false" || !strings.Contains(out, "installed release v1.2.3 (kafkalint_1.2.3_") {
			t.Fatalf("%v: exit %d, outputs %v\n%s", env, code, got, out)
		}
		// The run step runs what the install step installed.
		a := readAction(t)
		bash := needTool(t, "bash", "apt-get install -y bash")
		out, code = runIn(t, t.TempDir(), []string{"KAFKALINT_BIN=" + got["path"], "KAFKALINT_PATHS=.", "KAFKALINT_FORMATS=github",
			"KAFKALINT_FAIL_LEVEL=", "KAFKALINT_ARGS="}, bash, "-c", a.step(t, "Run kafkalint").Run)
		if code != 0 || !strings.Contains(out, "release kafkalint lint --format github -- .") {
			t.Errorf("%v: the run step did not run the installed binary: exit %d\n%s", env, code, out)
		}
	}

	// The archive's bytes differ from what the checksums file says.
	fakeRelease(t, releases, "v1.2.4", fake, "")
	archive, _ := filepath.Glob(filepath.Join(releases, "v1.2.4", "kafkalint_1.2.4_*_*.*"))
	if len(archive) != 1 {
		t.Fatalf("archives %v", archive)
	}
	writeFile(t, archive[0], "tampered")
	out, code, got := runInstall(t, releases, []string{"ACTION_REF=v1.2.4"}, "release")
	if code == 0 || !strings.Contains(out, "::error title=kafkalint::checksum mismatch for kafkalint_1.2.4_") || got["path"] != "" || got["build"] != "" {
		t.Errorf("a tampered archive: exit %d, outputs %v\n%s", code, got, out)
	}
	if err := os.Remove(archive[0]); err != nil {
		t.Fatal(err)
	}
	out, code, _ = runInstall(t, releases, []string{"ACTION_REF=v1.2.4"}, "release")
	if code == 0 || !strings.Contains(out, "::error title=kafkalint::could not download") {
		t.Errorf("an archive listed but missing: exit %d\n%s", code, out)
	}

	out, code, _ = runInstall(t, releases, []string{"KAFKALINT_VERSION=v1.2.3/../../x"}, "release")
	if code == 0 || !strings.Contains(out, "is not a release tag") {
		t.Errorf("a version input that is not a tag: exit %d\n%s", code, out)
	}
}

// TestActionFallback: without a release to use the install step asks for
// the fallback build, keyed by the Action's source and the platform; the
// build step builds kafkalint at the Action's commit, and a restored
// cache is used as it is.
func TestActionFallback(t *testing.T) {
	releases := t.TempDir()
	fakeRelease(t, releases, "v1.2.3", []byte("#!/bin/sh\n"), "")
	osName, arch, exe := runnerPlatform(t)
	const commit = "0123456789abcdef0123456789abcdef01234567"
	// The ref read from the Action's path, when github.action_ref is empty.
	branch := filepath.Join(t.TempDir(), "_actions", "kafkalint", "kafkalint", "main")
	writeFile(t, filepath.Join(branch, "go.mod"), "module github.com/kafkalint/kafkalint\n")
	keys := map[string][]string{} // cache key → the cases that got it
	for _, tt := range []struct {
		env  []string
		why  string
		arch string
	}{
		{[]string{"ACTION_REF=" + commit}, `the Action's ref "` + commit + `" is not a release tag`, arch},
		{[]string{"ACTION_REF=v9.9.9"}, "no release v9.9.9 (could not download file://", arch},
		{[]string{"ACTION_REF=v1.2.3", "RUNNER_ARCH=ARM"}, "no release archive for " + osName + "/ARM", "ARM"},
		{[]string{"ACTION_REF=", "ACTION_PATH=" + branch}, `the Action's ref "main" is not a release tag`, arch},
	} {
		out, code, got := runInstall(t, releases, tt.env, "release")
		if code != 0 || got["build"] != "true" || !strings.Contains(out, "kafkalint: "+tt.why) || !strings.Contains(out, "; building it from the Action's source") ||
			!strings.HasPrefix(got["cache-key"], "kafkalint-build-"+osName+"-"+tt.arch+"-") ||
			got["path"] != got["cache-dir"]+"/"+exe {
			t.Errorf("%v: exit %d, outputs %v\n%s", tt.env, code, got, out)
		}
		keys[got["cache-key"]] = append(keys[got["cache-key"]], strings.Join(tt.env, " "))
	}
	// One key per source and platform, whatever the ref: the first two
	// cases share one, the other platform and the other source differ.
	if len(keys) != 3 {
		t.Errorf("cache keys: %v", keys)
	}

	if testing.Short() {
		t.Skip("the fallback's go build")
	}
	goBin := needTool(t, "go", "the Go toolchain")
	goEnv, code := runIn(t, ".", nil, goBin, "env", "GOMODCACHE", "GOROOT")
	modCache, goroot, _ := strings.Cut(strings.TrimSpace(goEnv), "\n")
	if code != 0 {
		t.Fatal(goEnv)
	}
	// The test's own Go environment and module cache, offline: the build
	// flags of `go test`, so its compiled packages are reused. PATH has no
	// go: the script finds the one a GOROOT_1_N_ARCH variable names, as
	// GitHub's images set them.
	var path []string
	for _, dir := range filepath.SplitList(os.Getenv("PATH")) {
		if _, err := os.Stat(filepath.Join(dir, "go")); err != nil {
			path = append(path, dir)
		}
	}
	env := []string{"ACTION_REF=" + commit, "GOPROXY=off", "GOMODCACHE=" + modCache, "PATH=" + strings.Join(path, string(os.PathListSeparator))}
	bin := filepath.Join(t.TempDir(), "cache", exe)
	out, code, _ := runInstall(t, releases, env, "build", bin)
	if code == 0 || !strings.Contains(out, "::error title=kafkalint::no release binary to download and no Go on the runner") {
		t.Errorf("no Go anywhere: exit %d\n%s", code, out)
	}
	out, code, _ = runInstall(t, releases, append(env, "GOROOT_1_20_X64=/zz/older", "GOROOT_1_99_X64="+goroot), "build", bin)
	if code != 0 || !strings.Contains(out, "kafkalint: go build at "+commit+" with go version") {
		t.Fatalf("fallback build: exit %d\n%s", code, out)
	}
	out, code = runIn(t, ".", nil, bin, "version")
	if code != 0 || !strings.Contains(out, "\ncommit: "+commit+"\n") {
		t.Errorf("the fallback build does not say its commit: exit %d\n%s", code, out)
	}
	// A cache hit: the binary is there, nothing is built.
	writeFile(t, bin, "#!/bin/sh\n")
	if err := os.Chmod(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	out, code, _ = runInstall(t, releases, append(env, "PATH=/nonexistent"), "build", bin)
	if code != 0 || !strings.Contains(out, "using the build restored from the cache") {
		t.Errorf("a cached build: exit %d\n%s", code, out)
	}
}

// TestActionScript runs the action's "Run kafkalint" step with a kafkalint
// built from this tree: inputs become flags, paths stay unglobbed, and
// the exit code is kafkalint's.
func TestActionScript(t *testing.T) {
	bash := needTool(t, "bash", "apt-get install -y bash")
	goBin := needTool(t, "go", "the Go toolchain")
	if testing.Short() {
		t.Skip("builds kafkalint")
	}
	action := readAction(t)
	script := action.step(t, "Run kafkalint").Run
	bin := filepath.Join(t.TempDir(), "kafkalint")
	if out, code := runIn(t, repoRoot(t), nil, goBin, "build", "-o", bin, "./cmd/kafkalint"); code != 0 {
		t.Fatalf("go build: %s", out)
	}
	work := t.TempDir()
	writeFile(t, work+"/.kafkalint.yaml", isolatedConfig(t, "", ""))
	writeFile(t, work+"/prod/server.properties", cleanBroker+"auto.leader.rebalance.enable=false\n")
	writeFile(t, work+"/prod/*.properties", cleanBroker+"offsets.topic.replication.factor=1\n")
	envFor := func(paths, formats, failLevel, args string) []string {
		return []string{"KAFKALINT_BIN=" + bin, "GITHUB_STEP_SUMMARY=",
			"KAFKALINT_PATHS=" + paths, "KAFKALINT_FORMATS=" + formats, "KAFKALINT_FAIL_LEVEL=" + failLevel, "KAFKALINT_ARGS=" + args}
	}
	// Defaults: github format, fail level from kafkalint (error): a
	// warning passes.
	out, code := runIn(t, work, envFor("prod/server.properties", action.Inputs["formats"].Default, action.Inputs["fail-level"].Default, ""), bash, "-c", script)
	if code != 0 || !strings.Contains(out, "::warning file=prod/server.properties,line=6,col=1,title=KFK4003 ") {
		t.Errorf("defaults: exit %d\n%s", code, out)
	}
	out, code = runIn(t, work, envFor("prod/server.properties", "text\nsarif=out/k.sarif", "warning", "--no-color"), bash, "-c", script)
	if _, err := os.Stat(work + "/out/k.sarif"); code != 1 || err != nil || !strings.Contains(out, "kafkalint lint --format text --format sarif=out/k.sarif --fail-level warning --no-color -- prod/server.properties") {
		t.Errorf("formats, fail-level, args: exit %d (want 1), sarif: %v\n%s", code, err, out)
	}
	// A literal "*" path is not globbed: only that file is linted.
	out, _ = runIn(t, work, envFor("prod/*.properties", "text", "", ""), bash, "-c", script)
	if !strings.Contains(out, "prod/*.properties:6:1: error KFK1001") || strings.Contains(out, "KFK4003") {
		t.Errorf("glob path:\n%s", out)
	}
}
