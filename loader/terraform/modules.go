package terraform

import (
	"fmt"
	"path"
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/kafkalint/kafkalint/loader/doc"
)

// moduleBrokers reads a call of a well-known MSK module: the module's
// inputs say what its aws_msk_cluster and aws_msk_configuration will be.
//
// terraform-aws-modules/msk-kafka-cluster/aws: configuration_server_properties
// (map, rendered as "k = v" lines), number_of_broker_nodes, kafka_version,
// broker_node_client_subnets, create / create_configuration /
// configuration_arn, tags, topics (aws_msk_topic per entry).
// cloudposse/msk-apache-kafka-cluster/aws: properties (map), broker_per_zone
// (default 1) × length(subnet_ids), kafka_version, tags, enabled.
func (m *module) moduleBrokers(c *moduleCall, res *Result) {
	kind := knownModule(c.source)
	if kind == "" {
		return
	}
	ctx := m.ctx(c.src)
	for _, in := range m.expand("module."+c.name, c.attrs, ctx) {
		ictx := instanceCtx(ctx, in)
		u := &unit{id: m.unitID("module", c.name, in.addr, c.src)}
		arg := func(name string) (cty.Value, *hcl.Attribute) {
			if a, ok := c.attrs[name]; ok {
				return m.eval(a.Expr, ictx, 0), a
			}
			return cty.NilVal, nil
		}
		boolArg := func(name string, def bool) (value, known bool) {
			v, a := arg(name)
			if a == nil {
				return def, true
			}
			v, _ = v.UnmarkDeep()
			v, err := convert.Convert(v, cty.Bool)
			if err != nil || !v.IsKnown() {
				return false, false
			}
			if v.IsNull() {
				return def, true
			}
			return v.True(), true
		}
		var topics []*Topic
		b := &Brokers{
			Address: in.addr, Source: "module " + kind, File: c.src.name, Loc: m.pos(c.block.DefRange), Group: u.group(m),
			Properties: Properties{Entries: []doc.Setting{}}, UnknownMultiplicity: in.unknown,
		}
		var propsArg string
		switch kind {
		case moduleAWS:
			if create, known := boolArg("create", true); known && !create {
				continue
			}
			if create, known := boolArg("create_configuration", true); !known || !create {
				b.ConfigurationUnknown = true // an external configuration_arn, or unknown
			} else {
				propsArg = "configuration_server_properties"
			}
			b.BrokerCount = m.number(c.attrs["number_of_broker_nodes"], ictx, kind+" number_of_broker_nodes")
			b.Zones = m.length(c.attrs["broker_node_client_subnets"], ictx, "broker_node_client_subnets")
			for _, name := range []string{"encryption_in_transit_client_broker", "encryption_in_transit_in_cluster", "encryption_at_rest_kms_key_arn", "client_authentication", "broker_node_instance_type", "broker_node_connectivity_info"} {
				if v, a := arg(name); a != nil {
					b.Attributes = append(b.Attributes, m.flattenValue(name, v, a)...)
				}
			}
			if v, a := arg("topics"); a != nil {
				topics = m.moduleTopics(in.addr, b.Group, c, v, a, ictx)
			}
		case moduleCloudPosse:
			if enabled, known := boolArg("enabled", true); known && !enabled {
				continue
			}
			propsArg = "properties"
			b.BrokerCount = m.number(c.attrs["number_of_broker_nodes"], ictx, kind+" number_of_broker_nodes")
			subnets := "subnet_ids"
			if _, ok := c.attrs[subnets]; !ok {
				subnets = "client_subnets"
			}
			b.Zones = m.length(c.attrs[subnets], ictx, subnets)
			if b.BrokerCount == nil && b.Zones != nil {
				perZone, at := 1, b.Zones.Loc // the module's default: one broker per zone
				if a, ok := c.attrs["broker_per_zone"]; ok {
					perZone, at = 0, m.pos(a.Expr.Range())
					if n, ok := intOf(m.eval(a.Expr, ictx, 0)); ok {
						perZone = n
					}
				}
				if perZone > 0 {
					b.BrokerCount = &doc.Count{
						Value: perZone * b.Zones.Value, Loc: at,
						Text:   fmt.Sprintf("broker_per_zone (%d) × length(%s) (%d)", perZone, subnets, b.Zones.Value),
						Source: kind + " broker_per_zone × length(" + subnets + ")",
					}
				}
			}
			for _, name := range []string{"client_broker", "encryption_in_cluster", "encryption_at_rest_kms_key_arn", "client_allow_unauthenticated", "client_sasl_scram_enabled", "client_sasl_iam_enabled", "client_tls_auth_enabled", "public_access_enabled"} {
				if v, a := arg(name); a != nil {
					b.Attributes = append(b.Attributes, m.flattenValue(name, v, a)...)
				}
			}
		}
		if propsArg != "" {
			if v, a := arg(propsArg); a != nil {
				b.Configuration = in.addr + "." + propsArg
				b.Properties, b.PropertiesErr = m.mapProperties(v, a.Expr)
			}
		}
		b.KafkaVersion = m.value(c.attrs["kafka_version"], ictx)
		b.Sources = m.sourcesOf(b.File, ictx, c.attrs["number_of_broker_nodes"], c.attrs["broker_per_zone"], c.attrs["kafka_version"])
		b.Environment = m.environment(c.attrs["tags"], ictx)
		for _, t := range topics {
			t.Environment = b.Environment // the module's topics are the cluster's
		}
		res.Brokers = append(res.Brokers, b)
		res.Topics = append(res.Topics, topics...)
	}
}

// flattenValue lists an object-valued input as dotted paths.
func (m *module) flattenValue(prefix string, v cty.Value, a *hcl.Attribute) []doc.Setting {
	plain, _ := v.Unmark()
	if plain.IsKnown() && !plain.IsNull() && plain.Type().IsObjectType() {
		var out []doc.Setting
		for it := plain.ElementIterator(); it.Next(); {
			k, e := it.Element()
			out = append(out, m.flattenValue(prefix+"."+k.AsString(), e, a)...)
		}
		return out
	}
	if plain.IsKnown() && plain.IsNull() {
		return nil
	}
	return []doc.Setting{m.property(prefix, v, a.Expr, m.pos(a.Expr.Range()))}
}

// moduleTopics reads the topics input of terraform-aws-modules: an
// aws_msk_topic per entry (name = coalesce(name, key), partition_count,
// replication_factor, configs as a JSON string).
func (m *module) moduleTopics(addr, group string, c *moduleCall, v cty.Value, a *hcl.Attribute, _ *hcl.EvalContext) []*Topic {
	plain, _ := v.Unmark()
	if !plain.IsKnown() || plain.IsNull() || !isMapLike(plain) {
		return nil
	}
	var out []*Topic
	for it := plain.ElementIterator(); it.Next(); {
		k, e := it.Element()
		entry, marks := e.Unmark()
		p := m.pos(a.Expr.Range())
		if o := originOf(marks); o != nil {
			p = o.pos
		}
		t := &Topic{
			Address: fmt.Sprintf("%s.aws_msk_topic.this[%q]", addr, k.AsString()), Source: "module " + knownModule(c.source) + " topics",
			File: p.File, Loc: p, Group: group, Config: Properties{Entries: []doc.Setting{}},
			Name: Value{Text: k.AsString(), Loc: p},
		}
		attr := func(name string) (cty.Value, bool) {
			if !entry.IsKnown() || entry.IsNull() || !entry.Type().IsObjectType() || !entry.Type().HasAttribute(name) {
				return cty.NilVal, false
			}
			return entry.GetAttr(name), true
		}
		if n, ok := attr("name"); ok {
			if nv := m.valueOf(n, a.Expr); nv != nil && !nv.Unknown {
				t.Name = *nv
			}
		}
		if rf, ok := attr("replication_factor"); ok {
			t.ReplicationFactor = m.valueOf(rf, a.Expr)
		}
		if pc, ok := attr("partition_count"); ok {
			t.Partitions = m.valueOf(pc, a.Expr)
		}
		if cfg, ok := attr("configs"); ok {
			t.Config = m.configValue(cfg, a.Expr)
		}
		out = append(out, t)
	}
	return out
}

// topic reads a topic resource instance.
func (m *module) topic(u *unit) *Topic {
	t := &Topic{
		Address: u.addr, Source: u.typ, File: u.src.name, Loc: u.pos, UnknownMultiplicity: u.inst.unknown,
		Config: Properties{Entries: []doc.Setting{}},
	}
	first := func(names ...string) *hcl.Attribute {
		for _, n := range names {
			if a, ok := u.attrs[n]; ok {
				return a
			}
		}
		return nil
	}
	name := func(names ...string) {
		if v := m.value(first(names...), u.ctx); v != nil {
			t.Name = *v
		} else {
			t.Name = Value{Text: u.addr, Unknown: true, Loc: u.pos}
		}
	}
	switch u.typ {
	case typeKafkaTopic: // Mongey/kafka (partitions, config) and travisjeffery/kafka (num_partitions, config_entries)
		name("name")
		t.ReplicationFactor = m.value(first("replication_factor"), u.ctx)
		t.Partitions = m.value(first("partitions", "num_partitions"), u.ctx)
		t.Config = m.configMap(first("config", "config_entries"), u.ctx)
		t.Group = m.providerGroup(u, "kafka", "bootstrap_servers", "brokers", "hosts")
	case typeConfluentTopic:
		name("topic_name")
		t.ReplicationFactor = &Value{Text: strconv.Itoa(confluentReplicationFactor), Loc: u.pos}
		t.RFFixed = true
		t.Partitions = m.value(first("partitions_count"), u.ctx)
		t.Config = m.configMap(first("config"), u.ctx)
		t.Group = m.providerGroup(u, "confluent")
		for _, kc := range blocks(u.body, "kafka_cluster") {
			if id, ok := attributes(kc.Body)["id"]; ok {
				v := m.eval(id.Expr, u.ctx, 0)
				if refs := refsIn(v); len(refs) == 1 {
					t.Group = m.groupOf(refs[0])
				} else if s := m.value(id, u.ctx); s != nil && !s.Unknown {
					t.Group = "confluent cluster " + s.Text
				}
			}
		}
	case typeMSKTopic:
		name("name")
		t.ReplicationFactor = m.value(first("replication_factor"), u.ctx)
		t.Partitions = m.value(first("partition_count"), u.ctx)
		t.Config = m.configMap(first("configs"), u.ctx)
		t.Group = m.groupOf(u.id)
		if a := first("cluster_arn"); a != nil {
			if refs := refsIn(m.eval(a.Expr, u.ctx, 0)); len(refs) == 1 {
				t.Group = m.groupOf(refs[0])
			}
		}
	}
	t.Environment = m.environment(nil, u.ctx)
	return t
}

// providerGroup names the cluster a topic's provider configuration talks
// to: the MSK cluster its bootstrap servers come from, else the provider
// configuration itself (every topic of one provider configuration is on
// one cluster).
func (m *module) providerGroup(u *unit, local string, serverAttrs ...string) string {
	addr := local
	if a, ok := u.attrs["provider"]; ok {
		if t, diags := hcl.AbsTraversalForExpr(a.Expr); !diags.HasErrors() {
			var parts []string
			parts = append(parts, t.RootName())
			for _, step := range t[1:] {
				if at, ok := step.(hcl.TraverseAttr); ok {
					parts = append(parts, at.Name)
				}
			}
			addr = strings.Join(parts, ".")
		}
	}
	name, alias, _ := strings.Cut(addr, ".")
	var candidates []*provider
	for _, p := range m.providers {
		if p.name == name && p.alias == alias {
			candidates = append(candidates, p)
		}
	}
	p, ok := resolve(candidates, u.src, func(p *provider) *source { return p.src })
	group := m.groupOf(m.prefix + "provider." + addr)
	if !ok {
		return group
	}
	if len(candidates) > 1 {
		group += " (" + path.Base(p.src.name) + ")"
	}
	for _, attr := range serverAttrs {
		if a, ok := p.attrs[attr]; ok {
			if refs := refsIn(m.eval(a.Expr, m.ctx(p.src), 0)); len(refs) == 1 {
				return m.groupOf(refs[0])
			}
		}
	}
	return group
}
