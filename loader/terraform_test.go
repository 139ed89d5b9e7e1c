package loader

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kafkalint/kafkalint/loader/catalog"
	"github.com/kafkalint/kafkalint/loader/safefs"
)

var terraformDefaultKeys = map[string][]string{
	catalog.Broker: {"controlled.shutdown.enable", "default.replication.factor", "min.insync.replicas", "offsets.topic.replication.factor"},
}

// TestTerraformGolden loads each fixture module of loader/terraform/testdata
// and compares the cluster model (positions included) with
// model.golden.json beside it.
func TestTerraformGolden(t *testing.T) {
	dirs, err := filepath.Glob(filepath.Join("terraform", "testdata", "*"))
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	for _, dir := range dirs {
		if info, err := os.Stat(dir); err != nil || !info.IsDir() || filepath.Base(dir) == "fuzz" {
			continue // fuzz: the fuzzers' seed corpus
		}
		t.Run(filepath.Base(dir), func(t *testing.T) {
			abs, err := filepath.Abs(dir)
			if err != nil {
				t.Fatal(err)
			}
			res := load(t, abs, Options{DefaultKeys: terraformDefaultKeys})
			// Clusters declared in one file share a name and a first file,
			// so their order (and which of them gets the " (file)" suffix)
			// is not part of what this test pins: compare them as a set.
			clusters := make([]json.RawMessage, 0, len(res.Clusters))
			for _, c := range res.Clusters {
				c.Name, _, _ = strings.Cut(c.Name, " (")
				b, err := json.Marshal(c)
				if err != nil {
					t.Fatal(err)
				}
				clusters = append(clusters, b)
			}
			slices.SortFunc(clusters, func(a, b json.RawMessage) int { return strings.Compare(string(a), string(b)) })
			got, err := json.MarshalIndent(struct {
				Files    int               `json:"files"`
				Skipped  int               `json:"skipped"`
				Errors   []*Error          `json:"errors"`
				Clusters []json.RawMessage `json:"clusters"`
			}{res.Files, res.Skipped, nonNil(res.Errors), clusters}, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			checkGolden(t, filepath.Join(dir, "model.golden.json"), append(got, '\n'))
		})
	}
}

// TestTerraformComments checks that docs carry their file's comments: HCL
// comments (trailing ones marked) and the comment lines of heredocs, for
// inline directives.
func TestTerraformComments(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "main.tf", `# header
resource "kafka_topic" "t" { # after code
  name               = "t"
  replication_factor = 3 // also after code
  partitions         = 1
}

resource "aws_msk_configuration" "c" {
  server_properties = <<EOT
# kafkalint:ignore KFK1004 -- reason
min.insync.replicas=1
EOT
}
`)
	root, err := safefs.OpenRoot(dir, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	docs := terraformFormat{}.load([]Input{{Path: filepath.Join(dir, "main.tf"), Display: "main.tf", root: root}})
	if len(docs) != 2 {
		t.Fatalf("got %d docs, want 2", len(docs))
	}
	want := []Comment{
		{Line: 1, Text: "header"},
		{Line: 2, Text: "after code", Trailing: true},
		{Line: 4, Text: "also after code", Trailing: true},
		{Line: 10, Text: "kafkalint:ignore KFK1004 -- reason"},
	}
	for _, d := range docs {
		if diff := cmp.Diff(want, d.Comments); diff != "" {
			t.Errorf("%s comments mismatch (-want +got):\n%s", d.Name, diff)
		}
	}
}

// TestTerraformBadInputKeepsOtherFiles: an invalid file is an error with
// its line, and the module's other files are still read.
func TestTerraformBadInputKeepsOtherFiles(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "broken.tf", "resource \"kafka_topic\" \"x\" {\n  name: \"x\"\n}\n")
	write(t, dir, "topics.tf", "resource \"kafka_topic\" \"y\" {\n  name = \"y\"\n  replication_factor = 3\n  partitions = 1\n}\n")
	write(t, dir, "props/server.properties", "broker.id=1\n")
	res := load(t, dir, Options{})
	if len(res.Errors) != 1 || res.Errors[0].File != "broken.tf" || res.Errors[0].Line != 2 || !strings.Contains(res.Errors[0].Message, "invalid HCL") {
		t.Fatalf("errors = %+v, want one for broken.tf line 2", res.Errors)
	}
	var topics, nodes int
	for _, c := range res.Clusters {
		topics += len(c.Topics)
		nodes += len(c.Nodes)
	}
	if topics != 1 || nodes != 1 {
		t.Errorf("topics = %d, nodes = %d; want 1 and 1", topics, nodes)
	}
}

// TestCorpusTerraform loads the real-world Terraform corpus: the directory
// as one module and every file on its own. Nothing panics, the valid files
// load without errors, and the deliberately invalid one (MANIFEST.tsv: JSON
// style colons, 2018) is an error with a line. The corpus keeps single
// files of each repository, so the local modules its examples call
// (source = "../..") are not there: each such call is an error at its
// module block, and nothing else is.
func TestCorpusTerraform(t *testing.T) {
	root := filepath.Join(corpusDir(t), "terraform")
	files, err := filepath.Glob(filepath.Join(root, "*"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no Terraform corpus files (%v)", err)
	}
	const invalid = "travisjeffery__terraform-provider-kafka__examples__simple__main__invalid-2018-05.tf"
	checkErrors := func(t *testing.T, res *Result) {
		t.Helper()
		for _, e := range res.Errors {
			absent := strings.HasPrefix(e.Message, "module \"") && e.Line > 0 &&
				(strings.Contains(e.Message, "is outside the linted root") || strings.Contains(e.Message, "does not exist"))
			if e.File != invalid && !absent {
				t.Errorf("unexpected load error: %v", e)
			} else if e.Line < 1 {
				t.Errorf("error without a line: %v", e)
			}
		}
	}
	res, err := Load([]string{root}, Options{Dir: root})
	if err != nil {
		t.Fatal(err)
	}
	checkErrors(t, res)
	if len(res.Errors) != 7 {
		t.Errorf("errors = %v, want the invalid 2018 file and the six calls of absent local modules", res.Errors)
	}
	brokers := map[string]int{}
	for _, c := range res.Clusters {
		for _, n := range c.Nodes {
			if c.BrokerCount != nil {
				brokers[n.File] = c.BrokerCount.Value
			}
		}
	}
	for file, n := range map[string]int{
		"garystafford__terraform-msk-demo__tf-msk__msk.tf":          3,
		"garystafford__terraform-msk-demo__tf-msk__msk_scram.tf":    2,
		"RADAR-base__RADAR-K8s-Infrastructure__aws__config__msk.tf": 3,
	} {
		if brokers[file] != n {
			t.Errorf("%s: broker count %d, want %d", file, brokers[file], n)
		}
	}
	for _, f := range files {
		name := filepath.Base(f)
		if !strings.HasSuffix(name, ".tf") && !strings.HasSuffix(name, ".tfvars") {
			continue
		}
		t.Run(name, func(t *testing.T) {
			res, err := Load([]string{f}, Options{Dir: root})
			if err != nil {
				t.Fatal(err)
			}
			checkErrors(t, res)
			if name == invalid && (len(res.Errors) != 1 || res.Errors[0].Line != 2) {
				t.Errorf("errors = %v, want one at line 2", res.Errors)
			}
		})
	}
	if !slices.ContainsFunc(files, func(f string) bool { return filepath.Base(f) == invalid }) {
		t.Errorf("the invalid corpus file %s is missing", invalid)
	}
}

// TestTerraformSupplyingFiles: the files that supply an MSK cluster's
// broker count (a variable's default), its Kafka version (a local) and the
// lines of its server properties (a heredoc local) are the cluster's
// files, and none of them is counted as skipped; a file that supplies
// nothing still is.
func TestTerraformSupplyingFiles(t *testing.T) {
	res, err := LoadSources([]Source{
		{Name: "infra/main.tf", Data: []byte(`resource "aws_msk_configuration" "c" {
  server_properties = local.props
}
resource "aws_msk_cluster" "k" {
  number_of_broker_nodes = var.brokers
  kafka_version          = local.version
  configuration_info {
    arn = aws_msk_configuration.c.arn
  }
}
`)},
		{Name: "infra/variables.tf", Data: []byte("variable \"brokers\" {\n  default = 3\n}\n")},
		{Name: "infra/versions.tf", Data: []byte("locals {\n  version = \"3.6.0\"\n}\n")},
		{Name: "infra/properties.tf", Data: []byte("locals {\n  props = <<EOT\nunclean.leader.election.enable=true\nEOT\n}\n")},
		{Name: "infra/outputs.tf", Data: []byte("output \"x\" {\n  value = 1\n}\n")},
	}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Clusters) != 1 {
		t.Fatalf("clusters = %d, want 1", len(res.Clusters))
	}
	c := res.Clusters[0]
	var files []string
	for _, f := range c.Files {
		files = append(files, f.Path)
	}
	want := []string{"infra/main.tf", "infra/properties.tf", "infra/variables.tf", "infra/versions.tf"}
	if diff := cmp.Diff(want, files); diff != "" {
		t.Errorf("cluster files (-want +got):\n%s", diff)
	}
	if c.Name != "infra" || c.BrokerCount == nil || c.BrokerCount.Value != 3 || c.KafkaVersion != "3.6" {
		t.Errorf("cluster %s: broker count %+v, version %s; want infra, 3, 3.6", c.Name, c.BrokerCount, c.KafkaVersion)
	}
	if res.Skipped != 1 {
		t.Errorf("skipped = %d, want 1 (outputs.tf supplies nothing)", res.Skipped)
	}
}
