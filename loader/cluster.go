package loader

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/kafkalint/kafkalint/loader/catalog"
)

// buildClusters groups records into clusters (group; docs/model.md,
// "Grouping") and types each cluster's settings for its Kafka version.
// It consumes recs: each entry is set to nil once its cluster is built.
// It stops, returning nil, when ctx is done.
func buildClusters(ctx context.Context, recs []*Doc, opts Options) []*Cluster {
	slices.SortFunc(recs, func(a, b *Doc) int { return cmp.Compare(a.File, b.File) })
	u := group(recs, opts.Dir)
	groups := map[int][]int{}
	for i := range recs {
		groups[u.find(i)] = append(groups[u.find(i)], i)
	}
	var clusters []*Cluster
	for root, members := range groups {
		if ctx.Err() != nil {
			return nil
		}
		clusters = append(clusters, newClusterOf(recs, members, u.reasons[root], opts))
		// The cluster holds what it needs of its docs now: let the rest
		// of them go while the next clusters are typed (the documents of
		// a bulk tree are tens of MB).
		for _, i := range members {
			recs[i] = nil
		}
	}
	slices.SortFunc(clusters, func(a, b *Cluster) int {
		return cmp.Or(cmp.Compare(a.Name, b.Name), cmp.Compare(a.Files[0].Path, b.Files[0].Path), cmp.Compare(firstLine(a), firstLine(b)))
	})
	for i := 1; i < len(clusters); i++ {
		if clusters[i].Name == clusters[i-1].Name {
			clusters[i].Name = fmt.Sprintf("%s (%s)", clusters[i].Name, path.Base(clusters[i].Files[0].Path))
		}
	}
	return clusters
}

// newClusterOf builds the cluster of the docs members, grouped for reasons.
func newClusterOf(recs []*Doc, members []int, reasons []string, opts Options) *Cluster {
	c := newCluster(opts)
	c.GroupedBy = slices.Compact(slices.Sorted(slices.Values(reasons)))
	if c.GroupedBy == nil {
		c.GroupedBy = []string{}
	}
	setVersion(c, recs, members, opts)
	c.KafkaRelease = release(c.KafkaVersion)
	for _, i := range members {
		addRecord(c, recs[i], opts)
	}
	setCounts(c, recs, members)
	c.Name = clusterName(c)
	addSupplying(c, recs, members)
	return c
}

// addSupplying lists among the cluster's files those that only supply
// values to its docs (a Terraform module's variables.tf holding a
// default, the module an example calls): a finding may point at them.
// They come after the files that declare the docs and do not name the
// cluster.
func addSupplying(c *Cluster, recs []*Doc, members []int) {
	listed := map[string]bool{}
	for _, f := range c.Files {
		listed[f.Path] = true
	}
	for _, i := range members {
		r := recs[i]
		for _, file := range supplying(r) {
			if !listed[file] {
				listed[file] = true
				c.Files = append(c.Files, &SourceFile{
					Path: file, Kind: r.Kind, Format: r.Format, Environment: r.env, EnvironmentSource: r.envSource,
					Duplicates: []Duplicate{},
				})
			}
		}
	}
}

// supplying are the files other than d.File that a location of d points
// at or that d names as Sources, sorted.
func supplying(d *Doc) []string {
	var out []string
	for _, f := range d.Sources {
		if f != d.File {
			out = append(out, f)
		}
	}
	add := func(l Location) {
		if l.File != "" && l.File != d.File {
			out = append(out, l.File)
		}
	}
	for _, s := range d.Settings {
		add(s.Loc)
	}
	for _, dup := range d.Duplicates {
		for _, l := range dup.Previous {
			add(l)
		}
	}
	for _, s := range d.Platform {
		add(s.Loc)
	}
	for _, n := range []*Count{d.BrokerCount, d.ControllerCount, d.Replicas, d.KafkaVersion} {
		if n != nil {
			add(n.Loc)
		}
	}
	if t := d.Topic; t != nil {
		for _, s := range []*Setting{t.ReplicationFactor, t.Partitions} {
			if s != nil {
				add(s.Loc)
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// firstLine orders clusters declared in one file by where they start.
func firstLine(c *Cluster) int {
	line := 0
	for _, n := range c.Nodes {
		if line == 0 || n.Loc.Line < line {
			line = n.Loc.Line
		}
	}
	for _, t := range c.Topics {
		if line == 0 || t.Loc.Line < line {
			line = t.Loc.Line
		}
	}
	for _, m := range c.MirrorMakers {
		if line == 0 || m.Loc.Line < line {
			line = m.Loc.Line
		}
	}
	for _, cl := range c.Clients {
		if line == 0 || cl.Loc.Line < line {
			line = cl.Loc.Line
		}
	}
	return line
}

func newCluster(opts Options) *Cluster {
	c := &Cluster{
		KafkaVersion: catalog.Newest(), KafkaVersionSource: "default",
		Files: []*SourceFile{}, Nodes: []*Node{}, Clients: []*Client{}, Meta: []*MetaProperties{}, MirrorMakers: []*MirrorMaker{},
		Topics: []*Topic{},
	}
	if opts.KafkaVersion != "" {
		c.KafkaVersion, c.KafkaVersionSource = opts.KafkaVersion, "flag"
	}
	return c
}

// release parses "X.Y" into [X, Y].
func release(version string) []int {
	out := []int{0, 0}
	for i, p := range strings.SplitN(catalog.MajorMinor(version), ".", 2) {
		out[i], _ = strconv.Atoi(p)
	}
	return out
}

// setVersion takes the Kafka version a source states (Strimzi
// spec.kafka.version, MSK kafka_version, an image tag) over --kafka-version:
// the flag is the target for files that do not say.
func setVersion(c *Cluster, recs []*Doc, members []int, _ Options) {
	for _, i := range members {
		if v := recs[i].KafkaVersion; v != nil && catalog.ValidVersion(catalog.MajorMinor(v.Text)) {
			c.KafkaVersion, c.KafkaVersionSource = catalog.MajorMinor(v.Text), "config"
			loc := v.Loc
			c.KafkaVersionLoc = &loc
			return
		}
	}
}

// setCounts records broker and controller counts that a source states, or
// that follow from node entries which all state their replica count.
func setCounts(c *Cluster, recs []*Doc, members []int) {
	for _, i := range members {
		if recs[i].BrokerCount != nil && c.BrokerCount == nil {
			c.BrokerCount = recs[i].BrokerCount
		}
		if recs[i].ControllerCount != nil && c.ControllerCount == nil {
			c.ControllerCount = recs[i].ControllerCount
		}
	}
	if len(c.Nodes) == 0 || slices.ContainsFunc(c.Nodes, func(n *Node) bool { return n.Replicas == nil }) {
		return
	}
	sum := func(pick func(*Node) bool) *Count {
		var total *Count
		for _, n := range c.Nodes {
			if !pick(n) {
				continue
			}
			if total == nil {
				total = &Count{Source: "sum of replicas", Loc: n.Replicas.Loc}
			}
			total.Value += n.Replicas.Value
		}
		return total
	}
	if c.BrokerCount == nil {
		c.BrokerCount = sum(func(n *Node) bool { return n.IsBroker })
	}
	if c.ControllerCount == nil {
		c.ControllerCount = sum(func(n *Node) bool { return n.IsController })
	}
}

// clusterName is the deepest directory holding all of the cluster's files.
func clusterName(c *Cluster) string {
	if len(c.Nodes) == 0 {
		return c.Files[0].Path
	}
	dir := path.Dir(c.Files[0].Path)
	for _, f := range c.Files[1:] {
		for dir != "." && dir != "/" && !strings.HasPrefix(f.Path, dir+"/") {
			dir = path.Dir(dir)
		}
	}
	return dir
}

// addRecord types a record's settings for the cluster's Kafka version and
// adds it to the cluster.
func addRecord(c *Cluster, r *Doc, opts Options) {
	c.Files = append(c.Files, &SourceFile{
		Path: r.File, Kind: r.Kind, Format: r.Format, Environment: r.env, EnvironmentSource: r.envSource, Template: r.Template,
		WholeConfiguration: r.wholeConfiguration(),
		Duplicates:         nonNil(r.Duplicates),
	})
	version := c.KafkaVersion
	switch r.Kind {
	case KindNode:
		n := r.node
		c.typeSettings(opts, func() {
			n.Settings = typedSettings(r, version, []string{catalog.Broker}, opts.DefaultKeys[catalog.Broker])
			n.FlaggedKeys = flaggedKeys(n.Settings)
		})
		c.Nodes = append(c.Nodes, n)
	case KindClient:
		scopes := clientScopes(r.ClientKind)
		cl := &Client{File: r.File, Environment: r.env, Loc: r.Loc, Kind: r.ClientKind, BootstrapServers: []Endpoint{}}
		if s, ok := r.get("bootstrap.servers"); ok && !isPlaceholder(s.Value) {
			for _, e := range splitList(s.Value) {
				if ep, msg := parseHostPort(e); msg == "" {
					ep.Loc = s.Loc
					cl.BootstrapServers = append(cl.BootstrapServers, ep)
				}
			}
		}
		var defaults []string
		if r.ClientKind != "client" { // a file mixing roles gets no guessed defaults
			defaults = opts.DefaultKeys[scopes[0]]
		}
		c.typeSettings(opts, func() {
			cl.Settings = typedSettings(r, version, scopes, defaults)
			cl.FlaggedKeys = flaggedKeys(cl.Settings)
		})
		c.Clients = append(c.Clients, cl)
	case KindMeta:
		c.Meta = append(c.Meta, &MetaProperties{File: r.File, Environment: r.env, NodeFile: r.metaNode, Settings: typedSettings(r, version, nil, nil)})
	case KindMirrorMaker:
		mm := &MirrorMaker{File: r.File, Environment: r.env, Clusters: []string{}}
		if s, ok := r.get("clusters"); ok {
			mm.Clusters = splitList(s.Value)
		}
		mm.Settings = typedSettings(r, version, []string{catalog.Mirror}, opts.DefaultKeys[catalog.Mirror])
		mm.FlaggedKeys = flaggedKeys(mm.Settings)
		buildMirror(mm, r)
		c.MirrorMakers = append(c.MirrorMakers, mm)
	case KindTopic:
		t := r.Topic
		t.File, t.Environment = r.File, r.env
		if t.Loc.File == "" {
			t.Loc = r.Loc
		}
		t.Settings = typedSettings(r, version, []string{catalog.Topic}, nil)
		t.FlaggedKeys = flaggedKeys(t.Settings)
		c.Topics = append(c.Topics, t)
	}
}

// typeSettings runs typeIt, which types a unit's settings, now or, with
// Options.TypeLater, when the cluster is typed (Cluster.Type). Nodes and
// clients are most of a tree's settings; the other units are typed now,
// since building them reads their typed settings (buildMirror).
func (c *Cluster) typeSettings(opts Options, typeIt func()) {
	if opts.TypeLater {
		c.untyped = append(c.untyped, typeIt)
		return
	}
	typeIt()
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

func clientScopes(kind string) []string {
	switch kind {
	case "producer":
		return []string{catalog.Producer, catalog.Admin}
	case "consumer":
		return []string{catalog.Consumer, catalog.Admin}
	case "admin":
		return []string{catalog.Admin}
	}
	return []string{catalog.Producer, catalog.Consumer, catalog.Admin}
}

// metaTypes are the typed fields of meta.properties.
var metaTypes = map[string]string{"version": "int", "node.id": "int", "broker.id": "int"}

// flaggedKeys are the keys of the settings with a verdict a rule reports
// (unknown-key, removed-key, invalid-value, inline-secret), sorted: an
// unknown or removed key, an invalid value or a secret key. Those rules
// read only these instead of every setting of every unit, for the few
// settings in a hundred that have one (the four rules were 9.5 % of a
// .properties lint's instructions on the separate bench tree).
func flaggedKeys(settings map[string]*Setting) []string {
	var keys []string
	for key, s := range settings {
		if s.KeyStatus == KeyUnknown || s.KeyStatus == KeyRemoved || s.Invalid != "" || s.SecretKey {
			keys = append(keys, key)
		}
	}
	slices.Sort(keys)
	return keys
}

// typedSettings types every explicit setting and adds the documented
// default of each key in defaults that the file does not set.
func typedSettings(r *Doc, version string, scopes []string, defaults []string) map[string]*Setting {
	out := make(map[string]*Setting, len(r.Settings)+len(defaults))
	for _, s := range r.Settings {
		typ := typeOf(version, scopes, s.Key)
		if r.Kind == KindMeta {
			typ = cmp.Or(metaTypes[s.Key], "string")
		}
		out[s.Key] = newSetting(s.Key, s.Value, typ, SourceExplicit, s.Loc)
		out[s.Key].setOrigin(s.Origin)
		out[s.Key].Sensitive = out[s.Key].Sensitive || s.Sensitive
		if s.Unknown {
			out[s.Key].Value, out[s.Key].Unknown, out[s.Key].Invalid = nil, true, ""
			if s.Expr != "" {
				out[s.Key].Raw = s.Expr
			}
		}
	}
	for _, key := range defaults {
		if slices.Contains(r.ManagedKeys, key) {
			continue // the platform sets it; Kafka's default is not what runs
		}
		if _, ok := out[key]; ok || len(scopes) == 0 {
			continue
		}
		if d, ok := catalog.Default(version, scopes[0], key); ok {
			out[key] = newSetting(key, d, typeOf(version, scopes, key), SourceDefault, r.Loc)
		}
	}
	annotate(r, version, out)
	return out
}

// typeOf returns a key's ConfigDef type: from the cluster's version, else
// from any cataloged version (keys removed in newer Kafka keep their type),
// else "string".
func typeOf(version string, scopes []string, key string) string {
	for _, s := range scopes {
		if k, ok := catalog.Lookup(version, s, key); ok {
			return k.Type
		}
	}
	vs := catalog.Versions()
	for i := len(vs) - 1; i >= 0; i-- {
		for _, s := range scopes {
			if k, ok := catalog.Lookup(vs[i], s, key); ok {
				return k.Type
			}
		}
	}
	return "string"
}

func newSetting(key, raw, typ, source string, loc Location) *Setting {
	s := &Setting{Key: key, Raw: raw, Type: typ, Source: source, Loc: loc}
	s.markSecret()
	if isPlaceholder(raw) {
		s.Unknown = true
		return s
	}
	s.Value, s.Invalid = typedValue(typ, raw)
	return s
}

// parseJavaDouble parses s as Java's Double.parseDouble, which ConfigDef
// uses for a DOUBLE (s is trimmed): a decimal or hexadecimal (0x...p...)
// number with an optional sign and an optional f, F, d or D suffix, or
// exactly NaN or Infinity. Go's ParseFloat differs: it takes inf, Inf and
// nan, and digits separated by underscores, which Java refuses, and it
// refuses the suffixes.
func parseJavaDouble(s string) (float64, bool) {
	body := strings.TrimLeft(s, "+-")
	if len(s)-len(body) > 1 || strings.Contains(s, "_") {
		return 0, false
	}
	switch body {
	case "NaN":
		return math.NaN(), true
	case "Infinity":
		if s[0] == '-' {
			return math.Inf(-1), true
		}
		return math.Inf(1), true
	}
	if l := strings.ToLower(body); strings.HasPrefix(l, "inf") || strings.HasPrefix(l, "nan") {
		return 0, false // Go's spellings, which Java refuses
	}
	if strings.ContainsAny(body[max(len(body)-1, 0):], "fFdD") {
		if hex := strings.HasPrefix(body, "0x") || strings.HasPrefix(body, "0X"); !hex || strings.ContainsAny(body, "pP") {
			s = s[:len(s)-1] // a hex digit d or f is no suffix without the p exponent
		}
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return 0, false
	}
	return f, true
}

// javaTrimmed is what Java's String.trim removes from the ends of a value
// (ConfigDef.parseType trims every value): every character up to U+0020,
// control characters included, and no other space (U+00A0 stays, and
// Kafka refuses a number that ends with one).
func javaTrimmed(r rune) bool { return r <= ' ' }

// typedValue parses raw as ConfigDef would for typ. On failure it returns a
// nil value and the reason.
func typedValue(typ, raw string) (value any, invalid string) {
	v := strings.TrimFunc(raw, javaTrimmed)
	switch typ {
	case "boolean":
		switch strings.ToLower(v) {
		case "true":
			return true, ""
		case "false":
			return false, ""
		}
		return nil, fmt.Sprintf("%q is not a boolean (true or false)", v)
	case "int", "short", "long":
		bits := map[string]int{"int": 32, "short": 16, "long": 64}[typ]
		n, err := strconv.ParseInt(v, 10, bits)
		if err != nil {
			return nil, fmt.Sprintf("%q is not a valid %s", v, typ)
		}
		return n, ""
	case "double":
		f, ok := parseJavaDouble(v)
		if !ok {
			return nil, fmt.Sprintf("%q is not a number", v)
		}
		if math.IsNaN(f) || math.IsInf(f, 0) {
			// Kafka takes NaN and Infinity; the rules' input (JSON) has
			// no such number, so the setting has no value for them.
			return nil, ""
		}
		return f, ""
	case "list":
		return splitList(v), ""
	}
	return v, ""
}
