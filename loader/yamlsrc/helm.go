package yamlsrc

import (
	"fmt"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kafkalint/kafkalint/loader/doc"
)

// IsValuesName reports a Helm values file name: values.yaml,
// values-prod.yml, prod-values.yaml ...
func IsValuesName(name string) bool {
	base := strings.ToLower(path.Base(name))
	return strings.Contains(base, "values") && (strings.HasSuffix(base, ".yaml") || strings.HasSuffix(base, ".yml"))
}

// ChartKafka reads a Chart.yaml. self: the chart is the kafka chart
// itself; key: the values key of a `kafka` dependency (its alias, else
// "kafka"), "" when there is none.
func ChartKafka(data []byte) (self bool, key string) {
	f, err := Parse("Chart.yaml", data)
	if err != nil || len(f.Docs) == 0 {
		return false, ""
	}
	root := f.Docs[0]
	if str(root, "name") == "kafka" {
		self = true
	}
	for _, d := range items(get(root, "dependencies")) {
		if str(d, "name") == "kafka" {
			key = str(d, "alias")
			if key == "" {
				key = "kafka"
			}
		}
	}
	return self, key
}

// BitnamiKafkaShape reports values that have the shape of the Bitnami kafka
// chart's values: keys only that chart combines.
func BitnamiKafkaShape(root *yaml.Node) bool {
	if !isMap(root) {
		return false
	}
	repo := strings.ToLower(str(root, "image", "repository"))
	if strings.HasSuffix(repo, "bitnami/kafka") || strings.HasSuffix(repo, "bitnamilegacy/kafka") {
		return true
	}
	ctrl, brk := get(root, "controller"), get(root, "broker")
	if isMap(ctrl) && get(ctrl, "controllerOnly") != nil {
		return true
	}
	if get(ctrl, "replicaCount") != nil && get(brk, "replicaCount") != nil {
		return true
	}
	if isMap(get(root, "listeners")) && (get(root, "listeners", "client") != nil || get(root, "listeners", "interbroker") != nil) && (isMap(ctrl) || isMap(brk)) {
		return true
	}
	if get(root, "overrideConfiguration") != nil && (isMap(ctrl) || isMap(brk)) {
		return true
	}
	if get(root, "kraft", "controllerQuorumVoters") != nil || get(root, "kraft", "processRoles") != nil {
		return true
	}
	if get(root, "replicaCount") != nil {
		for _, k := range []string{"offsetsTopicReplicationFactor", "defaultReplicationFactor", "transactionStateLogMinIsr", "transactionStateLogReplicationFactor"} {
			if get(root, k) != nil {
				return true
			}
		}
		for _, k := range []string{"clientProtocol", "interBrokerProtocol", "externalClientProtocol"} {
			if get(root, "auth", k) != nil {
				return true
			}
		}
		if isMap(get(root, "metrics", "kafka")) && isMap(get(root, "metrics", "jmx")) {
			return true
		}
	}
	return false
}

// flatTypedKeys are the broker settings the chart's flat layout (charts up
// to 24) writes from its own camelCase keys.
var flatTypedKeys = []struct{ value, key string }{
	{"deleteTopicEnable", "delete.topic.enable"},
	{"autoCreateTopicsEnable", "auto.create.topics.enable"},
	{"logFlushIntervalMessages", "log.flush.interval.messages"},
	{"logFlushIntervalMs", "log.flush.interval.ms"},
	{"logRetentionBytes", "log.retention.bytes"},
	{"logRetentionCheckIntervalMs", "log.retention.check.interval.ms"},
	{"logRetentionHours", "log.retention.hours"},
	{"logSegmentBytes", "log.segment.bytes"},
	{"logsDirs", "log.dirs"},
	{"maxMessageBytes", "message.max.bytes"},
	{"defaultReplicationFactor", "default.replication.factor"},
	{"offsetsTopicReplicationFactor", "offsets.topic.replication.factor"},
	{"transactionStateLogReplicationFactor", "transaction.state.log.replication.factor"},
	{"transactionStateLogMinIsr", "transaction.state.log.min.isr"},
	{"numIoThreads", "num.io.threads"},
	{"numNetworkThreads", "num.network.threads"},
	{"numPartitions", "num.partitions"},
	{"numRecoveryThreadsPerDataDir", "num.recovery.threads.per.data.dir"},
	{"socketReceiveBufferBytes", "socket.receive.buffer.bytes"},
	{"socketRequestMaxBytes", "socket.request.max.bytes"},
	{"socketSendBufferBytes", "socket.send.buffer.bytes"},
	{"zookeeperConnectionTimeoutMs", "zookeeper.connection.timeout.ms"},
	{"authorizerClassName", "authorizer.class.name"},
	{"allowEveryoneIfNoAclFound", "allow.everyone.if.no.acl.found"},
	{"superUsers", "super.users"},
	{"interBrokerListenerName", "inter.broker.listener.name"},
	{"listenerSecurityProtocolMap", "listener.security.protocol.map"},
}

var helmManaged = []string{"node.id", "process.roles", "controller.quorum.voters", "controller.quorum.bootstrap.servers",
	"controller.listener.names", "listeners", "advertised.listeners", "listener.security.protocol.map",
	"inter.broker.listener.name", "log.dir", "log.dirs"}

// helmValues reads one values tree.
type helmValues struct {
	f     *File
	root  *yaml.Node
	scope string // "" or the dependency key the values are under
	group string
	err   *doc.Error
}

// key names a values key for messages, with the dependency prefix.
func (h *helmValues) key(path ...string) string {
	k := strings.Join(path, ".")
	if h.scope != "" {
		k = h.scope + "." + k
	}
	return k
}

func (h *helmValues) start() doc.Location {
	if h.scope != "" {
		if e, ok := lookup(h.f.Docs[0], h.scope); ok {
			return pos(h.f.Name, e.Key)
		}
	}
	return doc.Location{File: h.f.Name, Line: 1, Column: 1}
}

// intKey reads an integer key, or its chart default.
func (h *helmValues) intKey(def int, path ...string) *doc.Count {
	if e, ok := getEntry(h.root, path...); ok {
		if n, ok := integer(e.Value); ok {
			return &doc.Count{Value: n, Text: text(e.Value), Source: h.key(path...), Loc: pos(h.f.Name, e.Key)}
		}
	}
	return &doc.Count{Value: def, Source: fmt.Sprintf("%s (not set: the chart's default %d)", h.key(path...), def), Loc: h.start()}
}

// Helm reads a values file of the Bitnami kafka chart. scope is "" for
// the chart's own values, or the key of a kafka dependency in an umbrella
// chart's values. The values are an overlay on the chart's defaults (see
// docs/helm.md for the chart versions it models).
func Helm(f *File, scope string) ([]doc.Doc, *doc.Error) {
	if len(f.Docs) == 0 {
		return nil, nil
	}
	root := f.Docs[0]
	if scope != "" {
		root = get(root, scope)
	}
	if !isMap(root) {
		return nil, nil
	}
	h := &helmValues{f: f, root: root, scope: scope, group: "helm " + f.Name}
	if scope != "" {
		h.group += " (" + scope + ")"
	}
	var units []doc.Doc
	if get(root, "controller") != nil || get(root, "broker") != nil || get(root, "overrideConfiguration") != nil || get(root, "replicaCount") == nil {
		units = h.currentLayout()
	} else {
		units = h.flatLayout()
	}
	if h.err != nil {
		return nil, h.err
	}
	if len(units) > 0 {
		units = append(units, h.provisionedTopics()...)
	}
	version := h.version()
	for i := range units {
		units[i].Format, units[i].Group, units[i].KafkaVersion = "helm", h.group, version
		if units[i].Kind == doc.KindNode {
			units[i].ManagedKeys = helmManaged
		}
	}
	return filed(units, f), nil
}

var bitnamiTagRE = regexp.MustCompile(`^(\d+)\.(\d+)\.\d+(?:-debian-\d+-r\d+)?$`)

// version: Bitnami image tags start with the Kafka version they ship.
func (h *helmValues) version() *doc.Count {
	repo := strings.ToLower(str(h.root, "image", "repository"))
	if !strings.HasSuffix(repo, "bitnami/kafka") && !strings.HasSuffix(repo, "bitnamilegacy/kafka") {
		return nil
	}
	e, ok := getEntry(h.root, "image", "tag")
	if !ok {
		return nil
	}
	if m := bitnamiTagRE.FindStringSubmatch(text(e.Value)); m != nil {
		return &doc.Count{Text: m[1] + "." + m[2], Source: h.key("image", "tag") + " " + text(e.Value), Loc: pos(h.f.Name, e.Value)}
	}
	return nil
}

// settings layers the configuration blocks that apply to one role (""
// for the flat layout): later layers override earlier ones, as the chart
// renders them.
func (h *helmValues) settings(role string) ([]doc.Setting, []doc.Duplicate) {
	var out []doc.Setting
	var dups []doc.Duplicate
	index := map[string]int{}
	add := func(ss []doc.Setting, ds []doc.Duplicate, err *doc.Error) {
		if err != nil && h.err == nil {
			h.err = err
		}
		dups = append(dups, ds...)
		for _, s := range ss {
			if i, ok := index[s.Key]; ok {
				out[i] = s
				continue
			}
			index[s.Key] = len(out)
			out = append(out, s)
		}
	}
	block := func(path ...string) {
		ss, ds, err := configBlock(h.f, get(h.root, path...), h.key(path...))
		if path[len(path)-1] == "secretConfig" {
			// The chart stores secretConfig in a Kubernetes Secret: the
			// values file declares every value of it sensitive.
			for i := range ss {
				ss[i].Sensitive = true
			}
		}
		add(ss, ds, err)
	}
	// `config` replaces the generated configuration; a role's own config
	// wins over the top-level one.
	if role != "" && !emptyValue(get(h.root, role, "config")) {
		block(role, "config")
	} else {
		block("config")
	}
	if role == "" && emptyValue(get(h.root, "config")) {
		add(h.typedKeys(), nil, nil)
	}
	for _, name := range []string{"extraConfig", "extraConfigYaml", "overrideConfiguration", "secretConfig"} {
		block(name)
		if role != "" {
			block(role, name)
		}
	}
	add(h.extraEnv(nil), nil, nil)
	if role != "" {
		add(h.extraEnv([]string{role}), nil, nil)
	}
	return out, dups
}

func emptyValue(n *yaml.Node) bool {
	n = deref(n)
	return n == nil || isNull(n) || (n.Kind == yaml.ScalarNode && strings.TrimSpace(n.Value) == "") ||
		(n.Kind == yaml.MappingNode && len(n.Content) == 0)
}

// typedKeys are the flat layout's camelCase broker settings.
func (h *helmValues) typedKeys() []doc.Setting {
	var out []doc.Setting
	for _, t := range flatTypedKeys {
		e, ok := lookup(h.root, t.value)
		if !ok || !isScalar(e.Value) || isNull(e.Value) {
			continue
		}
		// The chart writes big numbers as _1073741824 so YAML keeps them
		// strings; its templates drop the underscore.
		v := strings.TrimPrefix(text(e.Value), "_")
		if v == "" {
			continue
		}
		out = append(out, doc.Setting{Key: t.key, Value: v, Loc: pos(h.f.Name, e.Key), Origin: h.key(t.value)})
	}
	return out
}

// extraEnv reads KAFKA_CFG_* entries of extraEnvVars, which the Bitnami
// image turns into settings.
func (h *helmValues) extraEnv(prefix []string) []doc.Setting {
	var out []doc.Setting
	for _, item := range items(get(h.root, append(prefix, "extraEnvVars")...)) {
		nameEntry, ok := lookup(item, "name")
		if !ok {
			continue
		}
		key := envKey(imageBitnami, text(nameEntry.Value))
		if key == "" {
			continue
		}
		out = append(out, doc.Setting{Key: key, Value: str(item, "value"), Loc: pos(h.f.Name, nameEntry.Value), Origin: text(nameEntry.Value)})
	}
	return out
}

// quorum returns an explicitly written quorum setting, if any.
func (h *helmValues) quorum() (doc.Setting, bool) {
	for _, q := range []struct {
		path []string
		key  string
	}{
		{[]string{"kraft", "controllerQuorumVoters"}, "controller.quorum.voters"},
		{[]string{"controller", "quorumBootstrapServers"}, "controller.quorum.bootstrap.servers"},
	} {
		if e, ok := getEntry(h.root, q.path...); ok && strings.TrimSpace(text(e.Value)) != "" {
			return doc.Setting{Key: q.key, Value: text(e.Value), Loc: pos(h.f.Name, e.Key), Origin: h.key(q.path...)}, true
		}
	}
	return doc.Setting{}, false
}

// currentLayout: charts 25 and later, with controller-eligible nodes
// (`controller.*`) and broker-only nodes (`broker.*`).
func (h *helmValues) currentLayout() []doc.Doc {
	if on, ok := boolean(get(h.root, "kraft", "enabled")); ok && !on {
		// ZooKeeper mode (charts 25 to 31): brokers only.
		n := h.intKey(0, "broker", "replicaCount")
		if n.Value == 0 {
			return nil
		}
		ss, dups := h.settings("broker")
		ss = append(ss, h.clientListeners(ss)...)
		u := doc.Doc{Kind: doc.KindNode, Name: "broker", Loc: h.sectionStart("broker"), Settings: ss, Duplicates: dups, Replicas: n}
		c := *n
		u.BrokerCount = &c
		return []doc.Doc{u}
	}
	quorum, static := h.quorum()
	ctrl := h.intKey(3, "controller", "replicaCount")
	brk := h.intKey(0, "broker", "replicaCount")
	only, onlyWritten := boolean(get(h.root, "controller", "controllerOnly"))
	var units []doc.Doc
	if ctrl.Value > 0 {
		ss, dups := h.settings("controller")
		if !hasKey(ss, "process.roles") {
			roles := "controller,broker"
			if only {
				roles = "controller"
			}
			s := doc.Setting{Key: "process.roles", Value: roles, Loc: h.start(),
				Origin: h.key("controller", "controllerOnly") + " (not set: the chart's default false makes every controller-eligible node a combined broker and controller)"}
			if onlyWritten {
				e, _ := getEntry(h.root, "controller", "controllerOnly")
				s.Loc, s.Origin = pos(h.f.Name, e.Key), h.key("controller", "controllerOnly")
			}
			ss = append(ss, s)
		}
		if !only {
			ss = append(ss, h.clientListeners(ss)...)
		}
		if static {
			ss = append(ss, quorum)
		}
		units = append(units, doc.Doc{Kind: doc.KindNode, Name: "controller", Loc: h.sectionStart("controller"), Settings: ss, Duplicates: dups,
			Replicas: ctrl, QuorumManaged: !static})
	}
	if brk.Value > 0 {
		ss, dups := h.settings("broker")
		if !hasKey(ss, "process.roles") {
			ss = append(ss, doc.Setting{Key: "process.roles", Value: "broker", Loc: brk.Loc, Origin: h.key("broker", "replicaCount")})
		}
		ss = append(ss, h.clientListeners(ss)...)
		if static {
			ss = append(ss, quorum)
		}
		units = append(units, doc.Doc{Kind: doc.KindNode, Name: "broker", Loc: h.sectionStart("broker"), Settings: ss, Duplicates: dups,
			Replicas: brk, QuorumManaged: !static})
	}
	if len(units) == 0 {
		return nil
	}
	c := *ctrl
	units[0].ControllerCount = &c
	brokers := brk.Value
	src := h.key("broker", "replicaCount")
	at := brk.Loc
	if !only {
		brokers += ctrl.Value
		src = fmt.Sprintf("%s %d + %s %d (combined nodes are brokers too)", h.key("controller", "replicaCount"), ctrl.Value, h.key("broker", "replicaCount"), brk.Value)
		if brk.Value == 0 {
			at = ctrl.Loc
		}
	}
	units[0].BrokerCount = &doc.Count{Value: brokers, Text: strconv.Itoa(brokers), Source: src, Loc: at}
	return units
}

func (h *helmValues) sectionStart(section string) doc.Location {
	if e, ok := lookup(h.root, section); ok {
		return pos(h.f.Name, e.Key)
	}
	return h.start()
}

// flatLayout: charts up to 24, one StatefulSet of `replicaCount` nodes.
func (h *helmValues) flatLayout() []doc.Doc {
	n := h.intKey(1, "replicaCount")
	ss, dups := h.settings("")
	ss = append(ss, h.legacyListeners(ss)...)
	u := doc.Doc{Kind: doc.KindNode, Name: "kafka", Loc: h.start(), Settings: ss, Duplicates: dups, Replicas: n}
	kraftOn, kraftSet := boolean(get(h.root, "kraft", "enabled"))
	zkOn, zkSet := boolean(get(h.root, "zookeeper", "enabled"))
	switch {
	case kraftSet && kraftOn:
		if !hasKey(ss, "process.roles") {
			s := doc.Setting{Key: "process.roles", Value: "broker,controller", Loc: h.start(),
				Origin: h.key("kraft", "processRoles") + " (not set: the chart's default broker,controller)"}
			if e, ok := getEntry(h.root, "kraft", "processRoles"); ok && text(e.Value) != "" {
				s.Value, s.Loc, s.Origin = text(e.Value), pos(h.f.Name, e.Key), h.key("kraft", "processRoles")
			}
			u.Settings = append(u.Settings, s)
		}
		if q, ok := h.quorum(); ok {
			u.Settings = append(u.Settings, q)
		} else {
			u.QuorumManaged = true
		}
	case kraftSet || (zkSet && zkOn) || hasKey(ss, "zookeeper.connect"):
		// ZooKeeper mode: no process.roles.
	default:
		// Whether these nodes run KRaft depends on the chart version
		// (kraft.enabled defaults to true from chart 22): unknown.
		u.Settings = append(u.Settings, doc.Setting{Key: "process.roles", Value: "${kraft.enabled}", Unknown: true,
			Expr: h.key("kraft", "enabled") + " not set: the chart version decides", Loc: h.start(), Origin: h.key("kraft", "enabled")})
	}
	roles, known := serviceRoles(u.Settings)
	if zk := (kraftSet && !kraftOn) || (!kraftSet && zkSet && zkOn) || (!kraftSet && hasKey(ss, "zookeeper.connect")); zk {
		roles, known = []string{"broker"}, true
	}
	if known {
		if slices.Contains(roles, "broker") {
			c := *n
			u.BrokerCount = &c
		}
		if slices.Contains(roles, "controller") {
			c := *n
			u.ControllerCount = &c
		}
	}
	return []doc.Doc{u}
}
