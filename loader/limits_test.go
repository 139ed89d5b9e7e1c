package loader

import (
	"fmt"
	"strings"
	"testing"
)

// loadOne loads one in-memory properties file.
func loadOne(t *testing.T, name, src string) *Result {
	t.Helper()
	res, err := LoadSources([]Source{{Name: name, Data: []byte(src)}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestLimitsAreLoadErrors: past a limit the file is one errors[] entry
// with its line and the reason (no value quoted), and the other files
// are still loaded.
func TestLimitsAreLoadErrors(t *testing.T) {
	voters := func(n int) string {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, "%d@ctl-%d.internal:9093,", i, i)
		}
		return b.String()
	}
	keys := func(n int) string {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, "k%d=v\n", i)
		}
		return b.String()
	}
	tests := []struct {
		name, src string
		line      int
		msg       string
	}{
		{"keys per file", "process.roles=broker\n" + keys(MaxKeysPerFile), MaxKeysPerFile + 1, "more than 5000 keys"},
		{"logical line", "process.roles=broker\nsasl.jaas.config=" + strings.Repeat("hunter2", MaxLineBytes/7+1) + "\n", 2, "logical line longer than 1048576 bytes"},
		{"key repeats", "process.roles=broker\n" + strings.Repeat("node.id=1\n", MaxKeyRepeats) + "node.id=hunter2\n", MaxKeyRepeats + 2, `key "node.id" is set more than 20 times`},
		{"voters", "process.roles=controller\nnode.id=1\ncontroller.quorum.voters=" + voters(MaxListEntries+1) + "\n", 3, "controller.quorum.voters has more than 1000 entries"},
		{"listeners", "process.roles=broker\nnode.id=1\nlisteners=" + strings.Repeat("PLAINTEXT://:9092,", MaxListEntries+1) + "\n", 3, "listeners has more than 1000 entries"},
		{"client bootstrap servers", "acks=all\nbootstrap.servers=" + strings.Repeat("b:9092,", MaxListEntries+1) + "\n", 2, "bootstrap.servers has more than 1000 entries"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := LoadSources([]Source{
				{Name: "prod/a/server.properties", Data: []byte(tt.src)},
				{Name: "prod/b/server.properties", Data: []byte("process.roles=broker\nnode.id=2\n")},
			}, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Errors) != 1 {
				t.Fatalf("errors = %+v, want one", res.Errors)
			}
			e := res.Errors[0]
			if e.File != "prod/a/server.properties" || e.Line != tt.line || !strings.Contains(e.Message, tt.msg) {
				t.Errorf("error = %s:%d %q, want line %d containing %q", e.File, e.Line, e.Message, tt.line, tt.msg)
			}
			if strings.Contains(e.Message, "hunter2") || strings.Contains(e.Message, "ctl-") {
				t.Errorf("error %q quotes a value", e.Message)
			}
			if len(res.Clusters) != 1 || len(res.Clusters[0].Nodes) != 1 {
				t.Errorf("the other file is not loaded: %d clusters", len(res.Clusters))
			}
		})
	}
}

// TestBelowLimits: at each limit the file loads; a Jinja template may
// repeat a key in its branches as often as it likes.
func TestBelowLimits(t *testing.T) {
	voters := make([]string, MaxListEntries)
	for i := range voters {
		voters[i] = fmt.Sprintf("%d@ctl-%d.internal:9093", i, i)
	}
	for name, src := range map[string]string{
		"voters":   "process.roles=controller\nnode.id=1\ncontroller.quorum.voters=" + strings.Join(voters, ",") + ",,\n",
		"repeats":  "process.roles=broker\n" + strings.Repeat("node.id=1\n", MaxKeyRepeats-1),
		"template": "process.roles=broker\n" + strings.Repeat("{% if x %}\nnode.id=1\n{% endif %}\n", 3*MaxKeyRepeats),
	} {
		if res := loadOne(t, "server.properties", src); len(res.Errors) != 0 || len(res.Clusters) != 1 {
			t.Errorf("%s: errors %+v, %d clusters", name, res.Errors, len(res.Clusters))
		}
	}
	res := loadOne(t, "server.properties", "process.roles=broker\n"+strings.Repeat("node.id=1\n", MaxKeyRepeats-1))
	dups := res.Clusters[0].Files[0].Duplicates
	if len(dups) != MaxKeyRepeats-2 || len(dups[len(dups)-1].Previous) != MaxKeyRepeats-2 || dups[0].Previous[0].Line != 2 {
		t.Errorf("duplicates = %+v", dups)
	}
	for i, d := range dups {
		for j, p := range d.Previous {
			if p.Line != 2+j || d.Loc.Line != 3+i {
				t.Fatalf("duplicate %d = %+v, want the lines before %d", i, d, 3+i)
			}
		}
	}
}

// TestEmptyKeyIsASetting: "=value" is the key "" (as Java reads it),
// exempt from unknown-key, which has no name to suggest; empty-key
// reports it.
func TestEmptyKeyIsASetting(t *testing.T) {
	res := loadOne(t, "prod/server.properties", "process.roles=broker\nnode.id=1\n=hunter2\n")
	if len(res.Errors) != 0 || len(res.Clusters) != 1 {
		t.Fatalf("errors %+v", res.Errors)
	}
	s := res.Clusters[0].Nodes[0].Settings[""]
	if s == nil || s.Raw != "hunter2" || s.Loc.Line != 3 || s.KeyStatus != KeyExempt {
		t.Errorf("setting \"\" = %+v", s)
	}
}

// TestListEntryMessagesAreCut: a malformed list entry is quoted in its
// message at most 64 bytes long, however long the entry.
func TestListEntryMessagesAreCut(t *testing.T) {
	long := strings.Repeat("h", 5000)
	res := loadOne(t, "server.properties", "process.roles=broker,controller\nnode.id=1\n"+
		"controller.quorum.voters=1@"+long+"\n"+"listeners=PLAINTEXT://"+long+"\n")
	n := res.Clusters[0].Nodes[0]
	for _, msg := range []string{n.Quorum.Voters[0].Error, n.Listeners[0].Error} {
		if msg == "" || len(msg) > 200 || !strings.Contains(msg, `"…`) {
			t.Errorf("message %.300q is not cut", msg)
		}
	}
}
