package yamlsrc

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kafkalint/kafkalint/loader/doc"
)

// Image families whose environment the loader can map to Kafka keys.
const (
	imageApache    = "apache"    // apache/kafka, apache/kafka-native
	imageConfluent = "confluent" // confluentinc/cp-kafka, confluentinc/cp-server
	imageBitnami   = "bitnami"   // bitnami/kafka (and bitnamilegacy/kafka)
)

// image is a service's image reference, interpolated.
type image struct {
	ref      string // as resolved, ${VAR} kept for unknown parts
	family   string // one of the image constants, or ""
	name     string // last path segment, e.g. cp-server
	tag      string
	resolved bool // no unknown variable in the repository part
	pos      doc.Location
}

var tagRE = regexp.MustCompile(`^\w[\w.-]*$`)

func parseImage(ref string, unknown bool, p doc.Location) image {
	im := image{ref: ref, pos: p}
	repo := ref
	if i := strings.Index(repo, "@"); i >= 0 { // digest
		repo = repo[:i]
	}
	last := repo[strings.LastIndex(repo, "/")+1:]
	if i := strings.LastIndex(last, ":"); i >= 0 {
		im.tag = last[i+1:]
		repo = repo[:len(repo)-len(last)+i]
		last = last[:i]
	}
	im.name = strings.ToLower(last)
	namespace := ""
	if parts := strings.Split(strings.ToLower(repo), "/"); len(parts) >= 2 {
		namespace = parts[len(parts)-2]
	}
	im.resolved = im.name != "" && !strings.ContainsAny(im.name, "${}")
	if unknown && strings.Contains(im.tag, "${") {
		im.tag = ""
	}
	if !tagRE.MatchString(im.tag) {
		im.tag = ""
	}
	switch {
	case im.name == "kafka" && (namespace == "apache" || namespace == "bitnami" || namespace == "bitnamilegacy"):
		im.family = map[string]string{"apache": imageApache, "bitnami": imageBitnami, "bitnamilegacy": imageBitnami}[namespace]
	case im.name == "kafka-native" && namespace == "apache":
		im.family = imageApache
	case im.name == "cp-kafka" || im.name == "cp-server":
		// Confluent's images under any namespace: registries mirror them
		// and compose files often write ${REPOSITORY}/cp-server.
		im.family = imageConfluent
	}
	return im
}

// kafkaVersion returns the Kafka version an image tag states for certain.
// apache/kafka tags are Kafka releases (3.9.0); bitnami/kafka tags start
// with the Kafka version (3.7, 3.7.0-debian-12-r0); Confluent Platform
// tags map to the Kafka release each CP line is built on (CP 7.9 = Kafka
// 3.9, ..., CP 5.0 = Kafka 2.0, CP 8.0 = Kafka 4.0; docs/compose.md cites
// the tables).
func (im image) kafkaVersion() (string, bool) {
	switch im.family {
	case imageApache:
		if m := regexp.MustCompile(`^(\d+)\.(\d+)\.\d+$`).FindStringSubmatch(im.tag); m != nil {
			return m[1] + "." + m[2], true
		}
	case imageBitnami:
		if m := regexp.MustCompile(`^(\d+)\.(\d+)(?:\.\d+)?(?:-debian-\d+-r\d+)?$`).FindStringSubmatch(im.tag); m != nil {
			return m[1] + "." + m[2], true
		}
	case imageConfluent:
		m := regexp.MustCompile(`^(\d+)\.(\d+)\.\d+(?:-\d+)?$`).FindStringSubmatch(im.tag)
		if m == nil {
			return "", false
		}
		cp := m[1] + "." + m[2]
		if v, ok := confluentKafka[cp]; ok {
			return v, true
		}
	}
	return "", false
}

// confluentKafka maps Confluent Platform minor versions to the Apache
// Kafka minor version they ship (Confluent's interoperability tables).
var confluentKafka = map[string]string{
	"5.0": "2.0", "5.1": "2.1", "5.2": "2.2", "5.3": "2.3", "5.4": "2.4", "5.5": "2.5",
	"6.0": "2.6", "6.1": "2.7", "6.2": "2.8",
	"7.0": "3.0", "7.1": "3.1", "7.2": "3.2", "7.3": "3.3", "7.4": "3.4", "7.5": "3.5",
	"7.6": "3.6", "7.7": "3.7", "7.8": "3.8", "7.9": "3.9",
	"8.0": "4.0",
}

// notConfig are KAFKA_* variables the apache and Confluent images read
// themselves (JVM, logging, JMX, cluster id) instead of turning them into
// server properties.
var notConfig = []string{
	"KAFKA_VERSION", "KAFKA_HEAP_OPTS", "KAFKA_OPTS", "KAFKA_JVM_PERFORMANCE_OPTS", "KAFKA_GC_LOG_OPTS",
	"KAFKA_LOG4J_OPTS", "KAFKA_DEBUG", "KAFKA_KRAFT_CLUSTER_ID", "KAFKA_CLUSTER_ID", "KAFKA_ENABLE_KRAFT",
	"KAFKA_TOOLS_LOG4J_LOGLEVEL", "KAFKA_HOME",
}

var notConfigPrefixes = []string{"KAFKA_JMX_", "KAFKA_LOG4J_", "KAFKA_CFG_"}

// envKey maps an environment variable to the Kafka key an image derives
// from it, or "" when the image does not treat it as a server property.
func envKey(family, name string) string {
	switch family {
	case imageBitnami:
		rest, ok := strings.CutPrefix(name, "KAFKA_CFG_")
		if !ok || rest == "" {
			return ""
		}
		if rest == "ZOOKEEPER_CLIENTCNXNSOCKET" {
			return "zookeeper.clientCnxnSocket"
		}
		key := strings.ToLower(strings.ReplaceAll(rest, "_", "."))
		key = strings.ReplaceAll(key, "sasl.ssl", "sasl_ssl")
		return strings.ReplaceAll(key, "sasl.plaintext", "sasl_plaintext")
	case imageApache, imageConfluent:
		if slices.Contains(notConfig, name) {
			return ""
		}
		for _, p := range notConfigPrefixes {
			if strings.HasPrefix(name, p) {
				return ""
			}
		}
		if name == "KAFKA_ZOOKEEPER_CLIENT_CNXN_SOCKET" {
			return "zookeeper.clientCnxnSocket"
		}
		if rest, ok := strings.CutPrefix(name, "KAFKA_"); ok && rest != "" {
			return dottedKey(rest)
		}
		if rest, ok := strings.CutPrefix(name, "CONFLUENT_"); ok && rest != "" && family == imageConfluent {
			return "confluent." + dottedKey(rest)
		}
	}
	return ""
}

// dottedKey is the apache/Confluent image rule: lower case, `_` → `.`,
// `__` → `_`, `___` → `-`.
func dottedKey(rest string) string {
	key := strings.Join(strings.Split(strings.ToLower(rest), "_"), ".")
	key = strings.ReplaceAll(key, "...", "-")
	return strings.ReplaceAll(key, "..", "_")
}

// nodeShapeVars mark a service of an unresolvable image (image: ${IMAGE})
// as a Kafka server when its environment sets them.
var nodeShapeVars = []string{"PROCESS_ROLES", "NODE_ID", "BROKER_ID", "ZOOKEEPER_CONNECT", "CONTROLLER_QUORUM_VOTERS", "CONTROLLER_QUORUM_BOOTSTRAP_SERVERS"}

// envVar is one environment variable of a service.
type envVar struct {
	name    string
	value   string
	unknown bool
	expr    string
	pos     doc.Location
}

// IsCompose reports a compose file: a top-level `services` mapping.
func IsCompose(f *File) bool {
	return len(f.Docs) > 0 && isMap(get(f.Docs[0], "services"))
}

// composeNode is one Kafka service while the file is read.
type composeNode struct {
	unit  doc.Doc
	roles []string
	known bool // roles known
	n     int  // containers (deploy.replicas, scale, else 1)
	keys  []string
}

// Compose reads a docker-compose file. vars are the variables of the .env
// file beside it. It returns no docs when no service runs Kafka. Services
// that share a ZooKeeper ensemble or a controller quorum endpoint are one
// cluster; a file may hold several (a source and a target cluster).
func Compose(f *File, vars map[string]string) []doc.Doc {
	if !IsCompose(f) {
		return nil
	}
	root := f.Docs[0]
	group := "compose " + f.Name
	if project := str(root, "name"); project != "" {
		group += " (" + project + ")"
	}
	services, _ := entries(get(root, "services"))
	var nodes []*composeNode
	for _, svc := range services {
		if node := composeService(f, svc, vars); node != nil {
			nodes = append(nodes, node)
		}
	}
	if len(nodes) == 0 {
		return nil
	}
	clusters := composeClusters(nodes)
	var units []doc.Doc
	for _, members := range clusters {
		g := group
		if len(clusters) > 1 {
			g += ": cluster of " + members[0].unit.Name
		}
		first := len(units)
		for _, m := range members {
			m.unit.Group = g
			units = append(units, m.unit)
		}
		if !slices.ContainsFunc(members, func(m *composeNode) bool { return !m.known }) {
			units[first].BrokerCount = composeCount(members, "broker")
			units[first].ControllerCount = composeCount(members, "controller")
		}
	}
	return filed(units, f)
}

// composeService reads one service, or returns nil when it does not run a
// Kafka server.
func composeService(f *File, svc entry, vars map[string]string) *composeNode {
	s := svc.Value
	if !isMap(s) {
		return nil
	}
	imgEntry, _ := lookup(s, "image")
	ref, unknownRef := Interpolate(text(imgEntry.Value), vars)
	im := parseImage(ref, unknownRef, pos(f.Name, imgEntry.Value))
	env, dups := serviceEnv(f, s, vars)
	family := im.family
	if family == "" && !im.resolved {
		family = familyFromEnv(env)
	}
	if family == "" || !startsServer(s) {
		return nil
	}
	u := doc.Doc{Kind: doc.KindNode, Format: "compose", Name: svc.key(), Loc: pos(f.Name, svc.Key)}
	seen := map[string]int{}
	for _, e := range env {
		key := envKey(family, e.name)
		if key == "" || (family == imageBitnami && e.value == "" && !e.unknown) {
			continue
		}
		st := doc.Setting{Key: key, Value: e.value, Loc: e.pos, Unknown: e.unknown, Expr: e.expr, Origin: e.name}
		if i, ok := seen[key]; ok {
			u.Duplicates = append(u.Duplicates, doc.Duplicate{Key: key, Loc: e.pos, Previous: []doc.Location{u.Settings[i].Loc}})
			u.Settings[i] = st
			continue
		}
		seen[key] = len(u.Settings)
		u.Settings = append(u.Settings, st)
	}
	for _, d := range dups {
		if key := envKey(family, d.Key); key != "" {
			u.Duplicates = append(u.Duplicates, doc.Duplicate{Key: key, Loc: withFile(f.Name, d.Loc), Previous: filePositions(f.Name, d.Previous)})
		}
	}
	if v, ok := im.kafkaVersion(); ok {
		u.KafkaVersion = &doc.Count{Text: v, Source: "image " + im.ref, Loc: im.pos}
	}
	// The Bitnami image fills the controller quorum from its bundled
	// server.properties when the environment does not set it.
	if family == imageBitnami && !hasKey(u.Settings, "controller.quorum.voters") && !hasKey(u.Settings, "controller.quorum.bootstrap.servers") {
		u.QuorumManaged = true
	}
	// Keys Kafka's sample server.properties sets (to 1, for development)
	// keep that file's value when the environment does not set them: in
	// the Bitnami image, which starts from that file, and in the apache
	// image given a properties file in /mnt/shared/config. The file is not
	// in the compose project, so the value is unknown, not Kafka's default.
	if base := configFileOf(family, s); base != "" {
		for _, key := range sampleConfigKeys {
			if !hasKey(u.Settings, key) {
				u.Settings = append(u.Settings, doc.Setting{Key: key, Value: "${" + key + "}", Unknown: true,
					Expr: "(" + base + ")", Loc: u.Loc, Origin: base})
			}
		}
	}
	n, written, rp := serviceReplicas(f, s)
	if written {
		u.Replicas = &doc.Count{Value: n, Text: strconv.Itoa(n), Source: svc.key() + " replicas", Loc: rp}
	}
	node := &composeNode{unit: u, n: n}
	node.roles, node.known = serviceRoles(u.Settings)
	node.keys = composeKeys(svc.key(), s, u.Settings, node.roles)
	return node
}

// sampleConfigKeys are keys Kafka's shipped config/server.properties sets
// for development (internal topic replication, config/server.properties)
// and that every Kafka version defines. (4.x's share.coordinator.* keys
// are left out: older versions do not know them.)
var sampleConfigKeys = []string{"offsets.topic.replication.factor", "transaction.state.log.replication.factor",
	"transaction.state.log.min.isr"}

// configFileOf names the properties file a service's server starts from
// besides its environment, or "".
func configFileOf(family string, s *yaml.Node) string {
	if family == imageBitnami {
		return "the bitnami/kafka image's bundled server.properties"
	}
	for _, v := range items(get(s, "volumes")) {
		target := text(v)
		if isMap(v) {
			target = str(v, "target")
		} else if parts := strings.Split(target, ":"); len(parts) >= 2 {
			target = parts[1]
		}
		if family == imageApache && strings.TrimSuffix(target, "/") == "/mnt/shared/config" {
			return "a server.properties mounted at /mnt/shared/config"
		}
	}
	return ""
}

// serverStarts are the start commands of the Kafka images: a service that
// overrides command or entrypoint with none of them runs something else
// (a tools container that keeps the image for its CLI).
var serverStarts = []string{"/etc/confluent/docker/run", "/etc/kafka/docker/run", "kafka-server-start", "run.sh", "/entrypoint.sh", "/__cacert_entrypoint.sh"}

func startsServer(s *yaml.Node) bool {
	for _, key := range []string{"command", "entrypoint"} {
		n := get(s, key)
		if n == nil || isNull(n) {
			continue
		}
		parts := []string{text(n)}
		for _, part := range items(n) {
			parts = append(parts, text(part))
		}
		cmd := strings.Join(parts, " ")
		if strings.TrimSpace(cmd) == "" {
			continue
		}
		if !slices.ContainsFunc(serverStarts, func(start string) bool { return strings.Contains(cmd, start) }) {
			return false
		}
	}
	return true
}

// composeKeys identify the cluster a service belongs to: its ZooKeeper
// ensemble, the endpoints of its controller quorum, and for a controller
// the endpoints other services reach it at (service name, hostname,
// container name and network aliases with its controller port).
func composeKeys(name string, s *yaml.Node, ss []doc.Setting, roles []string) []string {
	get := func(key string) (string, bool) {
		for _, st := range ss {
			if st.Key == key && !st.Unknown {
				return st.Value, true
			}
		}
		return "", false
	}
	var keys []string
	if v, ok := get("zookeeper.connect"); ok && strings.TrimSpace(v) != "" {
		hosts, chroot, _ := strings.Cut(strings.TrimSpace(v), "/")
		parts := strings.Split(strings.ToLower(hosts), ",")
		for i := range parts {
			parts[i] = strings.TrimSpace(parts[i])
		}
		slices.Sort(parts)
		keys = append(keys, "zk "+strings.Join(parts, ",")+"/"+chroot)
	}
	for _, k := range []string{"controller.quorum.voters", "controller.quorum.bootstrap.servers"} {
		if v, ok := get(k); ok {
			for _, e := range strings.Split(v, ",") {
				if _, hp, ok := strings.Cut(e, "@"); ok {
					e = hp
				}
				if e = strings.ToLower(strings.TrimSpace(e)); e != "" {
					keys = append(keys, "quorum "+e)
				}
			}
		}
	}
	if slices.Contains(roles, "controller") {
		names := []string{name, str(s, "hostname"), str(s, "container_name")}
		nets, _ := entries(get2(s, "networks"))
		for _, n := range nets {
			for _, a := range items(get2(n.Value, "aliases")) {
				names = append(names, text(a))
			}
		}
		ctrl, _ := get("controller.listener.names")
		ls, _ := get("listeners")
		for _, l := range strings.Split(ls, ",") {
			lname, rest, ok := strings.Cut(strings.TrimSpace(l), "://")
			if !ok || !slices.ContainsFunc(strings.Split(ctrl, ","), func(c string) bool { return strings.EqualFold(strings.TrimSpace(c), lname) }) {
				continue
			}
			port := rest[strings.LastIndex(rest, ":")+1:]
			for _, h := range names {
				if h != "" {
					keys = append(keys, "quorum "+strings.ToLower(h)+":"+port)
				}
			}
		}
	}
	return keys
}

// get2 is get for a node that may not be a mapping.
func get2(n *yaml.Node, key string) *yaml.Node {
	if !isMap(n) {
		return nil
	}
	return get(n, key)
}

// composeClusters groups services sharing a key. Services without any key
// join the only keyed cluster, else form one cluster together.
func composeClusters(nodes []*composeNode) [][]*composeNode {
	parent := make([]int, len(nodes))
	for i := range parent {
		parent[i] = i
	}
	find := func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	owner := map[string]int{}
	for i, n := range nodes {
		for _, k := range n.keys {
			if j, ok := owner[k]; ok {
				parent[find(i)] = find(j)
			} else {
				owner[k] = i
			}
		}
	}
	var keyed, keyless []int
	roots := map[int]bool{}
	for i, n := range nodes {
		if len(n.keys) == 0 {
			keyless = append(keyless, i)
			continue
		}
		keyed = append(keyed, i)
		roots[find(i)] = true
	}
	if len(roots) == 1 {
		for _, i := range keyless {
			parent[i] = find(keyed[0])
		}
	} else {
		for _, i := range keyless[min(1, len(keyless)):] {
			parent[i] = keyless[0]
		}
	}
	var order []int
	byRoot := map[int][]*composeNode{}
	for i, n := range nodes {
		r := find(i)
		if _, ok := byRoot[r]; !ok {
			order = append(order, r)
		}
		byRoot[r] = append(byRoot[r], n)
	}
	out := make([][]*composeNode, 0, len(order))
	for _, r := range order {
		out = append(out, byRoot[r])
	}
	return out
}

// composeCount adds the containers of the services with a role.
func composeCount(members []*composeNode, role string) *doc.Count {
	var names []string
	total := 0
	var first *doc.Location
	for _, m := range members {
		if slices.Contains(m.roles, role) {
			total += m.n
			names = append(names, m.unit.Name)
			if first == nil {
				p := m.unit.Loc
				first = &p
			}
		}
	}
	if first == nil {
		return nil
	}
	return &doc.Count{Value: total, Text: strconv.Itoa(total), Source: fmt.Sprintf("compose services with the %s role (%s)", role, strings.Join(names, ", ")), Loc: *first}
}

func filePositions(file string, ps []doc.Location) []doc.Location {
	out := make([]doc.Location, len(ps))
	for i, p := range ps {
		out[i] = withFile(file, p)
	}
	return out
}

func hasKey(ss []doc.Setting, key string) bool {
	return slices.ContainsFunc(ss, func(s doc.Setting) bool { return s.Key == key })
}

// familyFromEnv decides how to read a service whose image cannot be
// resolved: Bitnami when it sets KAFKA_CFG_ server variables, the apache
// image rule when it sets KAFKA_ server variables, else not Kafka.
func familyFromEnv(env []envVar) string {
	for _, e := range env {
		for _, v := range nodeShapeVars {
			if e.name == "KAFKA_CFG_"+v {
				return imageBitnami
			}
		}
	}
	for _, e := range env {
		for _, v := range nodeShapeVars {
			if e.name == "KAFKA_"+v {
				return imageApache
			}
		}
	}
	return ""
}

// serviceRoles returns the roles a service runs, and false when they are
// not known (process.roles unresolved, or neither it nor ZooKeeper set).
func serviceRoles(ss []doc.Setting) ([]string, bool) {
	for _, s := range ss {
		if s.Key == "process.roles" {
			if s.Unknown {
				return nil, false
			}
			var roles []string
			for _, r := range strings.Split(s.Value, ",") {
				if r = strings.TrimSpace(r); r != "" {
					roles = append(roles, r)
				}
			}
			return roles, len(roles) > 0
		}
	}
	if hasKey(ss, "zookeeper.connect") {
		return []string{"broker"}, true
	}
	return nil, false
}

// serviceReplicas is deploy.replicas, else scale, else 1.
func serviceReplicas(f *File, s *yaml.Node) (n int, written bool, p doc.Location) {
	for _, path := range [][]string{{"deploy", "replicas"}, {"scale"}} {
		if e, ok := getEntry(s, path...); ok {
			if v, ok := integer(e.Value); ok {
				return v, true, pos(f.Name, e.Key)
			}
		}
	}
	return 1, false, doc.Location{}
}

// serviceEnv reads a service's environment in map or list form, with
// variables interpolated.
func serviceEnv(f *File, s *yaml.Node, vars map[string]string) ([]envVar, []doc.Duplicate) {
	env := get(s, "environment")
	var out []envVar
	add := func(name, raw string, fromShell bool, p doc.Location) {
		e := envVar{name: name, pos: p}
		switch {
		case fromShell:
			// `KEY` alone (or `KEY:` with no value) passes the shell's
			// variable through: unknown.
			if v, ok := vars[name]; ok {
				e.value = v
			} else {
				e.value, e.unknown, e.expr = "${"+name+"}", true, "${"+name+"}"
			}
		default:
			e.value, e.unknown = Interpolate(raw, vars)
			if e.unknown {
				e.expr = raw
			}
		}
		out = append(out, e)
	}
	switch {
	case isMap(env):
		es, dups := entries(env)
		for _, e := range es {
			if !isScalar(e.Value) {
				continue
			}
			add(e.key(), text(e.Value), isNull(e.Value), pos(f.Name, e.Key))
		}
		return out, dups
	case isSeq(env):
		// Every occurrence is returned: the caller reports a variable
		// written twice.
		for _, item := range deref(env).Content {
			item = deref(item)
			if item == nil || item.Kind != yaml.ScalarNode {
				continue
			}
			name, value, hasValue := strings.Cut(item.Value, "=")
			name = strings.TrimSpace(name)
			if name == "" {
				continue
			}
			add(name, value, !hasValue, pos(f.Name, item))
		}
		return out, nil
	}
	return nil, nil
}
