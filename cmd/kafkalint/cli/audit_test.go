package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/kafkalint/kafkalint/report"
)

// badBroker is cleanBroker plus offsets.topic.replication.factor=1 at
// line 6: one KFK1001 finding (error by default).
const badBroker = cleanBroker + "offsets.topic.replication.factor=1\n"

// auditTree writes repos/ with five repositories and audit.yaml, the
// isolated configuration for those without their own:
//   - alpha: KFK1001 (error) at prod/server.properties:6
//   - beta:  the same file, but its own .kafkalint.yaml makes KFK1001 a warning
//   - broken: a file that does not load
//   - clean: nothing to report
//   - gitrepo: a git work tree (a .git directory) with KFK1001
//
// plus what is not a repository: a file and a hidden directory.
func auditTree(t *testing.T) {
	t.Helper()
	t.Chdir(t.TempDir())
	writeFile(t, "audit.yaml", isolatedConfig(t, "", ""))
	writeFile(t, "repos/alpha/prod/server.properties", badBroker)
	writeFile(t, "repos/beta/prod/server.properties", badBroker)
	writeFile(t, "repos/beta/.kafkalint.yaml", isolatedConfig(t, "", "  KFK1001: warning\n"))
	writeFile(t, "repos/broken/prod/server.properties", "node.id=1\nlog.dirs=\\uZZZZ\n")
	writeFile(t, "repos/clean/prod/server.properties", cleanBroker)
	writeFile(t, "repos/gitrepo/.git/HEAD", "ref: refs/heads/main\n")
	writeFile(t, "repos/gitrepo/prod/server.properties", badBroker)
	writeFile(t, "repos/README.md", "not a repository\n")
	writeFile(t, "repos/.cache/prod/server.properties", badBroker)
}

// auditReport runs the CLI and decodes its JSON output (stdout).
func auditReport(t *testing.T, args ...string) (int, []report.AuditRepo, report.AuditHeader, string) {
	t.Helper()
	code, out, stderr := run(t, args...)
	var repos []report.AuditRepo
	h, err := report.ReadAuditJSON(strings.NewReader(out), nil, func(r *report.AuditRepo) error {
		repos = append(repos, *r)
		return nil
	})
	if err != nil {
		t.Fatalf("%v: output is not an audit report: %v\nstdout:\n%s\nstderr:\n%s", args, err, out, stderr)
	}
	return code, repos, h, stderr
}

func repoFindings(r report.AuditRepo) []string {
	var out []string
	for _, f := range r.Findings {
		out = append(out, fmt.Sprintf("%s:%d:%s:%s", f.File, f.Line, f.ID, f.Severity))
	}
	return out
}

func TestAuditReportsEachRepository(t *testing.T) {
	auditTree(t)
	code, repos, _, stderr := auditReport(t, "audit", "--config", "audit.yaml", "--format", "json", "repos")
	if code != ExitError {
		t.Errorf("exit %d, want %d (repos/broken does not load); stderr:\n%s", code, ExitError, stderr)
	}
	got := map[string][]string{}
	var paths []string
	for _, r := range repos {
		paths = append(paths, r.Path)
		got[r.Path] = repoFindings(r)
	}
	if want := []string{"repos/alpha", "repos/beta", "repos/broken", "repos/clean", "repos/gitrepo"}; !slices.Equal(paths, want) {
		t.Fatalf("repositories = %v, want %v (a file and a hidden directory are not repositories)", paths, want)
	}
	want := map[string][]string{
		"repos/alpha":   {"prod/server.properties:6:KFK1001:error"},
		"repos/beta":    {"prod/server.properties:6:KFK1001:warning"}, // its own .kafkalint.yaml
		"repos/broken":  nil,
		"repos/clean":   nil,
		"repos/gitrepo": {"prod/server.properties:6:KFK1001:error"},
	}
	if diff := gocmp.Diff(want, got); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}
	broken := repos[2]
	if len(broken.Errors) != 1 || broken.Errors[0].File != "prod/server.properties" || broken.Errors[0].Line != 2 || broken.Summary.Failed {
		t.Errorf("repos/broken errors = %+v (failed %v), want the load error at prod/server.properties:2", broken.Errors, broken.Summary.Failed)
	}
	if s := repos[0].Summary; s.Findings != 1 || s.BySeverity[report.Error] != 1 || s.WorstRule != "KFK1001" || repos[0].Files != 1 || repos[0].Clusters != 1 {
		t.Errorf("repos/alpha summary = %+v files %d clusters %d", s, repos[0].Files, repos[0].Clusters)
	}
}

// A repository's findings are exactly what `kafkalint lint .` in its root
// reports with the same configuration.
func TestAuditMatchesLint(t *testing.T) {
	auditTree(t)
	writeFile(t, "repos/alpha/.kafkalint.yaml", isolatedConfig(t, "", ""))
	writeFile(t, "repos/alpha/dev/server.properties", badBroker+"offsets.topic.replication.factor=1\n")
	writeFile(t, "repos/alpha/prod/client.properties", "# kafkalint:ignore KFK9001\nacks=all\nacks=all\n")
	_, repos, _, _ := auditReport(t, "audit", "--format", "json", "repos")
	t.Chdir("repos/alpha")
	_, rep := lintJSON(t, ".")
	if diff := gocmp.Diff(rep.Findings, repos[0].Findings); diff != "" {
		t.Errorf("audit differs from lint (-lint +audit):\n%s", diff)
	}
	if len(rep.Findings) < 3 || repos[0].Summary.Suppressed != rep.Summary.Suppressed {
		t.Errorf("want several findings and the same suppressed count; lint: %d findings, %d suppressed; audit: %d suppressed",
			len(rep.Findings), rep.Summary.Suppressed, repos[0].Summary.Suppressed)
	}
}

func TestAuditExitCodes(t *testing.T) {
	auditTree(t)
	writeFile(t, "only-clean.txt", "repos/clean\n")
	writeFile(t, "with-alpha.txt", "repos/clean\nrepos/alpha\n")
	writeFile(t, "only-beta.txt", "repos/beta\n")
	tests := []struct {
		name string
		args []string
		want int
	}{
		{"clean", []string{"--repos", "only-clean.txt"}, ExitOK},
		{"error finding", []string{"--repos", "with-alpha.txt"}, ExitFindings},
		{"warning below the fail level", []string{"--repos", "only-beta.txt"}, ExitOK},
		{"warning at fail level warning", []string{"--repos", "only-beta.txt", "--fail-level", "warning"}, ExitFindings},
		{"a repository with a load error", []string{"repos"}, ExitError},
		{"no ROOT", nil, ExitError},
		{"missing ROOT", []string{"nope"}, ExitError},
		{"ROOT is a file", []string{"audit.yaml"}, ExitError},
		{"missing --repos file", []string{"--repos", "nope.txt"}, ExitError},
		{"lint-only format", []string{"--format", "sarif", "repos"}, ExitError},
		{"bad fail level", []string{"--fail-level", "fatal", "repos"}, ExitError},
		{"bad env", []string{"--env", "qa", "repos"}, ExitError},
		{"bad kafka version", []string{"--kafka-version", "four", "repos"}, ExitError},
		{"bad shard", []string{"--shard", "4/4", "repos"}, ExitError},
		{"bad jobs", []string{"--jobs", "0", "repos"}, ExitError},
	}
	for _, tt := range tests {
		args := append([]string{"audit", "--quiet", "--config", "audit.yaml", "--format", "json=out.json"}, tt.args...)
		if code, _, stderr := run(t, args...); code != tt.want {
			t.Errorf("%s: exit %d, want %d; stderr:\n%s", tt.name, code, tt.want, stderr)
		}
	}
}

func TestAuditUsageMessages(t *testing.T) {
	auditTree(t)
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"audit"}, "audit needs a ROOT directory or --repos FILE"},
		{[]string{"audit", "--shard", "1/0", "repos"}, `invalid --shard "1/0": want I/N with 0 <= I < N`},
		{[]string{"audit", "--shard", "x", "repos"}, `invalid --shard "x"`},
		{[]string{"audit", "--format", "junit", "repos"}, `unknown --format "junit" (want text, json, csv, html, optionally =PATH)`},
		{[]string{"audit", "nope"}, "ROOT nope: no such file or directory"},
		{[]string{"audit", "--format", "json", "--format", "csv", "repos"}, "both write to stdout"},
	}
	for _, tt := range tests {
		code, _, stderr := run(t, tt.args...)
		if code != ExitError || !strings.Contains(stderr, tt.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and %q", tt.args, code, stderr, tt.want)
		}
	}
}

// A repository that cannot be analyzed is recorded and the others are
// still reported: a missing --repos entry, an invalid .kafkalint.yaml.
func TestAuditRecordsFailedRepositories(t *testing.T) {
	auditTree(t)
	writeFile(t, "repos/badconfig/.kafkalint.yaml", "fail_level: fatal\n")
	writeFile(t, "repos/badconfig/prod/server.properties", badBroker)
	writeFile(t, "list.txt", "# the repositories\nrepos/alpha\n\nrepos/missing\nrepos/badconfig\nrepos/alpha/\n")
	code, repos, _, _ := auditReport(t, "audit", "--quiet", "--config", "audit.yaml", "--format", "json", "--repos", "list.txt")
	if code != ExitError {
		t.Errorf("exit %d, want 2", code)
	}
	if len(repos) != 3 {
		t.Fatalf("%d repositories, want 3 (repos/alpha listed twice is audited once): %+v", len(repos), repos)
	}
	if got := repoFindings(repos[0]); repos[0].Path != "repos/alpha" || len(got) != 1 {
		t.Errorf("repos/alpha = %v, want its finding", got)
	}
	for i, want := range map[int]string{1: "not analyzed: repos/badconfig/.kafkalint.yaml:1:13: ", 2: "not analyzed: cannot read: no such file or directory"} {
		r := repos[i]
		if !r.Summary.Failed || len(r.Errors) != 1 || r.Errors[0].File != report.RepoFailure || !strings.HasPrefix(r.Errors[0].Message, want) {
			t.Errorf("%s: failed %v, errors %+v; want one error starting %q", r.Path, r.Summary.Failed, r.Errors, want)
		}
	}
}

func TestAuditRepoTimeout(t *testing.T) {
	auditTree(t)
	// repos/alpha hangs until its deadline; nothing else is slowed down.
	beforeRepo = func(ctx context.Context, path string) {
		if path == "repos/alpha" {
			<-ctx.Done()
		}
	}
	t.Cleanup(func() { beforeRepo = nil })
	start := time.Now()
	code, repos, _, _ := auditReport(t, "audit", "--quiet", "--config", "audit.yaml", "--format", "json", "--repo-timeout", "300ms", "repos")
	if code != ExitError {
		t.Errorf("exit %d, want 2", code)
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("the audit took %v: the timeout did not cut the hanging repository short", d)
	}
	if r := repos[0]; !r.Summary.Failed || len(r.Errors) != 1 || r.Errors[0].Message != "not analyzed: timed out after 300ms (--repo-timeout)" {
		t.Errorf("repos/alpha = %+v, want it recorded as timed out", r)
	}
	if got := repoFindings(repos[4]); repos[4].Path != "repos/gitrepo" || len(got) != 1 {
		t.Errorf("repos/gitrepo = %v, want its finding despite the timeout elsewhere", got)
	}
}

func TestAuditFormatsGolden(t *testing.T) {
	auditTree(t)
	t.Setenv("SOURCE_DATE_EPOCH", "1767225600") // the HTML's date
	args := []string{"audit", "--quiet", "--config", "audit.yaml", "--jobs", "3"}
	for _, f := range report.AuditFormats() {
		args = append(args, "--format", f+"=out/audit."+f)
	}
	if code, _, stderr := run(t, append(args, "repos")...); code != ExitError {
		t.Fatalf("exit %d, want 2; stderr:\n%s", code, stderr)
	}
	for _, f := range report.AuditFormats() {
		got, err := os.ReadFile("out/audit." + f)
		if err != nil {
			t.Fatal(err)
		}
		cliGolden(t, "audit."+f+".golden", got)
	}
}

// cliGolden compares got with testdata/name (beside this test), or
// rewrites it with -update.
func cliGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join(repoRoot(t), "cmd", "kafkalint", "cli", "testdata", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./cmd/kafkalint/cli -run TestAuditFormatsGolden -update)", err)
	}
	if diff := gocmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s mismatch (-want +got):\n%s", name, diff)
	}
}

// manyRepos writes n empty repositories under repos/ and returns their paths.
func manyRepos(t *testing.T, n int) []string {
	t.Helper()
	t.Chdir(t.TempDir())
	var all []string
	for i := range n {
		p := fmt.Sprintf("repos/team-%02d-service", i)
		if err := os.MkdirAll(p, 0o755); err != nil {
			t.Fatal(err)
		}
		all = append(all, p)
	}
	return all
}

func TestAuditShards(t *testing.T) {
	all := manyRepos(t, 40)
	abs, err := filepath.Abs("repos")
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{1, 2, 3, 7} {
		seen := map[string]int{}
		for i := range n {
			shard := fmt.Sprintf("%d/%d", i, n)
			_, repos, h, _ := auditReport(t, "audit", "--quiet", "--format", "json", "--shard", shard, "repos")
			if h.Shard == nil || h.Shard.String() != shard {
				t.Errorf("shard %s: report says shard %v", shard, h.Shard)
			}
			// The same split from an absolute ROOT (another machine's checkout).
			_, again, _, _ := auditReport(t, "audit", "--quiet", "--format", "json", "--shard", shard, abs)
			if len(again) != len(repos) {
				t.Errorf("shard %s: %d repositories from repos, %d from %s", shard, len(repos), len(again), abs)
			}
			for j, r := range repos {
				seen[r.Path]++
				if j < len(again) && again[j].Path != abs+"/"+strings.TrimPrefix(r.Path, "repos/") {
					t.Errorf("shard %s: %s from repos but %s from the absolute ROOT", shard, r.Path, again[j].Path)
				}
			}
			if n > 1 && len(repos) == len(all) {
				t.Errorf("shard %s holds every repository", shard)
			}
		}
		for _, p := range all {
			if seen[p] != 1 {
				t.Errorf("%d shards: %s is in %d shards, want exactly 1", n, p, seen[p])
			}
		}
		if len(seen) != len(all) {
			t.Errorf("%d shards: %d repositories in all, want %d", n, len(seen), len(all))
		}
	}
}

// --list prints a shard's repositories without reading them (they need
// not exist yet: a CI job clones only its shard), the same ones the audit
// of that shard reports.
func TestAuditList(t *testing.T) {
	all := manyRepos(t, 12)
	var lines []string
	for i := range 50 {
		lines = append(lines, fmt.Sprintf("org/not-cloned-%d", i))
	}
	writeFile(t, "all.txt", strings.Join(append(lines, all...), "\n")+"\n")
	listed := map[string]int{}
	for i := range 3 {
		shard := fmt.Sprintf("%d/3", i)
		code, out, stderr := run(t, "audit", "--list", "--shard", shard, "--repos", "all.txt")
		if code != ExitOK || stderr != "" {
			t.Fatalf("--list: exit %d, stderr %q", code, stderr)
		}
		var mine []string
		for p := range strings.Lines(out) {
			p = strings.TrimSuffix(p, "\n")
			listed[p]++
			if !strings.HasPrefix(p, "org/") {
				mine = append(mine, p)
			}
		}
		// Audit only the repositories that exist, as the listed shard.
		writeFile(t, "existing.txt", strings.Join(all, "\n")+"\n")
		_, repos, _, _ := auditReport(t, "audit", "--quiet", "--format", "json", "--shard", shard, "--repos", "existing.txt")
		var audited []string
		for _, r := range repos {
			audited = append(audited, r.Path)
		}
		if !slices.Equal(mine, audited) {
			t.Errorf("shard %s: --list gives %v, the audit reports %v", shard, mine, audited)
		}
	}
	if len(listed) != len(lines)+len(all) {
		t.Errorf("%d paths listed over all shards, want %d", len(listed), len(lines)+len(all))
	}
	for p, n := range listed {
		if n != 1 {
			t.Errorf("%s listed by %d shards", p, n)
		}
	}
}

// The shard of a path must never change between kafkalint versions or
// machines, or shards run by different builds would overlap and miss
// repositories: SHA-256 of the path relative to ROOT, first 8 bytes
// big-endian, modulo N. The expected values come from Python's hashlib:
//
//	int.from_bytes(hashlib.sha256(key.encode()).digest()[:8], "big") % 4
func TestShardOfIsStable(t *testing.T) {
	for key, want := range map[string]int{"payments": 0, "team-00-service": 2, "a/b": 1, "": 0} {
		if got := shardOf(key, 4); got != want {
			t.Errorf("shardOf(%q, 4) = %d, want %d", key, got, want)
		}
	}
}

// Merging the JSON of every shard gives exactly the unsharded audit, in
// every format, with the same exit code.
func TestAuditMergeEqualsWholeAudit(t *testing.T) {
	auditTree(t)
	t.Setenv("SOURCE_DATE_EPOCH", "1767225600") // one HTML date for both runs
	for i := range 6 {
		writeFile(t, fmt.Sprintf("repos/svc-%d/prod/server.properties", i), badBroker)
	}
	base := []string{"audit", "--quiet", "--config", "audit.yaml"}
	var shards []string
	for i := range 3 {
		file := fmt.Sprintf("shards/%d.json", i)
		run(t, append(base, "--format", "json="+file, "--shard", fmt.Sprintf("%d/3", i), "repos")...)
		shards = append(shards, file)
	}
	for _, f := range report.AuditFormats() {
		wantCode, want, _ := run(t, append(base, "--format", f, "repos")...)
		gotCode, got, stderr := run(t, append([]string{"audit", "merge", "--quiet", "--format", f}, shards...)...)
		if diff := gocmp.Diff(want, got); diff != "" {
			t.Errorf("%s: merged shards differ from the whole audit (-whole +merged):\n%s", f, diff)
		}
		if gotCode != wantCode {
			t.Errorf("%s: merge exit %d, want %d; stderr:\n%s", f, gotCode, wantCode, stderr)
		}
	}
}

func TestAuditMergeErrors(t *testing.T) {
	manyRepos(t, 8)
	for i := range 4 {
		run(t, "audit", "--quiet", "--format", fmt.Sprintf("json=s%d.json", i), "--shard", fmt.Sprintf("%d/4", i), "repos")
	}
	run(t, "audit", "--quiet", "--format", "json=half0.json", "--shard", "0/2", "repos")
	run(t, "audit", "--quiet", "--format", "json=all.json", "repos")
	writeFile(t, "v2.json", `{"version": 2, "repos": []}`)
	writeFile(t, "lint.json", `{"version": 1, "findings": [], "errors": [], "summary": {}}`)
	var empty0 string
	for i := range 4 {
		if data, _ := os.ReadFile(fmt.Sprintf("s%d.json", i)); bytes.Contains(data, []byte(`"repos": []`)) {
			empty0 = fmt.Sprintf("s%d.json", i)
		}
	}
	tests := []struct {
		name  string
		files []string
		want  string
	}{
		{"other version", []string{"s0.json", "v2.json"}, "v2.json: audit report version 2; this kafkalint reads version 1"},
		{"lint report", []string{"lint.json"}, "lint.json: this is a `kafkalint lint` report, not an audit report"},
		{"missing file", []string{"nope.json"}, "nope.json: no such file or directory"},
		{"overlap", []string{"all.json", "s1.json"}, " is in both all.json and s1.json: each repository must be in one report only"},
		{"two splits", []string{"s0.json", "half0.json"}, "half0.json is shard 0/2 but another report is of 4 shards"},
	}
	if empty0 != "" {
		tests = append(tests, struct {
			name  string
			files []string
			want  string
		}{"same shard twice", []string{empty0, empty0}, "are both shard"})
	}
	for _, tt := range tests {
		code, out, stderr := run(t, append([]string{"audit", "merge", "--format", "json"}, tt.files...)...)
		if code != ExitError || !strings.Contains(stderr, tt.want) || out != "" {
			t.Errorf("%s: exit %d, stdout %d bytes, stderr %q; want exit 2, no report and %q", tt.name, code, len(out), stderr, tt.want)
		}
	}
	// A missing shard: the report of the others is written, then a
	// warning and exit 2.
	code, out, stderr := run(t, "audit", "merge", "--format", "json", "s0.json", "s1.json", "s3.json")
	if code != ExitError || !strings.Contains(stderr, "the merged report is incomplete: no report of shard 2/4 was given") || !strings.Contains(out, `"repos"`) {
		t.Errorf("missing shard: exit %d, stderr %q, stdout %d bytes", code, stderr, len(out))
	}
	// All shards: complete and clean.
	if code, _, stderr := run(t, "audit", "merge", "--quiet", "--format", "json=merged.json", "s0.json", "s1.json", "s2.json", "s3.json"); code != ExitOK {
		t.Errorf("all shards: exit %d, stderr %q", code, stderr)
	}
}

func TestAuditSummaryOnStderr(t *testing.T) {
	auditTree(t)
	_, _, stderr := run(t, "audit", "--config", "audit.yaml", "--format", "html=r.html", "repos")
	if !strings.Contains(stderr, "kafkalint: 5 repositories, 5 files, 4 clusters: 2 errors, 1 warning, 0 info; 1 load error in 1 repository") {
		t.Errorf("stderr = %q, want the summary line", stderr)
	}
	if _, _, stderr := run(t, "audit", "--quiet", "--config", "audit.yaml", "--format", "html=r.html", "repos"); stderr != "" {
		t.Errorf("--quiet: stderr = %q, want nothing", stderr)
	}
	// Not a terminal: no progress bar even without --quiet.
	if _, out, stderr := run(t, "audit", "--config", "audit.yaml", "repos"); strings.Contains(stderr, "\r") || !strings.Contains(out, "REPOSITORY") {
		t.Errorf("stderr %q, stdout %q", stderr, out)
	}
}

func TestProgress(t *testing.T) {
	if p := newProgress(&bytes.Buffer{}, "repositories", 3, false); p != nil {
		t.Error("a progress bar on a writer that is not a terminal")
	}
	var nilBar *progress
	nilBar.step() // a nil bar is silent and safe
	nilBar.finish()

	var out bytes.Buffer
	now := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	p := startProgress(&out, "repositories", 4, func() time.Time { return now })
	now = now.Add(2 * time.Second)
	p.step() // 1 done in 2s: 0.5/s, 3 left: 6s
	now = now.Add(50 * time.Millisecond)
	p.step() // within progressEvery of the last draw: not drawn
	now = now.Add(2 * time.Second)
	p.step()
	p.step()
	p.finish()
	want := "\r[>                           ] 0/4 repositories\x1b[K" +
		"\r[=======>                    ] 1/4 repositories  0.5/s  ETA 0:06\x1b[K" +
		"\r[=====================>      ] 3/4 repositories  0.7/s  ETA 0:01\x1b[K" +
		"\r[============================] 4/4 repositories  1.0/s  in 0:04\x1b[K" +
		"\r[============================] 4/4 repositories  1.0/s  in 0:04\x1b[K\n"
	if diff := gocmp.Diff(want, out.String()); diff != "" {
		t.Errorf("progress (-want +got):\n%s", diff)
	}
	if got := clock(3*time.Hour + 2*time.Minute + 5*time.Second); got != "3:02:05" {
		t.Errorf("clock = %q", got)
	}
}

func TestRepoStore(t *testing.T) {
	s, err := newRepoStore()
	if err != nil {
		t.Fatal(err)
	}
	name := s.f.Name()
	for _, p := range []string{"c", "a", "b"} {
		r := report.FailedRepo(p, "why "+p)
		if p == "a" {
			r = report.NewAuditRepo(p, &report.Report{Findings: []report.Finding{{ID: "KFK1001", Severity: "error", Message: "m <a>"}}})
		}
		if err := s.add(r, "x.json"); err != nil {
			t.Fatal(err)
		}
	}
	var dup *errDuplicateRepo
	if err := s.add(report.FailedRepo("b", ""), "y.json"); !errors.As(err, &dup) || err.Error() != "repository b is in both x.json and y.json" {
		t.Errorf("duplicate: %v", err)
	}
	a := s.audit(nil, nil)
	if a.Repos[0].Path != "a" || a.Repos[1].Path != "b" || a.Repos[2].Path != "c" || a.Repos[0].Findings != nil {
		t.Errorf("repos = %+v, want a, b, c without their findings in memory", a.Repos)
	}
	r, err := a.Repo(0)
	if err != nil || len(r.Findings) != 1 || r.Findings[0].Message != "m <a>" {
		t.Errorf("Repo(0) = %+v, %v", r, err)
	}
	if r, _ := a.Repo(2); r.Errors[0].Message != "why c" {
		t.Errorf("Repo(2) = %+v", r)
	}
	if a.Totals.Repos != 3 || a.Totals.Failed != 2 || a.Totals.Findings != 1 {
		t.Errorf("totals = %+v", a.Totals)
	}
	s.close()
	if _, err := os.Stat(name); !os.IsNotExist(err) {
		t.Errorf("temporary file %s left behind: %v", name, err)
	}
}

func TestFindReposSymlinks(t *testing.T) {
	t.Chdir(t.TempDir())
	writeFile(t, "elsewhere/real/server.properties", cleanBroker)
	writeFile(t, "repos/plain/x.properties", cleanBroker)
	if err := os.Symlink("../elsewhere/real", "repos/linked"); err != nil {
		t.Skip("no symlinks here:", err)
	}
	if err := os.Symlink("plain/x.properties", "repos/file-link"); err != nil {
		t.Fatal(err)
	}
	repos, err := findRepos([]string{"repos"}, "")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range repos {
		got = append(got, r.path+"="+r.key)
	}
	if want := []string{"repos/linked=linked", "repos/plain=plain"}; !slices.Equal(got, want) {
		t.Errorf("repos = %v, want %v (a link to a directory is a repository, a link to a file is not)", got, want)
	}
}

func TestAuditJSONValid(t *testing.T) {
	auditTree(t)
	_, out, _ := run(t, "audit", "--quiet", "--config", "audit.yaml", "--format", "json", "repos")
	var v map[string]any
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatalf("not JSON: %v", err)
	}
	for _, k := range []string{"version", "repos", "totals"} {
		if _, ok := v[k]; !ok {
			t.Errorf("no %q in the report", k)
		}
	}
	if _, ok := v["shard"]; ok {
		t.Error(`an unsharded audit has a "shard"`)
	}
}

// An interrupted audit (Ctrl-C cancels the context) writes no report and
// exits 2.
func TestAuditInterrupted(t *testing.T) {
	auditTree(t)
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	var out, errb bytes.Buffer
	code := Run(ctx, []string{"audit", "--quiet", "--config", "audit.yaml", "--format", "json", "repos"}, Streams{Out: &out, Err: &errb})
	if code != ExitError || out.Len() != 0 || !strings.Contains(errb.String(), "kafkalint: audit interrupted: context canceled") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out.String(), errb.String())
	}
}

func TestAuditNoInlineIgnores(t *testing.T) {
	auditTree(t)
	writeFile(t, "repos/alpha/prod/server.properties", cleanBroker+"# kafkalint:ignore KFK1001 -- replay cluster\noffsets.topic.replication.factor=1\n")
	writeFile(t, "list.txt", "repos/alpha\n")
	_, repos, _, _ := auditReport(t, "audit", "--quiet", "--config", "audit.yaml", "--format", "json", "--repos", "list.txt")
	if got := repoFindings(repos[0]); len(got) != 0 || repos[0].Summary.Suppressed != 1 {
		t.Errorf("with the directive: findings %v, suppressed %d; want none shown, 1 suppressed", got, repos[0].Summary.Suppressed)
	}
	_, repos, _, _ = auditReport(t, "audit", "--quiet", "--no-inline-ignores", "--config", "audit.yaml", "--format", "json", "--repos", "list.txt")
	if got := repoFindings(repos[0]); !slices.Equal(got, []string{"prod/server.properties:7:KFK1001:error"}) {
		t.Errorf("--no-inline-ignores: findings %v, want the suppressed one", got)
	}
}

// writeAcmeRepo writes repos/acme: the custom-policies example's rule under
// policies/ and its producer under prod/; it returns the producer's text.
func writeAcmeRepo(t *testing.T, root string) []byte {
	t.Helper()
	rule, err := os.ReadFile(filepath.Join(repoRoot(t), "examples", "custom-policies", "policies", "client-sasl-ssl", "client_sasl_ssl.rego"))
	if err != nil {
		t.Fatal(err)
	}
	producer, err := os.ReadFile(filepath.Join(repoRoot(t), "examples", "custom-policies", "configs", "prod", "clients", "producer.properties"))
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(root, "repos", "acme", "policies", "client_sasl_ssl.rego"), string(rule))
	writeFile(t, filepath.Join(root, "repos", "acme", "prod", "producer.properties"), string(producer))
	return producer
}

// TestAuditAppliesRepositoryPolicies: with --allow-repo-policies, a
// repository whose .kafkalint.yaml names custom policies (inside it) is
// audited with them, as `kafkalint lint` in it would be; the other
// repositories keep the built-in rules only.
func TestAuditAppliesRepositoryPolicies(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	producer := writeAcmeRepo(t, root)
	writeFile(t, filepath.Join(root, "repos", "acme", ".kafkalint.yaml"), isolatedConfig(t, "policies: [policies]\n", ""))
	writeFile(t, filepath.Join(root, "repos", "plain", "prod", "producer.properties"), string(producer))
	repos := filepath.Join(root, "repos")
	_, audited, _, _ := auditReport(t, "audit", "--allow-repo-policies", "--format", "json", repos)
	ids := map[string][]string{}
	for _, r := range audited {
		for _, f := range r.Findings {
			ids[strings.TrimPrefix(r.Path, repos+"/")] = append(ids[strings.TrimPrefix(r.Path, repos+"/")], f.ID)
		}
	}
	if !slices.Contains(ids["acme"], "ACME003") {
		t.Errorf("repos/acme findings = %v (of %v), want its custom rule ACME003", ids["acme"], ids)
	}
	if slices.Contains(ids["plain"], "ACME003") {
		t.Errorf("repos/plain findings = %v, want no custom rule: it names no policies", ids["plain"])
	}
}
