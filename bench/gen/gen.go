// Package gen writes a synthetic bulk tree for kafkalint's benchmarks:
// many repositories of Kafka configuration, derived from the real-world
// corpus (../shared/corpus/real-world) by deterministic mutations.
//
//	go run ./bench/gentree -out /tmp/tree -repos 1000 -files 10 -seed 1
//
// Every repository gets exactly Options.Files files. The same options always
// write the same bytes, and repository i does not depend on Options.Repos,
// so a tree of 2N repositories is the tree of N plus N more (benchmarks of
// linearity compare like with like).
//
// Options.Layout chooses how repositories relate:
//   - "separate" (the default): every repository has hosts of its own, so
//     clusters never link across repositories;
//   - "shared": a monorepo of copied cluster configs. Every repository (a
//     service folder) belongs to one of a few real clusters and writes
//     copies of its configs, naming the same voters and bootstrap hosts
//     (ctl-1.eu1.internal:9093, ...) with the folder's own drift, so the
//     loader joins the nodes of many folders into clusters of 1,000 nodes
//     and more. A tree of 2N repositories then has clusters twice as large
//     as the tree of N: the benchmark of linearity in a cluster's size.
//
// A repository is one of three shapes, chosen per repository:
//   - kraft: a KRaft cluster of 3 dedicated controllers and 3 brokers built
//     from the corpus' controller and broker files (node ids, voters or
//     bootstrap servers, listeners and hosts rewritten consistently), a
//     producer and a consumer pointing at the brokers, and other files;
//   - zookeeper: 3 ZooKeeper-mode brokers sharing an ensemble, clients and
//     other files;
//   - mixed: files picked from every corpus category.
//
// Every properties file is mutated: host names become the repository's own
// (so that clusters never link across repositories, as real host names
// would), node ids, replication factors and min ISR values change, roles
// flip now and then, keys are removed and risky or misspelled keys added.
// Terraform and YAML files (Strimzi, Helm values, docker-compose) are copied
// with their replica counts, replication factors and min ISR values
// changed; each lands in a directory of its own, as a module or a chart
// would. Paths carry an environment segment (prod, staging, dev, ...) or
// none.
package gen

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Options say what to generate.
type Options struct {
	Repos  int    // number of repositories
	Files  int    // files per repository
	Seed   uint64 // random seed
	Corpus string // the real-world corpus directory ("" = DefaultCorpus)
	Layout string // LayoutSeparate ("" means it) or LayoutShared
}

// The layouts (see the package comment).
const (
	LayoutSeparate = "separate"
	LayoutShared   = "shared"
)

// sharedClusters are the real clusters of the shared layout: their hosts
// are ctl-N.<name>.internal and kafka-N.<name>.internal.
var sharedClusters = []string{"eu1", "us2", "ap3"}

// Stats counts the files written by format (file extension).
type Stats map[string]int

// Write generates the tree into dir, which must be empty or absent.
func Write(dir string, opts Options) (Stats, error) {
	if opts.Repos < 1 || opts.Files < 1 {
		return nil, errors.New("repositories and files per repository must be at least 1")
	}
	switch opts.Layout {
	case "":
		opts.Layout = LayoutSeparate
	case LayoutSeparate, LayoutShared:
	default:
		return nil, fmt.Errorf("unknown layout %q (want %s or %s)", opts.Layout, LayoutSeparate, LayoutShared)
	}
	if opts.Corpus == "" {
		c, err := DefaultCorpus()
		if err != nil {
			return nil, err
		}
		opts.Corpus = c
	}
	c, err := loadCorpus(opts.Corpus)
	if err != nil {
		return nil, err
	}
	if entries, err := os.ReadDir(dir); err == nil && len(entries) > 0 {
		return nil, fmt.Errorf("%s is not empty", dir)
	}
	stats := Stats{}
	for i := range opts.Repos {
		for _, f := range generateRepo(c, opts.Seed, i, opts.Files, opts.Layout) {
			p := filepath.Join(dir, filepath.FromSlash(f.path))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				return nil, err
			}
			if err := os.WriteFile(p, f.data, 0o644); err != nil {
				return nil, err
			}
			stats[formatOf(f.path)]++
		}
	}
	return stats, nil
}

// String lists the counts, e.g. "properties 6852, tf 1342, yaml 1806".
func (s Stats) String() string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(s)) {
		parts = append(parts, fmt.Sprintf("%s %d", k, s[k]))
	}
	return strings.Join(parts, ", ")
}

// DefaultCorpus finds ../shared/corpus/real-world beside the module root
// (the directory holding go.mod, searched from the working directory up).
func DefaultCorpus() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			c := filepath.Join(dir, "..", "shared", "corpus", "real-world")
			if _, err := os.Stat(c); err != nil {
				return "", fmt.Errorf("corpus not found at %s (pass -corpus)", c)
			}
			return c, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod above the working directory (pass -corpus)")
		}
		dir = parent
	}
}

func formatOf(p string) string {
	switch ext := strings.ToLower(filepath.Ext(p)); ext {
	case ".yml":
		return "yaml"
	default:
		return strings.TrimPrefix(ext, ".")
	}
}

// corpusFile is one file of the corpus.
type corpusFile struct {
	name string // base name in the corpus
	data string
}

// corpus holds the corpus by category, each sorted by name.
type corpus struct {
	controllers []corpusFile // process.roles=controller
	brokers     []corpusFile // process.roles=broker
	zkBrokers   []corpusFile // zookeeper.connect, no process.roles
	servers     []corpusFile // every broker-properties file
	clients     []corpusFile
	meta        []corpusFile
	mm2         []corpusFile
	terraform   []corpusFile
	strimzi     []corpusFile
	helm        []corpusFile
	compose     []corpusFile
}

var rolesRE = regexp.MustCompile(`(?m)^process\.roles\s*[=:]\s*(\S+)\s*$`)

func loadCorpus(dir string) (*corpus, error) {
	read := func(sub string, keep func(name string) bool) ([]corpusFile, error) {
		root := filepath.Join(dir, sub)
		var paths []string
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && keep(d.Name()) {
				paths = append(paths, p)
			}
			return err
		})
		if err != nil {
			return nil, fmt.Errorf("read corpus: %w", err)
		}
		var out []corpusFile
		for _, p := range paths {
			b, err := os.ReadFile(p)
			if err != nil {
				return nil, fmt.Errorf("read corpus: %w", err)
			}
			out = append(out, corpusFile{name: filepath.Base(p), data: string(b)})
		}
		sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
		if len(out) == 0 {
			return nil, fmt.Errorf("corpus %s holds no usable file", root)
		}
		return out, nil
	}
	ext := func(exts ...string) func(string) bool {
		return func(name string) bool {
			for _, e := range exts {
				if strings.HasSuffix(name, e) {
					return true
				}
			}
			return false
		}
	}
	c := &corpus{}
	var err error
	for _, x := range []struct {
		dst  *[]corpusFile
		sub  string
		keep func(string) bool
	}{
		{&c.servers, "broker-properties", ext(".properties")},
		{&c.clients, "client-properties", ext(".properties", ".config")},
		{&c.meta, "meta-properties", ext(".properties")},
		{&c.mm2, "mm2-properties", ext(".properties")},
		{&c.terraform, "terraform", ext(".tf")},
		{&c.strimzi, "strimzi", ext(".yaml", ".yml")},
		{&c.helm, "helm-values", ext(".yaml", ".yml")},
		{&c.compose, "docker-compose", ext(".yaml", ".yml")},
	} {
		if *x.dst, err = read(x.sub, x.keep); err != nil {
			return nil, err
		}
	}
	for _, f := range c.servers {
		m := rolesRE.FindStringSubmatch(f.data)
		switch {
		case len(m) > 1 && m[1] == "controller":
			c.controllers = append(c.controllers, f)
		case len(m) > 1 && m[1] == "broker":
			c.brokers = append(c.brokers, f)
		case m == nil && strings.Contains(f.data, "\nzookeeper.connect="):
			c.zkBrokers = append(c.zkBrokers, f)
		}
	}
	if len(c.controllers) == 0 || len(c.brokers) == 0 || len(c.zkBrokers) == 0 {
		return nil, fmt.Errorf("corpus %s lacks controller, broker or ZooKeeper broker files", dir)
	}
	return c, nil
}

// outFile is one generated file, its path relative to the tree root.
type outFile struct {
	path string
	data []byte
}

// repo is the state of one repository being generated.
type repo struct {
	rng       *rand.Rand
	name      string
	env       string // path segment, "" for none
	domain    string // the repository's host domain
	keepLocal bool   // loopback hosts stay loopback (quick-start copies)
	ctlHost   string // first label of the controllers' hosts, before -N
	hosts     map[string]string
	clusterID string
	files     []outFile
	used      map[string]bool
	// per-repository drift of the durability settings
	rf, minISR []string
}

var envSegments = []string{"prod", "prod", "production", "staging", "stage", "dev", "development", "", ""}

func generateRepo(c *corpus, seed uint64, index, n int, layout string) []outFile {
	r := &repo{
		rng:     rand.New(rand.NewPCG(seed, uint64(index))), //nolint:gosec // a seeded generator: the same tree every time is the point
		name:    fmt.Sprintf("repo-%05d", index),
		hosts:   map[string]string{},
		used:    map[string]bool{},
		ctlHost: "controller",
	}
	r.env = pick(r.rng, envSegments)
	kraftShare, zkShare := 40, 50
	if layout == LayoutShared {
		// A copy of one real cluster's configs: its hosts and cluster id,
		// and mostly its KRaft node configs.
		k := r.rng.IntN(len(sharedClusters))
		r.domain = sharedClusters[k] + ".internal"
		r.ctlHost = "ctl"
		r.keepLocal = false
		r.clusterID = clusterID(rand.New(rand.NewPCG(seed, 1<<32+uint64(k)))) //nolint:gosec // seeded, as above
		kraftShare, zkShare = 70, 80
	} else {
		r.domain = fmt.Sprintf("r%05d.%s.example.internal", index, pick(r.rng, []string{"corp", "eu1", "us2", "ap3"}))
		r.keepLocal = r.rng.IntN(4) == 0
		r.clusterID = clusterID(r.rng)
	}
	r.rf = []string{"1", "2", "3", "3", "3"}[:2+r.rng.IntN(4)]
	r.minISR = []string{"2", "1", "2", "3"}[:1+r.rng.IntN(4)]

	switch shape := r.rng.IntN(100); {
	case shape < kraftShare && n >= 8:
		r.kraftCluster(c)
	case shape < zkShare && n >= 5:
		r.zkCluster(c)
	}
	for len(r.files) < n {
		r.extra(c)
	}
	return r.files[:n]
}

func pick[T any](rng *rand.Rand, list []T) T { return list[rng.IntN(len(list))] }

// clusterID is a 22-character base64url id, as kafka-storage.sh prints.
func clusterID(rng *rand.Rand) string {
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
	b := make([]byte, 22)
	for i := range b {
		b[i] = alphabet[rng.IntN(len(alphabet))]
	}
	return string(b)
}

// add writes a file under area/<env>/name, making the path unique.
func (r *repo) add(area, name string, data string) {
	dir := r.name + "/" + area
	if r.env != "" {
		dir += "/" + r.env
	}
	p := dir + "/" + name
	for k := 2; r.used[p]; k++ {
		ext := filepath.Ext(name)
		p = fmt.Sprintf("%s/%s-%d%s", dir, strings.TrimSuffix(name, ext), k, ext)
	}
	r.used[p] = true
	r.files = append(r.files, outFile{path: p, data: []byte(data)})
}

// addOwnDir writes a file into a directory of its own (a Terraform module,
// a chart's values, a compose project), so that unrelated sources never
// share a module.
func (r *repo) addOwnDir(area, name, data string) {
	for k := 1; ; k++ {
		dir := fmt.Sprintf("%s/%s-%d", area, strings.TrimSuffix(name, filepath.Ext(name)), k)
		if !r.usedDir(dir) {
			r.add(dir, name, data)
			return
		}
	}
}

func (r *repo) usedDir(area string) bool {
	prefix := r.name + "/" + area + "/"
	for p := range r.used {
		if strings.HasPrefix(p, prefix) {
			return true
		}
	}
	return false
}

// kraftCluster writes 3 controllers, 3 brokers, a producer and a consumer.
func (r *repo) kraftCluster(c *corpus) {
	dynamic := r.rng.IntN(3) == 0
	var voters, bootstrap []string
	for k := 1; k <= 3; k++ {
		voters = append(voters, fmt.Sprintf("%d@%s-%d.%s:9093", k, r.ctlHost, k, r.domain))
		bootstrap = append(bootstrap, fmt.Sprintf("%s-%d.%s:9093", r.ctlHost, k, r.domain))
	}
	quorum := func(p *props) {
		if dynamic {
			p.setOrRename([]string{"controller.quorum.voters"}, "controller.quorum.bootstrap.servers", strings.Join(bootstrap, ","))
		} else {
			p.setOrRename([]string{"controller.quorum.bootstrap.servers"}, "controller.quorum.voters", strings.Join(voters, ","))
		}
	}
	ctl := pick(r.rng, c.controllers)
	for k := 1; k <= 3; k++ {
		p := parseProps(ctl.data)
		host := fmt.Sprintf("%s-%d.%s", r.ctlHost, k, r.domain)
		p.set("node.id", strconv.Itoa(k))
		p.set("process.roles", "controller")
		quorum(p)
		p.mapHosts([]string{"listeners", "advertised.listeners"}, func(string) string { return host })
		p.remove("controller.id", "broker.id")
		r.mutateServer(p)
		r.add("kafka", fmt.Sprintf("controller-%d.properties", k), p.String())
	}
	brk := pick(r.rng, c.brokers)
	port := 9092
	for k := 1; k <= 3; k++ {
		p := parseProps(brk.data)
		host := fmt.Sprintf("kafka-%d.%s", k, r.domain)
		p.set("node.id", strconv.Itoa(100+k))
		p.set("process.roles", "broker")
		quorum(p)
		p.mapHosts([]string{"listeners", "advertised.listeners"}, func(string) string { return host })
		if v, ok := p.get("advertised.listeners"); ok {
			port = firstPort(v, port)
		} else if v, ok := p.get("listeners"); ok {
			port = firstPort(v, port)
		}
		r.mutateServer(p)
		r.add("kafka", fmt.Sprintf("broker-%d.properties", k), p.String())
	}
	servers := fmt.Sprintf("kafka-1.%s:%d,kafka-2.%s:%d", r.domain, port, r.domain, port)
	r.client(c, "producer", servers)
	r.client(c, "consumer", servers)
}

// zkCluster writes 3 ZooKeeper-mode brokers sharing an ensemble, and a client.
func (r *repo) zkCluster(c *corpus) {
	tpl := pick(r.rng, c.zkBrokers)
	ensemble := fmt.Sprintf("zk-1.%s:2181,zk-2.%s:2181,zk-3.%s:2181/kafka", r.domain, r.domain, r.domain)
	port := 9092
	for k := 1; k <= 3; k++ {
		p := parseProps(tpl.data)
		host := fmt.Sprintf("kafka-%d.%s", k, r.domain)
		p.set("broker.id", strconv.Itoa(k))
		p.set("zookeeper.connect", ensemble)
		p.mapHosts([]string{"listeners", "advertised.listeners"}, func(string) string { return host })
		if v, ok := p.get("listeners"); ok {
			port = firstPort(v, port)
		}
		r.mutateServer(p)
		r.add("kafka", fmt.Sprintf("server-%d.properties", k), p.String())
	}
	r.client(c, pick(r.rng, []string{"producer", "consumer"}), fmt.Sprintf("kafka-1.%s:%d", r.domain, port))
}

// client writes a client config of the given kind pointing at servers.
func (r *repo) client(c *corpus, kind, servers string) {
	var candidates []corpusFile
	for _, f := range c.clients {
		if strings.Contains(f.name, kind) {
			candidates = append(candidates, f)
		}
	}
	if len(candidates) == 0 {
		candidates = c.clients
	}
	p := parseProps(pick(r.rng, candidates).data)
	p.set("bootstrap.servers", servers)
	r.mutateClient(p)
	r.add("clients", kind+".properties", p.String())
}

// extra writes one file of a category picked at random.
func (r *repo) extra(c *corpus) {
	switch n := r.rng.IntN(100); {
	case n < 22:
		f := pick(r.rng, c.servers)
		p := parseProps(f.data)
		r.mapAllHosts(p)
		if _, ok := p.get("node.id"); ok {
			p.set("node.id", strconv.Itoa(r.rng.IntN(10)))
		}
		if _, ok := p.get("broker.id"); ok {
			p.set("broker.id", strconv.Itoa(r.rng.IntN(10)))
		}
		if _, ok := p.get("process.roles"); ok && r.rng.IntN(8) == 0 {
			p.set("process.roles", pick(r.rng, []string{"broker", "controller", "broker,controller"}))
		}
		r.mutateServer(p)
		r.add("kafka", pick(r.rng, []string{"server.properties", "broker.properties", "kafka.properties"}), p.String())
	case n < 40:
		f := pick(r.rng, c.clients)
		p := parseProps(f.data)
		r.mapAllHosts(p)
		r.mutateClient(p)
		r.add("clients", clientName(f.name), p.String())
	case n < 46:
		f := pick(r.rng, c.meta)
		p := parseProps(f.data)
		p.set("cluster.id", r.clusterID)
		if _, ok := p.get("node.id"); ok {
			p.set("node.id", strconv.Itoa(r.rng.IntN(10)))
		}
		r.addOwnDir("data/kafka-logs", "meta.properties", p.String())
	case n < 52:
		f := pick(r.rng, c.mm2)
		p := parseProps(f.data)
		r.mapAllHosts(p)
		p.mapValues(func(key, v string) (string, bool) {
			if strings.HasSuffix(key, "replication.factor") {
				return pick(r.rng, r.rf), true
			}
			return v, false
		})
		r.add("mirrormaker", "mm2.properties", p.String())
	case n < 72:
		f := pick(r.rng, c.terraform)
		r.addOwnDir("terraform", "main.tf", r.mutateText(f.data))
	case n < 84:
		f := pick(r.rng, c.strimzi)
		r.addOwnDir("k8s", "kafka.yaml", r.mutateText(f.data))
	case n < 91:
		f := pick(r.rng, c.helm)
		r.addOwnDir("helm", "values.yaml", r.mutateText(f.data))
	default:
		f := pick(r.rng, c.compose)
		r.addOwnDir("compose", "docker-compose.yml", r.mutateText(f.data))
	}
}

// clientName names a client file after its kind, never after its corpus
// path (which may hold words such as "test" that name an environment).
func clientName(corpusName string) string {
	for _, k := range []string{"producer", "consumer", "admin"} {
		if strings.Contains(corpusName, k) {
			return k + ".properties"
		}
	}
	return "client.properties"
}

func firstPort(listeners string, def int) int {
	for _, e := range strings.Split(listeners, ",") {
		if strings.HasPrefix(strings.ToUpper(strings.TrimSpace(e)), "CONTROLLER") {
			continue
		}
		if i := strings.LastIndex(e, ":"); i >= 0 {
			if p, err := strconv.Atoi(strings.TrimSpace(e[i+1:])); err == nil {
				return p
			}
		}
	}
	return def
}

// hostKeys are the keys whose values hold host:port endpoints.
var hostKeyRE = regexp.MustCompile(`(^|\.)(listeners|bootstrap\.servers|quorum\.voters|zookeeper\.connect|metadata\.broker\.list)$`)

// mapAllHosts gives every host the repository's domain.
func (r *repo) mapAllHosts(p *props) {
	var keys []string
	for _, l := range p.lines {
		if l.key != "" && hostKeyRE.MatchString(l.key) {
			keys = append(keys, l.key)
		}
	}
	p.mapHosts(keys, r.host)
}

func (r *repo) host(h string) string {
	if h == "" || (r.keepLocal && isLocal(h)) || strings.Contains(h, "${") {
		return h
	}
	if m, ok := r.hosts[h]; ok {
		return m
	}
	label, _, _ := strings.Cut(strings.Trim(h, "[]"), ".")
	if isLocal(h) || net4RE.MatchString(h) || strings.Contains(h, ":") {
		label = fmt.Sprintf("kafka-%d", len(r.hosts)+1)
	}
	m := strings.ToLower(label) + "." + r.domain
	r.hosts[h] = m
	return m
}

var net4RE = regexp.MustCompile(`^[0-9.]+$`)

func isLocal(h string) bool {
	switch strings.ToLower(h) {
	case "localhost", "127.0.0.1", "0.0.0.0", "[::1]", "::1":
		return true
	}
	return false
}

// riskyServerKeys are settings added to server configs now and then: the
// mistakes kafkalint looks for, benign tuning, a misspelled key and a
// config-provider placeholder.
var riskyServerKeys = []string{
	"auto.leader.rebalance.enable=false",
	"controlled.shutdown.enable=false",
	"controlled.shutdown.enable=true",
	"unclean.leader.election.enable=true",
	"unclean.leader.election.enable=false",
	"allow.everyone.if.no.acl.found=true",
	"auto.create.topics.enable=true",
	"num.partitions=6",
	"log.retention.hours=72",
	"log.retention.hour=48",
	"default.replication.factor=3",
	"min.insync.replicas=2",
	"ssl.keystore.password=${file:/etc/kafka/secrets.properties:keystore.password}",
	"message.max.bytes=2097152",
	"num.io.threads=16",
}

var riskyClientKeys = []string{
	"acks=1", "acks=all", "acks=0",
	"enable.idempotence=true", "enable.idempotence=false",
	"max.in.flight.requests.per.connection=10",
	"retries=0",
	"compression.type=lz4",
	"linger.ms=20",
	"sasl.jaas.config=${file:/etc/kafka/jaas.properties:client}",
	"request.timeout.ms=60000",
	"auto.offset.reset=earliest",
}

// protected keys keep a generated cluster a cluster.
var protected = map[string]bool{
	"process.roles": true, "node.id": true, "broker.id": true, "controller.quorum.voters": true,
	"controller.quorum.bootstrap.servers": true, "listeners": true, "advertised.listeners": true,
	"controller.listener.names": true, "zookeeper.connect": true, "bootstrap.servers": true,
	"listener.security.protocol.map": true, "inter.broker.listener.name": true,
}

// mutateServer changes the durability settings, removes a few keys and
// adds a few.
func (r *repo) mutateServer(p *props) {
	p.mapValues(func(key, v string) (string, bool) {
		switch {
		case strings.HasSuffix(key, "replication.factor"):
			return pick(r.rng, r.rf), true
		case key == "min.insync.replicas" || strings.HasSuffix(key, ".min.isr"):
			return pick(r.rng, r.minISR), true
		case key == "log.dirs" || key == "log.dir" || key == "metadata.log.dir":
			return fmt.Sprintf("/var/lib/kafka/%s/data", r.name), true
		}
		return v, false
	})
	r.removeSome(p)
	r.addSome(p, riskyServerKeys)
}

func (r *repo) mutateClient(p *props) {
	r.removeSome(p)
	r.addSome(p, riskyClientKeys)
}

func (r *repo) removeSome(p *props) {
	for i := range p.lines {
		l := &p.lines[i]
		if l.key != "" && !protected[l.key] && r.rng.IntN(20) == 0 {
			l.removed = true
		}
	}
}

func (r *repo) addSome(p *props, pool []string) {
	n := r.rng.IntN(4)
	if n == 0 {
		return
	}
	var lines []string
	for range n {
		lines = append(lines, pick(r.rng, pool))
	}
	p.appendLines("# added by the platform team", lines...)
}

// numberRE finds replica counts, replication factors, min ISR values and
// partition counts in Terraform and YAML (`replication_factor = 3`,
// `replicas: 3`, `min.insync.replicas: 2`, "offsets.topic.replication.factor" = "1").
var numberRE = regexp.MustCompile(`(?m)((?:replication[._]factor|replicas|min[._]insync[._]replicas|min\.isr|partitions)"?\s*[=:]\s*"?)(\d+)`)

// mutateText changes the numbers numberRE finds: each match keeps its value
// or takes one from the repository's drift.
func (r *repo) mutateText(data string) string {
	return numberRE.ReplaceAllStringFunc(data, func(m string) string {
		sub := numberRE.FindStringSubmatch(m)
		if r.rng.IntN(3) != 0 {
			return m
		}
		key := strings.ToLower(sub[1])
		var v string
		switch {
		case strings.Contains(key, "insync") || strings.Contains(key, "isr"):
			v = pick(r.rng, r.minISR)
		case strings.HasPrefix(key, "replicas"):
			v = pick(r.rng, []string{"1", "2", "3", "3", "4", "5"})
		case strings.HasPrefix(key, "partitions"):
			v = pick(r.rng, []string{"1", "3", "6", "12", "24"})
		default:
			v = pick(r.rng, r.rf)
		}
		return sub[1] + v
	})
}
