package loader

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func mirrorOf(t *testing.T, text, version string) *MirrorMaker {
	t.Helper()
	dir := t.TempDir()
	write(t, dir, "mm2.properties", text)
	res := load(t, dir, Options{KafkaVersion: version})
	for _, c := range res.Clusters {
		if len(c.MirrorMakers) == 1 {
			return c.MirrorMakers[0]
		}
	}
	t.Fatal("no MirrorMaker 2 config loaded")
	return nil
}

func TestMirrorFlows(t *testing.T) {
	mm := mirrorOf(t, `clusters=primary, backup
primary.bootstrap.servers=p-1:9092
primary->backup.enabled=TRUE
primary->backup.emit.checkpoints.interval.seconds=120
backup->primary.enabled=yes
emit.checkpoints.interval.seconds=30
replication.factor=3
c->primary.topics=.*
c->primary.enabled=true
`, "4.3")
	type flow struct {
		Source, Target string
		Enabled        bool
		Line           int
		Interval       any
		IntervalLine   int
		RF             any
	}
	var got []flow
	for _, f := range mm.Flows {
		got = append(got, flow{
			f.Source, f.Target, f.Enabled, f.Loc.Line,
			f.Settings["emit.checkpoints.interval.seconds"].Value, f.Settings["emit.checkpoints.interval.seconds"].Loc.Line,
			f.Settings["replication.factor"].Value,
		})
	}
	want := []flow{
		// enabled=TRUE: Boolean.parseBoolean ignores case; the override wins.
		{"primary", "backup", true, 3, int64(120), 4, int64(3)},
		// enabled=yes reads as false, with no error.
		{"backup", "primary", false, 5, int64(30), 6, int64(3)},
		// c is not in clusters: the flow is modeled so rules can say so,
		// and does not run although its enabled reads true.
		{"c", "primary", false, 9, int64(30), 6, int64(3)},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("flows (-want +got):\n%s", diff)
	}
	type alias struct {
		Name      string
		Declared  bool
		Bootstrap bool
		Line      int
	}
	var aliases []alias
	for _, a := range mm.Aliases {
		aliases = append(aliases, alias{a.Name, a.Declared, a.BootstrapServers != nil, a.Loc.Line})
	}
	wantAliases := []alias{{"primary", true, true, 1}, {"backup", true, false, 1}, {"c", false, false, 8}}
	if diff := cmp.Diff(wantAliases, aliases); diff != "" {
		t.Errorf("aliases (-want +got):\n%s", diff)
	}
	if s := mm.Settings["primary->backup.emit.checkpoints.interval.seconds"]; s.Type != "long" || s.KeyStatus != KeyKnown {
		t.Errorf("flow override typed %q, status %q; want long, known", s.Type, s.KeyStatus)
	}
	if s := mm.Settings["backup->primary.enabled"]; s.Invalid != "" || s.Value != false {
		t.Errorf("enabled=yes: value %v, invalid %q; want false and valid", s.Value, s.Invalid)
	}
}

func TestMirrorUnknownPlaceholderFlag(t *testing.T) {
	mm := mirrorOf(t, "clusters=a,b\na->b.enabled=${env:ENABLED}\n", "4.3")
	f := mm.Flows[0]
	if f.Enabled || f.EnabledSetting == nil || !f.EnabledSetting.Unknown {
		t.Errorf("placeholder enabled: enabled %v, setting %+v; want false and unknown", f.Enabled, f.EnabledSetting)
	}
}

func TestMirrorKeyStatus(t *testing.T) {
	mm := mirrorOf(t, `clusters=A,B
A.bootstrap.servers=a:9092
A->B.enabled=true
A->B.enable=true
A->B.emit.heartbeats=false
A->B.consumer.max.poll.records=100
A->B.topics.blacklist=x
A->B.sync.group.offsets.interval.seconds=soon
emit.heartbeat.enabled=false
offset.storage.replication.factor=3
`, "4.3")
	tests := []struct {
		key  string
		want annotation
	}{
		{"A.bootstrap.servers", annotation{Status: KeyExempt, Value: "a:9092"}},
		{"A->B.enabled", annotation{Status: KeyKnown, Value: true}},
		{"A->B.enable", annotation{Status: KeyUnknown, Suggestion: "A->B.enabled", Value: "true"}},
		{"A->B.emit.heartbeats", annotation{Status: KeyUnknown, Suggestion: "A->B.emit.heartbeats.enabled", Value: "false"}},
		{"A->B.consumer.max.poll.records", annotation{Status: KeyExempt, Value: "100"}},
		{"A->B.topics.blacklist", annotation{Status: KeyRemoved, RemovedAfter: "3.9", Value: []string{"x"}}},
		{"A->B.sync.group.offsets.interval.seconds", annotation{Status: KeyKnown, Invalid: "Not a number of type LONG"}},
		{"emit.heartbeat.enabled", annotation{Status: KeyUnknown, Suggestion: "emit.heartbeats.enabled", Value: "false"}},
		// Connect worker settings are not cataloged: not judged.
		{"offset.storage.replication.factor", annotation{Status: KeyExempt, Value: "3"}},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, annotationOf(mm.Settings[tt.key])); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.key, diff)
		}
	}
}
