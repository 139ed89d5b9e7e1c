package yamlsrc

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kafkalint/kafkalint/loader/doc"
)

// This file reads a Strimzi KafkaMirrorMaker2 resource (and IBM Event
// Streams' copy of it, apiVersion eventstreams.ibm.com/*) as the
// MirrorMaker 2 dedicated-mode keys the loader's MirrorMaker model reads
// (loader/mirrormaker.go), each located at the YAML line it follows from:
//
//   - `clusters`: the aliases of spec.clusters[] (v1beta2), spec.target and
//     spec.mirrors[].source (v1);
//   - `{alias}.bootstrap.servers` and `{alias}.key` from each cluster's
//     bootstrapServers and config (the operator hands a cluster's config to
//     the connectors as source.cluster.* / target.cluster.*, as dedicated
//     mode does with {alias}.*). The Connect cluster's internal topic keys
//     (config.storage.*, offset.storage.*, status.storage.*) configure the
//     one Connect worker, so they are top-level keys;
//   - per mirror `{source}->{target}.enabled=true` when it has a
//     sourceConnector, and its connectors' config and topic and group
//     patterns as `{source}->{target}.key`.
//
// The operator deploys a connector only for a section the mirror has
// (KafkaMirrorMaker2Connectors), each with its own config, while dedicated
// mode hands every flow key to all three connectors. So a connector key
// becomes a flow key only from a connector that reads it; written in a
// connector that does not (sync.group.offsets.enabled in sourceConnector),
// it takes no effect and is an Ignored setting. A mirror without
// checkpointConnector therefore has no checkpoint keys and the flow shows
// Kafka's defaults for them, which is what the rules need to stay silent:
// nothing the user wrote is misread. Mapping a missing section to
// emit.checkpoints.enabled=false instead would make Kafka 3.9+ reject a
// configuration that Strimzi never builds.

// KindMirrorMaker is a MirrorMaker 2 configuration in dedicated-mode keys.
const KindMirrorMaker = "mirrormaker"

// eventStreamsGroup is IBM Event Streams' API group: its KafkaMirrorMaker2
// is Strimzi's resource under another name.
const eventStreamsGroup = "eventstreams.ibm.com/"

// The MirrorMaker 2 connectors a mirror may deploy, in the order their
// config wins for keys several of them read.
const (
	connSource     = "source"
	connCheckpoint = "checkpoint"
	connHeartbeat  = "heartbeat"
)

// connectorFields are the mirror fields of the connectors.
var connectorFields = map[string]string{
	connSource: "sourceConnector", connCheckpoint: "checkpointConnector", connHeartbeat: "heartbeatConnector",
}

// mirrorKeyReaders are the connector keys only some connectors define
// (Kafka's MirrorSourceConfig, MirrorCheckpointConfig and
// MirrorHeartbeatConfig; the checkpoint connector also filters topics and
// checks emit.offset-syncs.enabled). Every other key is common to all
// three (MirrorConnectorConfig) or not a MirrorMaker key at all.
var mirrorKeyReaders = map[string][]string{}

func init() {
	for conns, keys := range map[string][]string{
		connSource: {"config.properties.exclude", "config.properties.blacklist", "config.property.filter.class",
			"heartbeats.replication.enabled", "offset-syncs.topic.replication.factor", "offset.lag.max",
			"refresh.topics.enabled", "refresh.topics.interval.seconds", "replication.factor", "sync.topic.acls.enabled",
			"sync.topic.acls.interval.seconds", "sync.topic.configs.enabled", "sync.topic.configs.interval.seconds",
			"use.incremental.alter.configs", "add.source.alias.to.metrics"},
		connCheckpoint: {"checkpoints.topic.replication.factor", "emit.checkpoints.enabled",
			"emit.checkpoints.interval.seconds", "group.filter.class", "groups", "groups.exclude", "groups.blacklist",
			"refresh.groups.enabled", "refresh.groups.interval.seconds", "sync.group.offsets.enabled",
			"sync.group.offsets.interval.seconds"},
		connSource + "," + connCheckpoint: {"topics", "topics.exclude", "topics.blacklist", "topic.filter.class",
			"consumer.poll.timeout.ms", "offset-syncs.topic.location", "emit.offset-syncs.enabled"},
		connHeartbeat: {"emit.heartbeats.enabled", "emit.heartbeats.interval.seconds", "heartbeats.topic.replication.factor"},
	} {
		for _, k := range keys {
			mirrorKeyReaders[k] = strings.Split(conns, ",")
		}
	}
}

// reads reports whether a connector reads key.
func reads(conn, key string) bool {
	rs, ok := mirrorKeyReaders[key]
	return !ok || slices.Contains(rs, conn)
}

// workerTopicKey reports a Connect worker's internal topic setting.
func workerTopicKey(key string) bool {
	for _, p := range []string{"config.storage.", "offset.storage.", "status.storage."} {
		if strings.HasPrefix(key, p) {
			return true
		}
	}
	return false
}

// mirrorPatterns are a mirror's topic and group patterns, the keys the
// operator sets from them in every connector's config (over the
// connector's own), and the deprecated field each falls back to.
var mirrorPatterns = []struct{ field, key, deprecated string }{
	{"topicsPattern", "topics", ""},
	{"topicsExcludePattern", "topics.exclude", "topicsBlacklistPattern"},
	{"groupsPattern", "groups", ""},
	{"groupsExcludePattern", "groups.exclude", "groupsBlacklistPattern"},
}

// mm2Settings collects a resource's settings; a key set again replaces the
// earlier value, as the operator's config maps do.
type mm2Settings struct {
	file     string
	settings []doc.Setting
	index    map[string]int
	ignored  []doc.Setting
	dups     []doc.Duplicate
	clusters []string        // aliases, in order
	seen     map[string]bool // aliases whose cluster was read
	connect  string          // the Connect cluster's alias
	sources  bool            // a mirror names its source cluster inline (v1)
}

func (m *mm2Settings) set(s doc.Setting) {
	if i, ok := m.index[s.Key]; ok {
		m.settings[i] = s
		return
	}
	m.index[s.Key] = len(m.settings)
	m.settings = append(m.settings, s)
}

// config returns the scalar entries of a config map and records its
// duplicate keys; a null value is left out (it sets nothing).
func (m *mm2Settings) config(n *yaml.Node) []entry {
	es, dups := entries(n)
	for _, d := range dups {
		m.dups = append(m.dups, doc.Duplicate{Key: d.Key, Loc: withFile(m.file, d.Loc), Previous: filePositions(m.file, d.Previous)})
	}
	var out []entry
	for _, e := range es {
		if isScalar(e.Value) && !isNull(e.Value) {
			out = append(out, e)
		}
	}
	return out
}

// cluster reads one cluster spec (spec.clusters[i], spec.target or a
// mirror's source) the first time its alias appears.
func (m *mm2Settings) cluster(c *yaml.Node, field string) string {
	alias := str(c, "alias")
	if alias == "" || m.seen[alias] {
		return alias
	}
	m.seen[alias] = true
	if e, ok := getEntry(c, "bootstrapServers"); ok && isScalar(e.Value) && !isNull(e.Value) {
		m.set(doc.Setting{Key: alias + ".bootstrap.servers", Value: text(e.Value), Loc: pos(m.file, e.Key), Origin: field + ".bootstrapServers"})
	}
	worker := alias == m.connect
	for _, e := range m.config(get(c, "config")) {
		s := doc.Setting{Key: alias + "." + e.key(), Value: text(e.Value), Loc: pos(m.file, e.Key), Origin: field + ".config"}
		if worker && workerTopicKey(e.key()) {
			s.Key, s.Origin = e.key(), field+".config (the Connect worker's)"
		}
		m.set(s)
	}
	return alias
}

// mirror reads one spec.mirrors[] entry; target is spec.target's alias
// (v1), else the entry's targetCluster applies.
func (m *mm2Settings) mirror(r resource, mi *yaml.Node, field, target string) {
	src := str(mi, "sourceCluster")
	if s := get(mi, "source"); isMap(s) {
		if a := m.cluster(s, field+".source"); a != "" {
			src = a
			m.declare(a)
			m.sources = true
		}
	}
	tgt := target
	if tgt == "" {
		tgt = str(mi, "targetCluster")
	}
	if src == "" || tgt == "" {
		return // the operator rejects the resource
	}
	flow := src + "->" + tgt + "."
	var deployed []string
	for _, conn := range []string{connSource, connCheckpoint, connHeartbeat} {
		// The v1 API has no heartbeat connector.
		if conn == connHeartbeat && strings.HasSuffix(r.api, "/v1") {
			continue
		}
		if isMap(get(mi, connectorFields[conn])) {
			deployed = append(deployed, conn)
		}
	}
	if slices.Contains(deployed, connSource) {
		m.set(doc.Setting{Key: flow + "enabled", Value: "true", Loc: pos(m.file, deref(mi)), Origin: field + ".sourceConnector"})
	}
	taken := map[string]bool{}
	for _, conn := range deployed {
		at := field + "." + connectorFields[conn] + ".config"
		for _, e := range m.config(get(mi, connectorFields[conn], "config")) {
			s := doc.Setting{Key: flow + e.key(), Value: text(e.Value), Loc: pos(m.file, e.Key), Origin: at}
			switch {
			case !reads(conn, e.key()):
				s.Origin += " (the " + conn + " connector does not read it; " + readersText(e.key()) + ")"
				m.ignored = append(m.ignored, s)
			case !taken[e.key()]: // else a connector earlier in the order set it
				taken[e.key()] = true
				m.set(s)
			}
		}
	}
	for _, p := range mirrorPatterns {
		e, ok := getEntry(mi, p.field)
		at := field + "." + p.field
		if (!ok || isNull(e.Value)) && p.deprecated != "" {
			e, ok = getEntry(mi, p.deprecated)
			at = field + "." + p.deprecated
		}
		if !ok || !isScalar(e.Value) || isNull(e.Value) {
			continue
		}
		s := doc.Setting{Key: flow + p.key, Value: text(e.Value), Loc: pos(m.file, e.Key), Origin: at}
		if !slices.ContainsFunc(deployed, func(c string) bool { return reads(c, p.key) }) {
			s.Origin += " (no connector of this mirror reads it; " + readersText(p.key) + ")"
			m.ignored = append(m.ignored, s)
			continue
		}
		m.set(s)
	}
}

// readersText names the connectors that read key.
func readersText(key string) string {
	rs := mirrorKeyReaders[key]
	fields := make([]string, len(rs))
	for i, c := range rs {
		fields[i] = connectorFields[c]
	}
	return "only " + strings.Join(fields, " and ") + " does"
}

func (m *mm2Settings) declare(alias string) {
	if !slices.Contains(m.clusters, alias) {
		m.clusters = append(m.clusters, alias)
	}
}

// strimziMirrorMakerUnit maps a KafkaMirrorMaker2 resource, in either API
// shape: v1beta2's spec.connectCluster, spec.clusters[] and
// mirrors[].sourceCluster/targetCluster, or v1's spec.target and
// mirrors[].source.
func strimziMirrorMakerUnit(r resource) doc.Doc {
	f := r.file
	u := doc.Doc{Kind: KindMirrorMaker, Format: "strimzi", Name: "KafkaMirrorMaker2 " + r.name, Loc: docStart(f.Name, r.doc),
		EnvHints: envHints(r)}
	if e, ok := getEntry(r.doc, "spec", "version"); ok && text(e.Value) != "" {
		u.KafkaVersion = &doc.Count{Text: text(e.Value), Source: "spec.version", Loc: pos(f.Name, e.Value)}
	}
	m := &mm2Settings{file: f.Name, index: map[string]int{}, seen: map[string]bool{}}
	var clustersAt *doc.Location
	var origins []string
	target := ""
	targetEntry, hasTarget := getEntry(r.doc, "spec", "target")
	if hasTarget && isMap(targetEntry.Value) {
		target = str(targetEntry.Value, "alias")
	}
	m.connect = cmp.Or(target, str(r.doc, "spec", "connectCluster"))
	if e, ok := getEntry(r.doc, "spec", "clusters"); ok && isSeq(e.Value) {
		p := pos(f.Name, e.Key)
		clustersAt = &p
		origins = append(origins, "spec.clusters[].alias")
		for i, c := range items(e.Value) {
			if a := m.cluster(c, fmt.Sprintf("spec.clusters[%d]", i)); a != "" {
				m.declare(a)
			}
		}
	}
	if target != "" {
		if clustersAt == nil {
			p := pos(f.Name, targetEntry.Key)
			clustersAt = &p
		}
		origins = append(origins, "spec.target.alias")
		m.cluster(targetEntry.Value, "spec.target")
		m.declare(target)
	}
	for i, mi := range items(get(r.doc, "spec", "mirrors")) {
		m.mirror(r, mi, fmt.Sprintf("spec.mirrors[%d]", i), target)
	}
	if m.sources {
		origins = append(origins, "spec.mirrors[].source.alias")
		if clustersAt == nil {
			p := docStart(f.Name, r.doc)
			clustersAt = &p
		}
	}
	if clustersAt != nil {
		m.set(doc.Setting{Key: "clusters", Value: strings.Join(m.clusters, ", "), Loc: *clustersAt, Origin: strings.Join(origins, ", ")})
	}
	slices.SortStableFunc(m.settings, func(a, b doc.Setting) int {
		return cmp.Or(cmp.Compare(a.Loc.Line, b.Loc.Line), cmp.Compare(a.Loc.Column, b.Loc.Column))
	})
	u.Settings, u.Ignored, u.Duplicates = m.settings, m.ignored, m.dups
	return u
}
