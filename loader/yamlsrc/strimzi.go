package yamlsrc

import (
	"fmt"
	"path"
	"slices"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kafkalint/kafkalint/loader/doc"
)

const strimziGroup = "kafka.strimzi.io/"

// strimziForbidden are the spec.kafka.config prefixes the Strimzi operator
// owns (KafkaClusterSpec.FORBIDDEN_PREFIXES): it drops every key that
// starts with one of them, compared in lower case, logging only a warning
// (AbstractConfiguration.filterForbidden).
var strimziForbidden = []string{
	"listeners", "advertised.", "broker.", "listener.", "host.name", "port", "inter.broker.listener.name",
	"sasl.", "ssl.", "security.", "password.", "log.dir", "zookeeper.connect", "zookeeper.set.acl",
	"zookeeper.ssl", "zookeeper.clientcnxnsocket", "authorizer.", "super.user", "cruise.control.metrics.topic",
	"cruise.control.metrics.reporter.bootstrap.servers", "node.id", "process.roles", "controller.",
	"metadata.log.dir", "zookeeper.metadata.migration.enable", "client.quota.callback.static.",
	"prometheus.metrics.reporter.", "cordoned.log.dirs",
}

// strimziAllowed are the exceptions (FORBIDDEN_PREFIX_EXCEPTIONS): keys
// under a forbidden prefix that the operator passes through.
var strimziAllowed = []string{
	"zookeeper.connection.timeout.ms", "sasl.server.max.receive.size", "ssl.cipher.suites", "ssl.protocol",
	"ssl.enabled.protocols", "ssl.secure.random.implementation", "broker.session.timeout.ms",
	"cruise.control.metrics.topic.num.partitions", "cruise.control.metrics.topic.replication.factor",
	"cruise.control.metrics.topic.retention.ms", "cruise.control.metrics.topic.auto.create.retries",
	"cruise.control.metrics.topic.auto.create.timeout.ms", "cruise.control.metrics.topic.min.insync.replicas",
	"controller.quorum.election.backoff.max.ms", "controller.quorum.election.timeout.ms",
	"controller.quorum.fetch.timeout.ms",
}

// StrimziDropped reports whether the operator drops key from spec.kafka.config.
func StrimziDropped(key string) bool {
	k := strings.ToLower(key)
	if slices.Contains(strimziAllowed, k) {
		return false
	}
	for _, p := range strimziForbidden {
		if strings.HasPrefix(k, p) {
			return true
		}
	}
	return false
}

// strimziManagedKRaft / strimziManagedZK are the keys the operator writes
// into every broker and controller configuration itself.
var (
	strimziManagedKRaft = []string{"node.id", "process.roles", "controller.quorum.voters", "controller.quorum.bootstrap.servers",
		"controller.listener.names", "listeners", "advertised.listeners", "listener.security.protocol.map",
		"inter.broker.listener.name", "log.dirs", "metadata.log.dir"}
	strimziManagedZK = []string{"broker.id", "zookeeper.connect", "listeners", "advertised.listeners",
		"listener.security.protocol.map", "inter.broker.listener.name", "log.dirs"}
)

// resource is one Strimzi custom resource.
type resource struct {
	file      *File
	doc       *yaml.Node
	kind      string
	api       string
	name      string
	namespace string
	cluster   string // strimzi.io/cluster label (pools, topics)
}

// IsStrimzi reports a file holding a Kafka, KafkaNodePool, KafkaTopic or
// KafkaMirrorMaker2.
func IsStrimzi(f *File) bool {
	for _, d := range f.Docs {
		if r, ok := strimziResource(f, d); ok && r.kind != "" {
			return true
		}
	}
	return false
}

// strimziResource reads a resource of the Strimzi API group, or IBM Event
// Streams' KafkaMirrorMaker2 (the same resource in its own group); kind is
// empty for kinds that are not read.
func strimziResource(f *File, d *yaml.Node) (resource, bool) {
	api, kind := str(d, "apiVersion"), str(d, "kind")
	if !strings.HasPrefix(api, strimziGroup) && (!strings.HasPrefix(api, eventStreamsGroup) || kind != "KafkaMirrorMaker2") {
		return resource{}, false
	}
	r := resource{file: f, doc: d, api: api, name: str(d, "metadata", "name"), namespace: str(d, "metadata", "namespace"),
		cluster: str(d, "metadata", "labels", "strimzi.io/cluster")}
	switch kind {
	case "Kafka", "KafkaNodePool", "KafkaTopic", "KafkaMirrorMaker2":
		r.kind = kind
	}
	return r, true
}

// Strimzi reads the Strimzi resources of the files of a tree, and its
// kustomization files. A node pool or topic joins the Kafka resource its
// strimzi.io/cluster label names (strimziOwners: in its file, else in a
// file a kustomization builds with it, else in its directory or the
// nearest ancestor that has one), and is then the same node as if both
// were in one file. Pools and topics whose Kafka resource is not found
// form a group per directory, so that they still have their node counts
// (but not the Kafka resource's config). A KafkaMirrorMaker2 is a
// MirrorMaker 2 unit of its own.
func Strimzi(files []*File) []doc.Doc {
	var kafkas, pools, topics, mirrors []resource
	for _, f := range files {
		for _, d := range f.Docs {
			r, ok := strimziResource(f, d)
			if !ok {
				continue
			}
			switch r.kind {
			case "Kafka":
				kafkas = append(kafkas, r)
			case "KafkaNodePool":
				pools = append(pools, r)
			case "KafkaTopic":
				topics = append(topics, r)
			case "KafkaMirrorMaker2":
				mirrors = append(mirrors, r)
			}
		}
	}
	owner := newStrimziOwners(kafkas, files).owner
	poolsOf := make([][]resource, len(kafkas))
	var loose []resource
	for _, p := range pools {
		if i := owner(p); i >= 0 {
			poolsOf[i] = append(poolsOf[i], p)
			continue
		}
		loose = append(loose, p)
	}
	var units []doc.Doc
	for i, k := range kafkas {
		units = append(units, strimziKafkaUnits(k, poolsOf[i])...)
	}
	units = append(units, loosePools(loose)...)
	for _, t := range topics {
		var k *resource
		if i := owner(t); i >= 0 {
			k = &kafkas[i]
		}
		units = append(units, strimziTopicUnit(t, k))
	}
	for _, m := range mirrors {
		units = append(units, strimziMirrorMakerUnit(m))
	}
	return filed(units, files...)
}

// loosePools are node pools whose Kafka resource was not found: the pools
// of one directory, cluster label and namespace are one group.
func loosePools(pools []resource) []doc.Doc {
	var order []string
	byCluster := map[string][]resource{}
	for _, p := range pools {
		k := path.Dir(p.file.Name) + "\x00" + p.namespace + "/" + p.cluster
		if _, ok := byCluster[k]; !ok {
			order = append(order, k)
		}
		byCluster[k] = append(byCluster[k], p)
	}
	var units []doc.Doc
	for _, k := range order {
		ps := byCluster[k]
		var us []doc.Doc
		for _, p := range ps {
			us = append(us, strimziPoolUnit(p, nil))
		}
		us[0].ControllerCount = poolSum(ps, us, "controller")
		us[0].BrokerCount = poolSum(ps, us, "broker")
		units = append(units, us...)
	}
	return units
}

// strimziGroupOf names a cluster: its Kafka resource's file, or for
// resources without it, their directory.
func strimziGroupOf(ns, name string, kafkaFile *File) string {
	if ns == "" {
		ns = "(no namespace)"
	}
	return fmt.Sprintf("strimzi %s/%s in %s", ns, name, kafkaFile.Name)
}

func strimziLooseGroup(ns, name string, f *File) string {
	if ns == "" {
		ns = "(no namespace)"
	}
	return fmt.Sprintf("strimzi %s/%s without its Kafka resource in %s/", ns, name, path.Dir(f.Name))
}

func envHints(r resource) []doc.EnvHint {
	var out []doc.EnvHint
	if r.namespace != "" {
		out = append(out, doc.EnvHint{Value: r.namespace, From: "namespace " + r.namespace})
	}
	labels, _ := entries(get(r.doc, "metadata", "labels"))
	for _, l := range labels {
		switch strings.ToLower(l.key()) {
		case "env", "environment", "stage", "tier", "app.kubernetes.io/environment":
			if v := text(l.Value); v != "" {
				out = append(out, doc.EnvHint{Value: v, From: "label " + l.key() + "=" + v})
			}
		}
	}
	return out
}

// kafkaSpec is what a Kafka resource gives every node of the cluster.
type kafkaSpec struct {
	file     string // the Kafka resource's
	settings []doc.Setting
	ignored  []doc.Setting
	dups     []doc.Duplicate
	version  *doc.Count
	hints    []doc.EnvHint
	group    string
	listener []doc.Setting // listeners and protocol map, for broker nodes
	// authorized: spec.kafka.authorization is set, so the operator sets
	// authorizer.class.name (simple: Kafka's StandardAuthorizer or
	// AclAuthorizer; custom: its authorizerClass); without it the broker
	// runs no authorizer, since spec.kafka.config may not set authorizer.*.
	authorized bool
}

// managed is the keys the operator sets on the nodes of this Kafka
// resource: the mode's own, and authorizer.class.name when authorization
// is configured.
func (ks *kafkaSpec) managed(base []string) []string {
	if ks == nil || !ks.authorized {
		return base
	}
	return append(slices.Clip(base), "authorizer.class.name")
}

func readKafkaSpec(k resource) kafkaSpec {
	f := k.file
	ks := kafkaSpec{file: f.Name, hints: envHints(k), group: strimziGroupOf(k.namespace, k.name, f)}
	if e, ok := getEntry(k.doc, "spec", "kafka", "version"); ok && text(e.Value) != "" {
		ks.version = &doc.Count{Text: text(e.Value), Source: "spec.kafka.version", Loc: pos(f.Name, e.Value)}
	}
	cfg := get(k.doc, "spec", "kafka", "config")
	es, dups := entries(cfg)
	for _, d := range dups {
		ks.dups = append(ks.dups, doc.Duplicate{Key: d.Key, Loc: withFile(f.Name, d.Loc), Previous: filePositions(f.Name, d.Previous)})
	}
	for _, e := range es {
		if !isScalar(e.Value) {
			continue
		}
		s := doc.Setting{Key: e.key(), Value: text(e.Value), Loc: pos(f.Name, e.Key), Origin: "spec.kafka.config"}
		if StrimziDropped(s.Key) {
			ks.ignored = append(ks.ignored, s)
			continue
		}
		ks.settings = append(ks.settings, s)
	}
	ks.listener = strimziListeners(k)
	ks.authorized = get(k.doc, "spec", "kafka", "authorization") != nil
	return ks
}

// strimziListeners turns spec.kafka.listeners into the listeners the
// operator configures: named NAME-PORT, bound on all interfaces, with the
// security protocol tls and authentication give.
func strimziListeners(k resource) []doc.Setting {
	e, ok := getEntry(k.doc, "spec", "kafka", "listeners")
	if !ok || !isSeq(e.Value) {
		return nil
	}
	var ls, protos []string
	for _, l := range deref(e.Value).Content {
		name, port := str(l, "name"), str(l, "port")
		if name == "" || port == "" {
			continue
		}
		id := strings.ToUpper(name) + "-" + port
		tls, _ := boolean(get(l, "tls"))
		sasl := false
		switch str(l, "authentication", "type") {
		case "scram-sha-512", "oauth", "plain":
			sasl = true
		case "custom":
			sasl, _ = boolean(get(l, "authentication", "sasl"))
		}
		proto := map[[2]bool]string{{false, false}: "PLAINTEXT", {true, false}: "SSL", {false, true}: "SASL_PLAINTEXT", {true, true}: "SASL_SSL"}[[2]bool{tls, sasl}]
		ls = append(ls, id+"://:"+port)
		protos = append(protos, id+":"+proto)
	}
	if len(ls) == 0 {
		return nil
	}
	p := pos(k.file.Name, e.Key)
	return []doc.Setting{
		{Key: "listeners", Value: strings.Join(ls, ","), Loc: p, Origin: "spec.kafka.listeners"},
		{Key: "listener.security.protocol.map", Value: strings.Join(protos, ","), Loc: p, Origin: "spec.kafka.listeners"},
	}
}

func strimziKRaft(k resource, pools []resource) bool {
	if !strings.HasSuffix(k.api, "/v1beta1") && !strings.HasSuffix(k.api, "/v1beta2") && !strings.HasSuffix(k.api, "/v1alpha1") {
		return true // kafka.strimzi.io/v1: KRaft and node pools only
	}
	switch str(k.doc, "metadata", "annotations", "strimzi.io/kraft") {
	case "enabled":
		return true
	case "disabled", "migration", "rollback":
		return false
	}
	// Strimzi 0.46 dropped ZooKeeper: a resource without a zookeeper
	// section that has node pools is KRaft.
	return get(k.doc, "spec", "zookeeper") == nil && len(pools) > 0
}

// strimziKafkaUnits returns the nodes of one Kafka resource: one per node
// pool in KRaft mode, else the resource's own brokers.
func strimziKafkaUnits(k resource, pools []resource) []doc.Doc {
	ks := readKafkaSpec(k)
	if !strimziKRaft(k, pools) {
		return strimziZooKeeperUnits(k, ks, pools)
	}
	if len(pools) == 0 {
		// KRaft nodes come from node pools that are not beside this
		// resource: their roles are unknown here.
		u := doc.Doc{Kind: doc.KindNode, Format: "strimzi", Name: "Kafka " + k.name, Loc: docStart(k.file.Name, k.doc), Group: ks.group,
			QuorumManaged: true, ManagedKeys: ks.managed(strimziManagedKRaft), KafkaVersion: ks.version, EnvHints: ks.hints, Duplicates: ks.dups,
			Settings: append(slices.Clone(ks.settings), doc.Setting{Key: "process.roles", Value: "${KafkaNodePool.spec.roles}", Unknown: true,
				Expr: "${KafkaNodePool.spec.roles}", Loc: docStart(k.file.Name, k.doc), Origin: "KafkaNodePool spec.roles (no node pool found beside this resource)"}),
			Ignored: ks.ignored}
		return []doc.Doc{u}
	}
	var units []doc.Doc
	for _, p := range pools {
		units = append(units, strimziPoolUnit(p, &ks))
	}
	units[0].ControllerCount = poolSum(pools, units, "controller")
	units[0].BrokerCount = poolSum(pools, units, "broker")
	return units
}

// poolSum adds the replicas of the pools with a role; nil when a pool with
// the role states no replicas.
func poolSum(pools []resource, units []doc.Doc, role string) *doc.Count {
	var names []string
	total := 0
	var first *doc.Location
	for i, p := range pools {
		if !slices.Contains(poolRoles(p), role) {
			continue
		}
		if units[i].Replicas == nil {
			return nil
		}
		total += units[i].Replicas.Value
		names = append(names, p.name)
		if first == nil {
			p := units[i].Replicas.Loc
			first = &p
		}
	}
	if first == nil {
		return nil
	}
	src := "replicas of KafkaNodePool " + names[0]
	if len(names) > 1 {
		src = "replicas of KafkaNodePools " + strings.Join(names, ", ") + " (summed)"
	}
	return &doc.Count{Value: total, Text: strconv.Itoa(total), Source: src, Loc: *first}
}

func poolRoles(p resource) []string {
	var roles []string
	for _, r := range items(get(p.doc, "spec", "roles")) {
		if t := strings.TrimSpace(text(r)); t != "" {
			roles = append(roles, t)
		}
	}
	return roles
}

// strimziPoolUnit is one node pool; ks is its Kafka resource's spec, nil
// when that resource is not beside it.
func strimziPoolUnit(p resource, ks *kafkaSpec) doc.Doc {
	f := p.file
	u := doc.Doc{Kind: doc.KindNode, Format: "strimzi", Name: "KafkaNodePool " + p.name, Loc: docStart(f.Name, p.doc),
		QuorumManaged: true, ManagedKeys: ks.managed(strimziManagedKRaft), EnvHints: envHints(p)}
	if ks != nil {
		u.Group, u.KafkaVersion, u.Duplicates = ks.group, ks.version, ks.dups
		u.Settings = slices.Clone(ks.settings)
		u.Ignored = slices.Clone(ks.ignored)
		u.EnvHints = append(slices.Clone(ks.hints), u.EnvHints...)
		fromKafkaFile(&u, ks, f)
	} else {
		u.Group = strimziLooseGroup(p.namespace, p.cluster, f)
	}
	roles := poolRoles(p)
	if e, ok := getEntry(p.doc, "spec", "roles"); ok && len(roles) > 0 {
		u.Settings = append(u.Settings, doc.Setting{Key: "process.roles", Value: strings.Join(roles, ","), Loc: pos(f.Name, e.Key), Origin: "KafkaNodePool spec.roles"})
	}
	if slices.Contains(roles, "broker") && ks != nil {
		u.Settings = append(u.Settings, ks.listener...)
	}
	if e, ok := getEntry(p.doc, "spec", "replicas"); ok {
		if n, ok := integer(e.Value); ok {
			u.Replicas = &doc.Count{Value: n, Text: text(e.Value), Source: "replicas of KafkaNodePool " + p.name, Loc: pos(f.Name, e.Key)}
		}
	}
	return u
}

// fromKafkaFile records, on a pool's doc u read from f, the Kafka
// resource's file when it is another: a file of the cluster (Sources),
// whose directives apply (SourceComments, filled by filed).
func fromKafkaFile(u *doc.Doc, ks *kafkaSpec, f *File) {
	if ks.file != f.Name {
		u.Sources = []string{ks.file}
		u.SourceComments = []doc.FileComments{{File: ks.file}}
	}
}

// strimziZooKeeperUnits: a ZooKeeper-based cluster's brokers (the Kafka
// resource's replicas, or its broker node pools).
func strimziZooKeeperUnits(k resource, ks kafkaSpec, pools []resource) []doc.Doc {
	f := k.file
	base := doc.Doc{Kind: doc.KindNode, Format: "strimzi", Group: ks.group, ManagedKeys: ks.managed(strimziManagedZK), KafkaVersion: ks.version,
		EnvHints: ks.hints, Duplicates: ks.dups, Ignored: ks.ignored}
	base.Settings = append(slices.Clone(ks.settings), ks.listener...)
	if len(pools) > 0 && str(k.doc, "metadata", "annotations", "strimzi.io/node-pools") == "enabled" {
		var units []doc.Doc
		for _, p := range pools {
			u := base
			u.Name, u.Loc = "KafkaNodePool "+p.name, docStart(p.file.Name, p.doc)
			u.Settings, u.Ignored = slices.Clone(base.Settings), slices.Clone(base.Ignored)
			fromKafkaFile(&u, &ks, p.file)
			if e, ok := getEntry(p.doc, "spec", "replicas"); ok {
				if n, ok := integer(e.Value); ok {
					u.Replicas = &doc.Count{Value: n, Text: text(e.Value), Source: "replicas of KafkaNodePool " + p.name, Loc: pos(p.file.Name, e.Key)}
				}
			}
			units = append(units, u)
		}
		units[0].BrokerCount = poolSum(pools, units, "broker")
		return units
	}
	u := base
	u.Name, u.Loc = "Kafka "+k.name, docStart(f.Name, k.doc)
	if e, ok := getEntry(k.doc, "spec", "kafka", "replicas"); ok {
		if n, ok := integer(e.Value); ok {
			u.Replicas = &doc.Count{Value: n, Text: text(e.Value), Source: "spec.kafka.replicas", Loc: pos(f.Name, e.Key)}
			c := *u.Replicas
			u.BrokerCount = &c
		}
	}
	return []doc.Doc{u}
}

// strimziTopicUnit is a KafkaTopic; k is the Kafka resource it joins.
func strimziTopicUnit(t resource, k *resource) doc.Doc {
	f := t.file
	name := str(t.doc, "spec", "topicName")
	if name == "" {
		name = t.name
	}
	u := doc.Doc{Kind: doc.KindTopic, Format: "strimzi", Name: "KafkaTopic " + t.name, Loc: docStart(f.Name, t.doc), EnvHints: envHints(t)}
	if k != nil {
		u.Group = strimziGroupOf(k.namespace, k.name, k.file)
		u.EnvHints = append(envHints(*k), u.EnvHints...)
	} else if t.cluster != "" {
		u.Group = strimziLooseGroup(t.namespace, t.cluster, f)
	}
	u.Topic = &doc.Topic{Name: name, Loc: u.Loc}
	for _, field := range []string{"replicas", "partitions"} {
		if e, ok := getEntry(t.doc, "spec", field); ok && isScalar(e.Value) && !isNull(e.Value) {
			s := &doc.Setting{Key: field, Value: text(e.Value), Loc: pos(f.Name, e.Key), Origin: "KafkaTopic spec." + field}
			if field == "replicas" {
				u.Topic.ReplicationFactor = s
			} else {
				u.Topic.Partitions = s
			}
		}
	}
	es, dups := entries(get(t.doc, "spec", "config"))
	for _, d := range dups {
		u.Duplicates = append(u.Duplicates, doc.Duplicate{Key: d.Key, Loc: withFile(f.Name, d.Loc), Previous: filePositions(f.Name, d.Previous)})
	}
	for _, e := range es {
		if isScalar(e.Value) {
			u.Settings = append(u.Settings, doc.Setting{Key: e.key(), Value: text(e.Value), Loc: pos(f.Name, e.Key), Origin: "KafkaTopic spec.config"})
		}
	}
	return u
}
