package lint

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kafkalint/kafkalint/loader"
	"github.com/kafkalint/kafkalint/report"
)

// clusterSpec describes a correct split KRaft cluster written under dir:
// three dedicated controllers and three brokers (each in its own directory
// with the meta.properties of its log directory) and a producer.
type clusterSpec struct {
	dir       string // e.g. prod/payments
	domain    string // host names are controller-N.<domain>, broker-N.<domain>
	clusterID string
	minISR    int
	// advertise: brokers bind every interface and advertise their host
	// names (clients must then be matched by the advertised endpoint).
	advertise bool
}

var payments = clusterSpec{dir: "prod/payments", domain: "payments.example.com", clusterID: "p7Zk3QmVRWeYcD9tLx2Hsg", minISR: 2}

func (s clusterSpec) voters() string {
	var vs []string
	for i := 1; i <= 3; i++ {
		vs = append(vs, fmt.Sprintf("%d@controller-%d.%s:9093", i, i, s.domain))
	}
	return strings.Join(vs, ",")
}

// files returns the cluster's files by path. Every node sets the
// durability settings the KRaft controllers govern, so no rule at warning
// or above has anything to report.
func (s clusterSpec) files() map[string]string {
	files := map[string]string{}
	secrets := "ssl.keystore.type=PKCS12\n" +
		"ssl.keystore.password=${file:/etc/kafka/secrets.properties:keystore.password}\n" +
		"ssl.truststore.location=/etc/kafka/ssl/truststore.p12\n" +
		"ssl.truststore.type=PKCS12\n" +
		"ssl.truststore.password=${file:/etc/kafka/secrets.properties:truststore.password}\n" +
		"config.providers=file\n" +
		"config.providers.file.class=org.apache.kafka.common.config.provider.FileConfigProvider\n"
	cluster := "authorizer.class.name=org.apache.kafka.metadata.authorizer.StandardAuthorizer\n" +
		"super.users=User:admin\n" +
		fmt.Sprintf("min.insync.replicas=%d\n", s.minISR) +
		"default.replication.factor=3\n"
	zones := []string{"zone-a", "zone-b", "zone-c"}
	for i := 1; i <= 3; i++ {
		dir := fmt.Sprintf("%s/controller-%d", s.dir, i)
		files[dir+"/server.properties"] = "process.roles=controller\n" +
			fmt.Sprintf("node.id=%d\n", i) +
			"controller.quorum.voters=" + s.voters() + "\n" +
			fmt.Sprintf("listeners=CONTROLLER://controller-%d.%s:9093\n", i, s.domain) +
			"controller.listener.names=CONTROLLER\n" +
			"listener.security.protocol.map=CONTROLLER:SSL\n" +
			fmt.Sprintf("ssl.keystore.location=/etc/kafka/ssl/controller-%d.p12\n", i) + secrets +
			"broker.rack=" + zones[i-1] + "\n" +
			"log.dirs=/var/lib/kafka/metadata\n" + cluster
		files[dir+"/metadata/meta.properties"] = fmt.Sprintf("version=1\ncluster.id=%s\nnode.id=%d\n", s.clusterID, i)
	}
	for i := 1; i <= 3; i++ {
		dir := fmt.Sprintf("%s/broker-%d", s.dir, i)
		listeners := fmt.Sprintf("listeners=INTERNAL://broker-%d.%s:9092,CLIENT://broker-%d.%s:9094\n", i, s.domain, i, s.domain)
		if s.advertise {
			listeners = "listeners=INTERNAL://0.0.0.0:9092,CLIENT://0.0.0.0:9094\n" +
				fmt.Sprintf("advertised.listeners=INTERNAL://broker-%d.%s:9092,CLIENT://broker-%d.%s:9094\n", i, s.domain, i, s.domain)
		}
		files[dir+"/server.properties"] = "process.roles=broker\n" +
			fmt.Sprintf("node.id=%d\n", i+3) +
			"controller.quorum.voters=" + s.voters() + "\n" +
			listeners +
			"listener.security.protocol.map=INTERNAL:SSL,CLIENT:SASL_SSL,CONTROLLER:SSL\n" +
			"inter.broker.listener.name=INTERNAL\n" +
			"controller.listener.names=CONTROLLER\n" +
			"sasl.enabled.mechanisms=SCRAM-SHA-512\n" +
			"listener.name.client.scram-sha-512.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required;\n" +
			fmt.Sprintf("ssl.keystore.location=/etc/kafka/ssl/broker-%d.p12\n", i) + secrets +
			"broker.rack=" + zones[i-1] + "\n" +
			"log.dirs=/var/lib/kafka/data\n" +
			"auto.create.topics.enable=false\n" +
			"controlled.shutdown.enable=true\n" + cluster
		files[dir+"/data/meta.properties"] = fmt.Sprintf("version=1\ncluster.id=%s\nnode.id=%d\n", s.clusterID, i+3)
	}
	files[s.dir+"/clients/producer.properties"] = s.producer(1)
	return files
}

// producer is a producer of the cluster whose bootstrap.servers names
// broker-n's client endpoint.
func (s clusterSpec) producer(n int) string {
	return fmt.Sprintf("bootstrap.servers=broker-%d.%s:9094\n", n, s.domain) +
		"security.protocol=SASL_SSL\n" +
		"sasl.mechanism=SCRAM-SHA-512\n" +
		"sasl.jaas.config=${file:/etc/app/secrets.properties:sasl.jaas.config}\n" +
		"config.providers=file\n" +
		"config.providers.file.class=org.apache.kafka.common.config.provider.FileConfigProvider\n" +
		"key.serializer=org.apache.kafka.common.serialization.StringSerializer\n" +
		"value.serializer=org.apache.kafka.common.serialization.StringSerializer\n" +
		"acks=all\n" +
		"enable.idempotence=true\n"
}

// edit replaces old with new in one file; the test fails when old is not
// there, so a mutation can never silently become a no-op.
func edit(t *testing.T, files map[string]string, path, old, replacement string) {
	t.Helper()
	text, ok := files[path]
	if !ok || !strings.Contains(text, old) {
		t.Fatalf("mutation: %s does not contain %q", path, old)
	}
	files[path] = strings.Replace(text, old, replacement, 1)
}

// sources are files as in-memory sources, by name.
func sources(files map[string]string) []loader.Source {
	var out []loader.Source
	for _, path := range slices.Sorted(maps.Keys(files)) {
		out = append(out, loader.Source{Name: path, Data: []byte(files[path])})
	}
	return out
}

// atWarningOrAbove lists findings of severity warning or error as
// "file:line:ID".
func atWarningOrAbove(findings []report.Finding) []string {
	var out []string
	for _, f := range findings {
		if f.Severity == "warning" || f.Severity == "error" {
			out = append(out, fmt.Sprintf("%s:%d:%s", f.File, f.Line, f.ID))
		}
	}
	slices.Sort(out)
	return out
}

func lintCluster(t *testing.T, files map[string]string) report.Report {
	t.Helper()
	rep, err := Run(t.Context(), nil, Options{Sources: sources(files)})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Errors) > 0 {
		t.Fatalf("load errors: %+v", rep.Errors)
	}
	return *rep
}

// TestSplitClusterEndToEnd lints a realistic correct split cluster (no
// finding at warning or above), then applies one mistake per cross-node
// rule and requires exactly that rule's findings, at the expected lines.
func TestSplitClusterEndToEnd(t *testing.T) {
	t.Parallel()
	const (
		c1, c2, c3 = "prod/payments/controller-1/server.properties", "prod/payments/controller-2/server.properties", "prod/payments/controller-3/server.properties"
		b1, b2, b3 = "prod/payments/broker-1/server.properties", "prod/payments/broker-2/server.properties", "prod/payments/broker-3/server.properties"
		producer   = "prod/payments/clients/producer.properties"
		metaB2     = "prod/payments/broker-2/data/meta.properties"
		metaB3     = "prod/payments/broker-3/data/meta.properties"
		metaC3     = "prod/payments/controller-3/metadata/meta.properties"
	)
	t.Run("correct cluster", func(t *testing.T) {
		rep := lintCluster(t, payments.files())
		if got := atWarningOrAbove(rep.Findings); len(got) != 0 {
			t.Errorf("findings at warning or above on a correct cluster: %v", got)
		}
		if rep.Summary.Clusters != 1 || rep.Summary.Files != 13 {
			t.Errorf("summary = %+v, want 13 files in 1 cluster", rep.Summary)
		}
	})
	voters := payments.voters()
	tests := []struct {
		rule   string
		mutate func(t *testing.T, files map[string]string)
		want   []string // file:line of the findings, all of rule
	}{
		{"KFK3004", func(t *testing.T, f map[string]string) {
			edit(t, f, b1, "controller.quorum.voters="+voters, "controller.quorum.bootstrap.servers=controller-1.payments.example.com:9093,controller-2.payments.example.com:9093")
		}, []string{b1 + ":3"}},
		{"KFK3010", func(t *testing.T, f map[string]string) {
			edit(t, f, b2, ",3@controller-3.payments.example.com:9093", "")
		}, []string{b2 + ":3"}},
		{"KFK3011", func(t *testing.T, f map[string]string) {
			edit(t, f, b3, "node.id=6", "node.id=5")
			edit(t, f, metaB3, "node.id=6", "node.id=5")
		}, []string{b2 + ":2", b3 + ":2"}},
		{"KFK3012", func(t *testing.T, f map[string]string) {
			edit(t, f, c3, "node.id=3", "node.id=7")
			edit(t, f, metaC3, "node.id=3", "node.id=7")
		}, []string{c3 + ":2"}},
		{"KFK3013", func(_ *testing.T, f map[string]string) {
			for path, text := range f {
				if strings.HasSuffix(path, "server.properties") {
					f[path] = strings.Replace(text, voters, voters+",4@broker-1.payments.example.com:9093,5@broker-2.payments.example.com:9093", 1)
				}
			}
		}, []string{b1 + ":2", b2 + ":2"}},
		{"KFK3014", func(t *testing.T, f map[string]string) {
			edit(t, f, c2, "listeners=CONTROLLER://controller-2.payments.example.com:9093", "listeners=CONTROLLER://controller-2.payments.example.com:9094")
		}, []string{c2 + ":4"}},
		{"KFK3015", func(t *testing.T, f map[string]string) {
			// A second controller listener named for a migration but never bound.
			for _, c := range []string{c1, c2, c3} {
				edit(t, f, c, "controller.listener.names=CONTROLLER\n", "controller.listener.names=CONTROLLER,CONTROLLER_TLS\n")
			}
		}, []string{c1 + ":5", c2 + ":5", c3 + ":5"}},
		{"KFK3016", func(t *testing.T, f map[string]string) {
			edit(t, f, b2, ",CLIENT://broker-2.payments.example.com:9094", ",CLIENT://broker-2.payments.example.com:9094,CONTROLLER://broker-2.payments.example.com:9093")
		}, []string{b2 + ":4"}},
		{"KFK3017", func(t *testing.T, f map[string]string) {
			edit(t, f, metaB2, "cluster.id="+payments.clusterID, "cluster.id=x7GZCdrZQFmi3qLGYyYo1w")
		}, []string{metaB2 + ":2"}},
		{"KFK3018", func(t *testing.T, f map[string]string) {
			edit(t, f, c2, "broker.rack=zone-b", "broker.rack=zone-a")
		}, []string{c1 + ":3", c2 + ":3", c3 + ":3"}},
		{"KFK6001", func(t *testing.T, f map[string]string) {
			edit(t, f, c3, "default.replication.factor=3", "default.replication.factor=4")
		}, []string{c3 + ":20"}},
		{"KFK4004", func(_ *testing.T, f map[string]string) {
			f[b1] += "leader.imbalance.check.interval.seconds=60\n"
		}, []string{b1 + ":26"}},
		{"KFK1005", func(t *testing.T, f map[string]string) {
			edit(t, f, producer, "acks=all\nenable.idempotence=true\n", "acks=1\nenable.idempotence=false\n")
		}, []string{producer + ":9"}},
	}
	for _, tt := range tests {
		t.Run(tt.rule, func(t *testing.T) {
			t.Parallel()
			files := payments.files()
			tt.mutate(t, files)
			rep := lintCluster(t, files)
			var want []string
			for _, at := range tt.want {
				want = append(want, at+":"+tt.rule)
			}
			slices.Sort(want)
			if diff := cmp.Diff(want, atWarningOrAbove(rep.Findings)); diff != "" {
				t.Errorf("findings at warning or above (-want +got):\n%s", diff)
			}
			for _, f := range rep.Findings {
				if f.ID == tt.rule && len(f.Related) == 0 && tt.rule != "KFK3016" {
					t.Errorf("%s at %s:%d has no related locations", f.ID, f.File, f.Line)
				}
			}
		})
	}
}

// TestProducerJoinsTheClusterItNames: a producer in a directory of its own
// joins the cluster whose brokers advertise the host:port its
// bootstrap.servers names (they bind 0.0.0.0), so KFK1005 fires only
// against the cluster that requires min.insync.replicas=2.
func TestProducerJoinsTheClusterItNames(t *testing.T) {
	t.Parallel()
	strict := payments
	strict.advertise = true
	lenient := clusterSpec{dir: "prod/orders", domain: "orders.example.com", clusterID: "x7GZCdrZQFmi3qLGYyYo1w", minISR: 1, advertise: true}
	const app = "prod/apps/checkout-producer.properties"
	for _, tt := range []struct {
		name      string
		names     clusterSpec
		wantAcks1 bool // KFK1005 expected
	}{
		{"names the min.insync.replicas=2 cluster", strict, true},
		{"names the min.insync.replicas=1 cluster", lenient, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			files := strict.files()
			maps.Copy(files, lenient.files())
			files[app] = strings.Replace(tt.names.producer(2), "acks=all\nenable.idempotence=true\n", "acks=1\nenable.idempotence=false\n", 1)
			rep := lintCluster(t, files)
			var got []string
			for _, f := range rep.Findings {
				if f.ID != "KFK1005" {
					continue
				}
				got = append(got, fmt.Sprintf("%s:%d", f.File, f.Line))
				for _, r := range f.Related {
					if !strings.HasPrefix(r.File, strict.dir+"/") {
						t.Errorf("KFK1005 related location %s:%d is outside %s", r.File, r.Line, strict.dir)
					}
				}
			}
			var want []string
			if tt.wantAcks1 {
				want = []string{app + ":9"}
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("KFK1005 findings (-want +got):\n%s", diff)
			}
			// The model puts the producer with exactly the named cluster's nodes.
			model, err := loader.LoadSources(sources(files), loader.Options{})
			if err != nil {
				t.Fatal(err)
			}
			joined := false
			for _, c := range model.Clusters {
				paths := []string{}
				for _, f := range c.Files {
					paths = append(paths, f.Path)
				}
				if !slices.Contains(paths, app) {
					continue
				}
				joined = true
				for _, p := range paths {
					if p != app && !strings.HasPrefix(p, tt.names.dir+"/") {
						t.Errorf("the producer's cluster holds %s, want only files under %s", p, tt.names.dir)
					}
				}
				if len(paths) != 14 {
					t.Errorf("the producer's cluster has %d files, want the 13 of %s and the producer", len(paths), tt.names.dir)
				}
			}
			if !joined || len(model.Clusters) != 2 {
				t.Errorf("producer joined a cluster: %v; clusters: %d, want 2", joined, len(model.Clusters))
			}
		})
	}
}

// TestSiblingClustersStayApart: two unrelated correct clusters in sibling
// directories, numbering their nodes alike, are linted apart: no voter-set
// disagreement (KFK3010) and no duplicate node.id (KFK3011) across them.
func TestSiblingClustersStayApart(t *testing.T) {
	t.Parallel()
	orders := clusterSpec{dir: "prod/orders", domain: "orders.example.com", clusterID: "x7GZCdrZQFmi3qLGYyYo1w", minISR: 2}
	files := payments.files()
	maps.Copy(files, orders.files())
	rep := lintCluster(t, files)
	if got := atWarningOrAbove(rep.Findings); len(got) != 0 {
		t.Errorf("findings at warning or above: %v", got)
	}
	if rep.Summary.Clusters != 2 {
		t.Errorf("summary.clusters = %d, want 2", rep.Summary.Clusters)
	}
	// The same pair merged into one cluster does disagree: the test above
	// would catch a grouping that merged them.
	edit(t, files, "prod/orders/broker-1/server.properties", "controller.quorum.voters="+orders.voters(), "controller.quorum.voters="+orders.voters()+",9@controller-1.payments.example.com:9093")
	rep = lintCluster(t, files)
	ids := map[string]bool{}
	for _, f := range rep.Findings {
		ids[f.ID] = true
	}
	if !ids["KFK3010"] || !ids["KFK3011"] {
		t.Errorf("clusters linked by a shared voter endpoint: findings %v, want KFK3010 and KFK3011", atWarningOrAbove(rep.Findings))
	}
}
