package cli

import (
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/kafkalint/kafkalint/loader/catalog"
)

// TestVersionCommand: `kafkalint version` and `kafkalint --version` print
// the same lines: version, commit, Go and the cataloged Kafka versions.
func TestVersionCommand(t *testing.T) {
	code, out, _ := run(t, "version")
	_, flag, _ := run(t, "--version")
	want := "\ngo:     " + runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH +
		"\nkafka:  " + strings.Join(catalog.Versions(), ", ") + "\n"
	if code != ExitOK || !strings.HasPrefix(out, "kafkalint ") || !strings.Contains(out, "\ncommit: ") || !strings.HasSuffix(out, want) {
		t.Errorf("version: exit %d\n%s\nwant it to end with\n%s", code, out, want)
	}
	if flag != out {
		t.Errorf("--version printed\n%s\nversion printed\n%s", flag, out)
	}
}

// TestVersionStamp: the ldflags values win; each one missing is read from
// the build info (`go install …@v0.3.0` records the module version, `go
// build` in a checkout the vcs.* settings).
func TestVersionStamp(t *testing.T) {
	info := &debug.BuildInfo{Main: debug.Module{Version: "v0.3.0"}, Settings: []debug.BuildSetting{
		{Key: "vcs.revision", Value: "abc123"}, {Key: "vcs.time", Value: "2026-01-02T03:04:05Z"}, {Key: "vcs.modified", Value: "true"},
	}}
	devel := &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}
	tests := []struct {
		name                  string
		ldflags               [3]string
		info                  *debug.BuildInfo
		version, commit, date string
		modified              bool
	}{
		{"build info", [3]string{}, info, "v0.3.0", "abc123", "2026-01-02T03:04:05Z", true},
		{"ldflags", [3]string{"v1.0.0", "def456", "2026-05-06T07:08:09Z"}, info, "v1.0.0", "def456", "2026-05-06T07:08:09Z", true},
		{"only the version stamped", [3]string{"v1.0.0", "", ""}, info, "v1.0.0", "abc123", "2026-01-02T03:04:05Z", true},
		{"devel", [3]string{}, devel, "dev", "", "", false},
		{"no build info", [3]string{}, nil, "dev", "", "", false},
	}
	saved := [3]string{Version, Commit, Date}
	t.Cleanup(func() { Version, Commit, Date = saved[0], saved[1], saved[2] })
	for _, tt := range tests {
		Version, Commit, Date = tt.ldflags[0], tt.ldflags[1], tt.ldflags[2]
		got := stamp(tt.info)
		want := buildStamp{version: tt.version, commit: tt.commit, date: tt.date, modified: tt.modified}
		if got != want {
			t.Errorf("%s: %+v, want %+v", tt.name, got, want)
		}
	}
}

// TestReleaseLdflags builds kafkalint with the ldflags of .goreleaser.yaml
// (its templates filled in as a release fills them) and runs `version`:
// a variable that moved or was renamed would leave the release saying "dev".
func TestReleaseLdflags(t *testing.T) {
	goBin := needTool(t, "go", "the Go toolchain")
	if testing.Short() {
		t.Skip("builds kafkalint")
	}
	data, err := os.ReadFile(filepath.Join(repoRoot(t), ".goreleaser.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var cfg struct {
		Builds []struct {
			Main    string   `yaml:"main"`
			Ldflags []string `yaml:"ldflags"`
		} `yaml:"builds"`
	}
	if err := yaml.Unmarshal(data, &cfg); err != nil || len(cfg.Builds) != 1 {
		t.Fatalf(".goreleaser.yaml: %v, %d builds (want 1)", err, len(cfg.Builds))
	}
	fill := strings.NewReplacer("{{ .Tag }}", "v9.8.7", "{{ .FullCommit }}", "0123456789abcdef0123456789abcdef01234567",
		"{{ .CommitDate }}", "2026-12-01T10:00:00Z")
	ldflags := fill.Replace(strings.Join(cfg.Builds[0].Ldflags, " "))
	if strings.Contains(ldflags, "{{") {
		t.Fatalf("a template this test does not fill: %s", ldflags)
	}
	bin := filepath.Join(t.TempDir(), "kafkalint")
	if out, code := runIn(t, repoRoot(t), nil, goBin, "build", "-ldflags="+ldflags, "-o", bin, cfg.Builds[0].Main); code != 0 {
		t.Fatalf("go build: %s", out)
	}
	out, code := runIn(t, ".", nil, bin, "version")
	if code != 0 || !strings.HasPrefix(out, "kafkalint v9.8.7\ncommit: 0123456789abcdef0123456789abcdef01234567, 2026-12-01T10:00:00Z\n") {
		t.Errorf("a release build says:\n%s", out)
	}
}
