package terraform

import (
	"errors"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"
)

// loadRoot loads the module in dir (slash-separated, relative to root)
// as the loader does, local module calls followed inside root.
func loadRoot(t *testing.T, root, dir string) *Result {
	t.Helper()
	read := func(rel string) ([]File, error) {
		name := path.Join(dir, rel)
		if name == ".." || strings.HasPrefix(name, "../") {
			return nil, errors.New("its folder is outside the linted root")
		}
		entries, err := os.ReadDir(filepath.Join(root, filepath.FromSlash(name)))
		if err != nil {
			return nil, errors.New("its folder " + name + " does not exist")
		}
		var files []File
		for _, e := range entries {
			if e.IsDir() || !IsModuleFile(e.Name()) {
				continue
			}
			data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(name), e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			files = append(files, File{Name: path.Join(name, e.Name()), Data: data})
		}
		return files, nil
	}
	files, err := read(".")
	if err != nil {
		t.Fatal(err)
	}
	return Load(files, Options{Module: func(rel string) ([]File, func(string) ([]byte, error), error) {
		files, err := read(rel)
		return files, nil, err
	}})
}

// TestLocalModules: a module called by a local path (an MSK module's
// examples/complete calling "../..", a root calling "./modules/kafka") is
// read with the call's arguments as its variables; a missing folder, a
// cycle and a folder outside the linted root are errors at the call, and
// the caller's other modules are still read.
func TestLocalModules(t *testing.T) {
	res := loadRoot(t, "testdata/local-modules", "examples/complete")
	var brokers []*Brokers
	for _, b := range res.Brokers {
		if b.Address == "module.msk.aws_msk_cluster.this" {
			brokers = append(brokers, b)
		}
	}
	if len(brokers) != 1 {
		t.Fatalf("brokers = %+v, want module.msk.aws_msk_cluster.this once", res.Brokers)
	}
	b := brokers[0]
	if b.File != "examples/complete/main.tf" || b.Loc.Line != 2 {
		t.Errorf("the called module's cluster is at %s:%d, want the module block (examples/complete/main.tf:2)", b.File, b.Loc.Line)
	}
	if b.BrokerCount == nil || b.BrokerCount.Value != 2 || b.BrokerCount.Loc.File != "examples/complete/main.tf" || b.BrokerCount.Loc.Line != 5 {
		t.Errorf("broker count = %+v, want the example's 2 at examples/complete/main.tf:5", b.BrokerCount)
	}
	if b.KafkaVersion == nil || b.KafkaVersion.Text != "3.5.1" {
		t.Errorf("kafka version = %+v, want the example's 3.5.1", b.KafkaVersion)
	}
	var drf bool
	for _, e := range b.Properties.Entries {
		if e.Key == "default.replication.factor" && e.Value == "2" && e.Loc.File == "examples/complete/main.tf" && e.Loc.Line == 8 {
			drf = true
		}
		if e.Key == "unclean.leader.election.enable" {
			t.Errorf("the example replaces the default map, yet %+v is read", e)
		}
	}
	if !drf {
		t.Errorf("properties = %+v, want default.replication.factor = 2 at examples/complete/main.tf:8", b.Properties.Entries)
	}
	var topic *Topic
	for _, tp := range res.Topics {
		if tp.Address == `module.msk.aws_msk_topic.this["orders"]` {
			topic = tp
		}
	}
	if topic == nil || topic.ReplicationFactor == nil || topic.ReplicationFactor.Text != "0" || topic.Group != b.Group {
		t.Fatalf("topics = %+v, want orders with replication factor 0 on the module's cluster %s", res.Topics, b.Group)
	}
	// ../.. calls ./modules/kafka, whose topic takes the call's name.
	var nested bool
	for _, tp := range res.Topics {
		if tp.Address == "module.msk.module.sub.kafka_topic.t" && tp.Name.Text == "sub" {
			nested = true
		}
	}
	if !nested {
		t.Errorf("topics = %+v, want module.msk.module.sub.kafka_topic.t named sub", res.Topics)
	}
	want := map[string]string{
		"missing": `module "missing" (source "./modules/none"): its folder examples/complete/modules/none does not exist`,
		"self":    `module "self" (source "./"): the module calls itself (examples/complete → examples/complete)`,
		"outside": `module "outside" (source "../../../.."): its folder is outside the linted root`,
		"loop":    `module "back" (source "../kafka"): the module calls itself (modules/kafka → modules/loop → modules/kafka)`,
	}
	for name, msg := range want {
		found := false
		for _, e := range res.Errors {
			if strings.HasPrefix(e.Message, msg) && e.Line > 0 {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: no error %q in %v", name, msg, res.Errors)
		}
	}
	if len(res.Errors) != len(want) {
		t.Errorf("errors = %v, want %d (the registry module is not followed, and is no error)", res.Errors, len(want))
	}
}

// TestPassThroughAttribute: server_properties taken from a resource that
// only passes it through (random_id keepers, create-before-destroy) is the
// text written there, so the module default's
// unclean.leader.election.enable=true is read, at its line; the
// attributes the provider computes (random_id.x.hex) stay unknown.
func TestPassThroughAttribute(t *testing.T) {
	res := loadRoot(t, "testdata/local-modules", ".")
	for _, b := range res.Brokers {
		if b.Address != "aws_msk_cluster.this" {
			continue
		}
		for _, e := range b.Properties.Entries {
			if e.Key == "unclean.leader.election.enable" {
				if e.Value != "true" || e.Unknown || e.Loc.File != "variables.tf" || e.Loc.Line != 15 {
					t.Errorf("unclean.leader.election.enable = %+v, want true at variables.tf:15", e)
				}
				return
			}
		}
		t.Fatalf("properties = %+v (incomplete %v), want unclean.leader.election.enable", b.Properties.Entries, b.Properties.Incomplete)
	}
	t.Fatalf("no aws_msk_cluster.this in %+v", res.Brokers)
}

// TestLocalModuleBounds: a module that calls a copy of itself in a new
// folder each time (a directory symlinked into itself looks like that) is
// stopped by the nesting limit, and count on such calls by the number of
// instances (reported once).
func TestLocalModuleBounds(t *testing.T) {
	for _, tc := range []struct{ count, want string }{
		{"1", "local modules nest deeper than 16 levels"},
		{"256", "more than 256 local module instances under one root module"},
	} {
		src := "module \"again\" {\n  source = \"./a\"\n  count  = " + tc.count + "\n}\n"
		self := func(string) ([]File, func(string) ([]byte, error), error) {
			return []File{{Name: "main.tf", Data: []byte(src)}}, nil, nil
		}
		res := Load([]File{{Name: "main.tf", Data: []byte(src)}}, Options{Module: self})
		n := 0
		for _, e := range res.Errors {
			if strings.Contains(e.Message, tc.want) {
				n++
			}
		}
		if n != 1 {
			t.Errorf("count %s: errors = %v, want one: %s", tc.count, res.Errors, tc.want)
		}
	}
}
