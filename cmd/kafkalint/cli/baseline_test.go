package cli

import (
	"os"
	"strings"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/kafkalint/kafkalint/report"
)

// TestBaseline: --write-baseline records the findings, --baseline hides
// them even when lines move, a changed value or a new finding shows, and
// --baseline-prune lists and drops entries that no longer match.
func TestBaseline(t *testing.T) {
	t.Chdir(t.TempDir())
	isolate(t)
	bad := cleanBroker + "offsets.topic.replication.factor=1\nauto.leader.rebalance.enable=false\n"
	writeFile(t, "prod/a/server.properties", bad)
	writeFile(t, "prod/b/server.properties", strings.Replace(bad, "c1.example.com", "c2.example.com", 1))

	code, out, errOut := run(t, "lint", "--write-baseline", "ci/baseline.json", "prod")
	if code != ExitOK || !strings.Contains(errOut, "recorded 4 findings in ci/baseline.json") || !strings.HasSuffix(out, "; not shown: 0 suppressed inline, 4 in the baseline\n") {
		t.Fatalf("--write-baseline: exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	data, err := os.ReadFile("ci/baseline.json")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), `"line"`) || !strings.Contains(string(data), `"file": "../prod/a/server.properties"`) {
		t.Errorf("baseline must hold file paths relative to itself and no line numbers:\n%s", data)
	}

	// Unchanged: everything is hidden.
	code, rep := lintJSON(t, "--baseline", "ci/baseline.json", "prod")
	if code != ExitOK || len(rep.Findings) != 0 || rep.Summary.Baselined != 4 {
		t.Errorf("unchanged: exit %d, findings %v, baselined %d", code, found(rep), rep.Summary.Baselined)
	}

	// Lines moved and a new finding added: only the new one shows.
	writeFile(t, "prod/a/server.properties", "# moved down\n\n"+bad+"num.partitions=1\nnum.partitions=3\n")
	code, rep = lintJSON(t, "--baseline", "ci/baseline.json", "prod")
	if diff := gocmp.Diff([]string{"prod/a/server.properties:11:KFK9001"}, found(rep)); diff != "" || code != ExitOK {
		t.Errorf("after edits (exit %d): findings mismatch (-want +got):\n%s", code, diff)
	}

	// Same key, different value: the entry no longer matches, so the
	// finding is new. (min.insync.replicas values both fire KFK1003.)
	writeFile(t, "prod/b/server.properties", strings.Replace(bad, "c1.example.com", "c2.example.com", 1)+"default.replication.factor=3\nmin.insync.replicas=3\n")
	_, out, errOut = run(t, "lint", "--write-baseline", "ci/baseline.json", "prod")
	if !strings.Contains(errOut, "recorded 6 findings") {
		t.Fatalf("re-record: %s\n%s", errOut, out)
	}
	writeFile(t, "prod/b/server.properties", strings.Replace(bad, "c1.example.com", "c2.example.com", 1)+"default.replication.factor=3\nmin.insync.replicas=4\n")
	_, rep = lintJSON(t, "--baseline", "ci/baseline.json", "prod")
	if diff := gocmp.Diff([]string{"prod/b/server.properties:9:KFK1003"}, found(rep)); diff != "" {
		t.Errorf("changed value: findings mismatch (-want +got):\n%s", diff)
	}

	// Fix prod/a entirely: its 3 entries are stale. Without prune they are
	// counted; with prune listed and removed. Linting only prod/b never
	// calls prod/a's entries stale.
	writeFile(t, "prod/a/server.properties", cleanBroker)
	_, _, errOut = run(t, "lint", "--baseline", "ci/baseline.json", "prod/b")
	if !strings.Contains(errOut, "kafkalint: 1 stale entry in ci/baseline.json (") {
		t.Errorf("linting prod/b only: want only prod/b's old min.insync.replicas entry stale:\n%s", errOut)
	}
	_, _, errOut = run(t, "lint", "--baseline", "ci/baseline.json", "prod")
	if !strings.Contains(errOut, "kafkalint: 4 stale entries in ci/baseline.json (matching no finding any more; list and remove them with --baseline-prune)") {
		t.Errorf("stale entries not counted:\n%s", errOut)
	}
	_, _, errOut = run(t, "lint", "--baseline", "ci/baseline.json", "--baseline-prune", "prod")
	for _, want := range []string{
		"kafkalint: removed 4 stale entries (matching no finding any more) from ci/baseline.json:\n",
		"  ../prod/a/server.properties KFK1001 offsets.topic.replication.factor\n",
		"  ../prod/a/server.properties KFK9001 num.partitions\n",
		"  ../prod/b/server.properties KFK1003 min.insync.replicas\n",
	} {
		if !strings.Contains(errOut, want) {
			t.Errorf("prune output lacks %q:\n%s", want, errOut)
		}
	}
	_, _, errOut = run(t, "lint", "--baseline", "ci/baseline.json", "prod")
	if strings.Contains(errOut, "stale") {
		t.Errorf("after prune, stale entries remain:\n%s", errOut)
	}
}

func TestBaselineErrors(t *testing.T) {
	t.Chdir(t.TempDir())
	writeFile(t, "prod/server.properties", cleanBroker)
	writeFile(t, "bad.json", `{"version": 1, "findings": [], "extra": true}`)
	writeFile(t, "v2.json", `{"version": 2, "findings": []}`)
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--baseline", "missing.json"}, "baseline missing.json: no such file or directory (create it with --write-baseline)"},
		{[]string{"--baseline", "bad.json"}, "baseline bad.json is not a kafkalint baseline"},
		{[]string{"--baseline", "v2.json"}, "baseline v2.json has version 2"},
		{[]string{"--baseline-prune"}, "--baseline-prune needs --baseline FILE"},
		{[]string{"--baseline", "bad.json", "--write-baseline", "x.json"}, "--write-baseline and --baseline cannot be combined"},
	} {
		code, _, errOut := run(t, append(append([]string{"lint"}, tt.args...), "prod")...)
		if code != ExitError || !strings.Contains(errOut, tt.want) {
			t.Errorf("%v: exit %d, stderr %q, want 2 and %q", tt.args, code, errOut, tt.want)
		}
	}
}

// TestBaselineNeverHashesSecrets: the baseline (a committed file) holds no
// hash of a sensitive value — a weak password's unsalted hash can be
// brute-forced — so an inline password's entry is keyed without its value
// and keeps matching when the password is rotated. An entry written with
// the secret's hash (older kafkalint) still matches the unchanged value,
// and --baseline-prune rewrites it without the hash.
func TestBaselineNeverHashesSecrets(t *testing.T) {
	t.Chdir(t.TempDir())
	writeFile(t, ".kafkalint.yaml", isolatedConfig(t, "", "  KFK2003: warning\n"))
	broker := func(password string) string {
		return cleanBroker + "offsets.topic.replication.factor=1\nssl.keystore.password=" + password + "\n"
	}
	writeFile(t, "prod/server.properties", broker("hunter2"))
	secretHash := report.LogicalHash("hunter2")[:16]

	if _, _, errOut := run(t, "lint", "--write-baseline", "baseline.json", "prod"); !strings.Contains(errOut, "recorded 2 findings") {
		t.Fatalf("--write-baseline: %s", errOut)
	}
	data, err := os.ReadFile("baseline.json")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), secretHash) {
		t.Errorf("the baseline holds the password's hash %s:\n%s", secretHash, data)
	}
	if !strings.Contains(string(data), `"value_hash": "`+report.LogicalHash("1")[:16]+`"`) {
		t.Errorf("the non-secret entry lost its value hash:\n%s", data)
	}

	// The password rotated (still inline): the entry still hides it.
	writeFile(t, "prod/server.properties", broker("correct-horse"))
	if code, rep := lintJSON(t, "--baseline", "baseline.json", "prod"); len(rep.Findings) != 0 || rep.Summary.Baselined != 2 || code != ExitOK {
		t.Errorf("rotated password: exit %d, findings %v, baselined %d", code, found(rep), rep.Summary.Baselined)
	}

	// An entry as older kafkalint wrote it, with the secret's hash.
	old := `{"version": 1, "findings": [{"rule": "KFK2003", "file": "prod/server.properties", "key": "ssl.keystore.password", "value_hash": "` + secretHash + `"}]}`
	writeFile(t, "old.json", old)
	writeFile(t, "prod/server.properties", broker("hunter2"))
	code, rep := lintJSON(t, "--baseline", "old.json", "prod")
	if diff := gocmp.Diff([]string{"prod/server.properties:6:KFK1001"}, found(rep)); diff != "" || rep.Summary.Baselined != 1 {
		t.Errorf("old entry, unchanged password (exit %d): want KFK2003 hidden, findings (-want +got):\n%s", code, diff)
	}
	_, _, errOut := run(t, "lint", "--baseline", "old.json", "--baseline-prune", "prod")
	if !strings.Contains(errOut, "rewrote 1 entry of sensitive settings without the hash of their value in old.json") {
		t.Errorf("prune: %s", errOut)
	}
	if data, _ := os.ReadFile("old.json"); strings.Contains(string(data), secretHash) || !strings.Contains(string(data), `"key": "ssl.keystore.password"`) {
		t.Errorf("after prune the old entry still holds the hash, or is gone:\n%s", data)
	}
	writeFile(t, "prod/server.properties", broker("rotated"))
	if _, rep := lintJSON(t, "--baseline", "old.json", "prod"); rep.Summary.Baselined != 1 {
		t.Errorf("rewritten entry, rotated password: baselined %d, want 1", rep.Summary.Baselined)
	}

	// An old entry whose password has changed no longer matches.
	writeFile(t, "old.json", old)
	if _, rep := lintJSON(t, "--baseline", "old.json", "prod"); rep.Summary.Baselined != 0 {
		t.Errorf("old entry, changed password: baselined %d, want 0", rep.Summary.Baselined)
	}
}
