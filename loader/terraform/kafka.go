package terraform

import (
	"cmp"
	"math/big"
	"path"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	"github.com/zclconf/go-cty/cty/function/stdlib"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/kafkalint/kafkalint/loader/doc"
)

// Load reads one module directory's files.
func Load(files []File, opts Options) (res *Result) {
	m := parse(files, opts)
	res = &Result{Brokers: []*Brokers{}, Topics: []*Topic{}, Errors: m.errors, Comments: m.comments}
	if res.Errors == nil {
		res.Errors = []*doc.Error{}
	}
	m.run(res)
	if m.budget.notice != nil {
		res.Errors = append(res.Errors, m.budget.notice)
	}
	for name, cs := range res.Comments {
		slices.SortFunc(cs, func(a, b doc.Comment) int { return cmp.Compare(a.Line, b.Line) })
		res.Comments[name] = slices.CompactFunc(cs, func(a, b doc.Comment) bool { return a == b })
	}
	slices.SortFunc(res.Brokers, func(a, b *Brokers) int {
		return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Loc.Line, b.Loc.Line), cmp.Compare(a.Address, b.Address), cmp.Compare(a.Group, b.Group))
	})
	slices.SortFunc(res.Topics, func(a, b *Topic) int {
		return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Loc.Line, b.Loc.Line), cmp.Compare(a.Address, b.Address))
	})
	return res
}

// Resource types and module sources this package understands.
const (
	typeMSKConfiguration = "aws_msk_configuration"
	typeMSKCluster       = "aws_msk_cluster"
	typeConfluentCluster = "confluent_kafka_cluster"
	typeKafkaTopic       = "kafka_topic"
	typeConfluentTopic   = "confluent_kafka_topic"
	typeMSKTopic         = "aws_msk_topic"

	moduleAWS        = "terraform-aws-modules/msk-kafka-cluster/aws"
	moduleCloudPosse = "cloudposse/msk-apache-kafka-cluster/aws"
)

// confluentReplicationFactor is the replication factor Confluent Cloud
// uses for every topic (it cannot be changed).
const confluentReplicationFactor = 3

// knownModule names a module source this package understands, from its
// registry address or its GitHub repository (any ref or subdirectory).
func knownModule(source string) string {
	s := strings.ToLower(strings.TrimSpace(source))
	s = strings.TrimPrefix(s, "git::")
	for _, p := range []string{"https://", "http://", "ssh://", "git@"} {
		s = strings.TrimPrefix(s, p)
	}
	s = strings.Replace(s, "github.com:", "github.com/", 1)
	for _, p := range []string{"registry.terraform.io/", "github.com/"} {
		s = strings.TrimPrefix(s, p)
	}
	s, _, _ = strings.Cut(s, "?")
	s, _, _ = strings.Cut(s, "//")
	s = strings.TrimSuffix(s, ".git")
	switch s {
	case moduleAWS, "terraform-aws-modules/terraform-aws-msk-kafka-cluster":
		return moduleAWS
	case moduleCloudPosse, "cloudposse/terraform-aws-msk-apache-kafka-cluster":
		return moduleCloudPosse
	}
	return ""
}

// unit is one instance of a resource or module block.
type unit struct {
	id   string // unique in the module: address, plus the file when a directory repeats it
	addr string
	typ  string
	src  *source
	pos  doc.Location
	body hcl.Body
	// attrs are the block's attributes.
	attrs hcl.Attributes
	inst  instance
	ctx   *hcl.EvalContext
}

func (u *unit) group(m *module) string { return m.groupOf(u.id) }

// setup evaluates locals, then the resources and modules that others
// reference, then locals again with those references available.
func (m *module) setup() {
	m.evalLocals()
	m.linkables = map[string]map[string]*instanceSet{}
	for _, r := range m.resources {
		if r.typ != typeMSKConfiguration && r.typ != typeMSKCluster && r.typ != typeConfluentCluster {
			continue
		}
		insts := m.expand(r.typ+"."+r.name, r.attrs, m.expandCtx(r.attrs, r.src))
		id := func(in instance) string { return m.unitID(r.typ, r.name, in.addr, r.src) }
		if m.linkables[r.typ] == nil {
			m.linkables[r.typ] = map[string]*instanceSet{}
		}
		m.linkables[r.typ][r.name] = &instanceSet{src: r.src, value: m.setValue(r.typ, r.name, insts, id)}
	}
	for _, c := range m.calls {
		kind := knownModule(c.source)
		if kind == "" {
			continue
		}
		insts := m.expand("module."+c.name, c.attrs, m.expandCtx(c.attrs, c.src))
		id := func(in instance) string { return m.unitID("module", c.name, in.addr, c.src) }
		if m.linkables["module"] == nil {
			m.linkables["module"] = map[string]*instanceSet{}
		}
		m.linkables["module"][c.name] = &instanceSet{src: c.src, value: m.setValue("module", c.name, insts, id)}
	}
	m.passthrough = m.passValues()
	for _, defs := range m.locals {
		for _, l := range defs {
			l.value = valueCache{}
		}
	}
	m.evalLocals()
	m.ctxs = map[*source]*hcl.EvalContext{}
}

// passValues are the attributes, as written, of the resources of other
// types that expressions refer to (random_id.x.keepers, a null_resource's
// triggers): Terraform stores an argument's value as the attribute, so a
// reference to a literal expression of known values is that value. The
// attributes the provider computes (random_id.x.hex) stay unknown.
// References among such resources are followed one level deep; resources
// with count or for_each, or declared in several files, are left unknown.
func (m *module) passValues() map[string]map[string]cty.Value {
	referenced := map[[2]string][]string{} // the attributes each resource's references name
	for _, t := range m.traversals {
		if len(t) > 1 {
			if a, ok := t[1].(hcl.TraverseAttr); ok {
				key := [2]string{t.RootName(), a.Name}
				referenced[key] = append(referenced[key], "")
				if len(t) > 2 {
					if attr, ok := t[2].(hcl.TraverseAttr); ok {
						referenced[key] = append(referenced[key], attr.Name)
					}
				}
			}
		}
	}
	out := map[string]map[string]cty.Value{}
	for _, r := range m.resources {
		_, count := r.attrs["count"]
		_, forEach := r.attrs["for_each"]
		if m.linkables[r.typ] != nil || count || forEach || referenced[[2]string{r.typ, r.name}] == nil || m.addresses(r.typ, r.name) != 1 {
			continue
		}
		ctx := m.ctx(r.src)
		obj := map[string]cty.Value{}
		for _, name := range referenced[[2]string{r.typ, r.name}] {
			if name != "" {
				obj[name] = cty.DynamicVal // computed by the provider, unless written below
			}
		}
		for _, a := range sortedAttrs(r.attrs) {
			if a.Name != "provider" && a.Name != "depends_on" {
				obj[a.Name] = m.evalAttr(a.Expr, ctx)
			}
		}
		if out[r.typ] == nil {
			out[r.typ] = map[string]cty.Value{}
		}
		out[r.typ][r.name] = cty.ObjectVal(obj)
	}
	return out
}

// expandCtx is the context count or for_each is evaluated in during setup
// (nil without either: building one per block cost the square of their
// number).
func (m *module) expandCtx(attrs hcl.Attributes, s *source) *hcl.EvalContext {
	_, count := attrs["count"]
	_, forEach := attrs["for_each"]
	if !count && !forEach {
		return nil
	}
	return m.buildCtx(s)
}

func (m *module) unitID(typ, name, addr string, src *source) string {
	if m.addresses(typ, name) > 1 {
		return addr + " (" + path.Base(src.name) + ")"
	}
	return addr
}

// units lists the instances of every resource of a type.
func (m *module) resourceUnits(typ string) []*unit {
	var out []*unit
	for _, r := range m.resources {
		if r.typ != typ {
			continue
		}
		ctx := m.ctx(r.src)
		for _, in := range m.expand(r.typ+"."+r.name, r.attrs, ctx) {
			u := &unit{
				id: m.unitID(r.typ, r.name, in.addr, r.src), addr: in.addr, typ: r.typ, src: r.src,
				pos: m.pos(r.block.DefRange), body: r.block.Body, attrs: r.attrs, inst: in, ctx: instanceCtx(ctx, in),
			}
			out = append(out, u)
		}
	}
	return out
}

func (m *module) extract(res *Result) {
	configs := map[string]*unit{} // by id
	var configOrder []*unit
	for _, u := range m.resourceUnits(typeMSKConfiguration) {
		configs[u.id] = u
		configOrder = append(configOrder, u)
	}
	used := map[string]bool{}
	propsCache := map[string]*Brokers{}
	configProps := func(u *unit) *Brokers {
		if b, ok := propsCache[u.id]; ok {
			return b
		}
		b := &Brokers{Properties: Properties{Entries: []doc.Setting{}}}
		if a, ok := u.attrs["server_properties"]; ok {
			b.Properties, b.PropertiesErr = m.serverProperties(a.Expr, u.ctx, res)
		}
		propsCache[u.id] = b
		return b
	}
	for _, u := range m.resourceUnits(typeMSKCluster) {
		b := &Brokers{
			Address: u.addr, Source: typeMSKCluster, File: u.src.name, Loc: u.pos, Group: u.group(m),
			Properties: Properties{Entries: []doc.Setting{}}, UnknownMultiplicity: u.inst.unknown,
		}
		ci := blocks(u.body, "configuration_info")
		switch {
		case len(ci) == 0 && hasDynamic(u.body, "configuration_info"):
			b.ConfigurationUnknown = true
		case len(ci) > 0:
			arn, ok := attributes(ci[0].Body)["arn"]
			var cfg *unit
			if ok {
				if refs := refsIn(m.eval(arn.Expr, u.ctx, 0)); len(refs) == 1 {
					cfg = configs[refs[0]]
				}
			}
			if cfg == nil {
				b.ConfigurationUnknown = true
				break
			}
			used[cfg.id] = true
			p := configProps(cfg)
			b.Configuration, b.File, b.Loc = cfg.addr, cfg.src.name, cfg.pos
			b.Properties, b.PropertiesErr = p.Properties, p.PropertiesErr
		}
		b.BrokerCount = m.number(u.attrs["number_of_broker_nodes"], u.ctx, typeMSKCluster+".number_of_broker_nodes")
		b.KafkaVersion = m.value(u.attrs["kafka_version"], u.ctx)
		b.Sources = m.sourcesOf(b.File, u.ctx, u.attrs["number_of_broker_nodes"], u.attrs["kafka_version"])
		b.Environment = m.environment(u.attrs["tags"], u.ctx)
		b.Attributes = m.flatten(u.body, u.ctx, "encryption_info", "client_authentication", "broker_node_group_info")
		for _, g := range blocks(u.body, "broker_node_group_info") {
			b.Zones = m.length(attributes(g.Body)["client_subnets"], u.ctx, "broker_node_group_info.client_subnets")
		}
		res.Brokers = append(res.Brokers, b)
	}
	for _, u := range configOrder {
		if used[u.id] {
			continue
		}
		p := configProps(u)
		b := &Brokers{
			Address: u.addr, Source: typeMSKConfiguration, File: u.src.name, Loc: u.pos, Group: u.group(m),
			Properties: p.Properties, PropertiesErr: p.PropertiesErr, UnknownMultiplicity: u.inst.unknown,
		}
		if a, ok := u.attrs["kafka_versions"]; ok {
			if v, _ := m.eval(a.Expr, u.ctx, 0).UnmarkDeep(); v.IsWhollyKnown() && !v.IsNull() && v.CanIterateElements() && v.LengthInt() == 1 {
				it := v.ElementIterator()
				it.Next()
				if _, e := it.Element(); e.Type() == cty.String {
					b.KafkaVersion = &Value{Text: e.AsString(), Loc: m.pos(a.Expr.Range())}
				}
			}
		}
		b.Environment = m.environment(nil, u.ctx)
		res.Brokers = append(res.Brokers, b)
	}
	for _, c := range m.calls {
		m.moduleBrokers(c, res)
	}
	for _, typ := range []string{typeKafkaTopic, typeConfluentTopic, typeMSKTopic} {
		for _, u := range m.resourceUnits(typ) {
			res.Topics = append(res.Topics, m.topic(u))
		}
	}
}

// serverProperties renders and parses a server_properties expression.
func (m *module) serverProperties(expr hcl.Expression, ctx *hcl.EvalContext, res *Result) (Properties, *doc.Error) {
	if v, _ := m.eval(expr, ctx, 0).Unmark(); v.IsKnown() && v.IsNull() {
		return Properties{Entries: []doc.Setting{}}, nil
	}
	b := m.newText()
	m.textOf(expr, ctx, b)
	props, comments, err := b.parse("server_properties", m.pos(expr.Range()))
	for file, cs := range comments {
		res.Comments[file] = append(res.Comments[file], cs...)
	}
	return props, err
}

// mapProperties renders a map of keys to values as the MSK modules do
// (join("\n", [for k, v in map : format("%s = %s", k, v)])), each line at
// its map entry.
func (m *module) mapProperties(v cty.Value, expr hcl.Expression) (Properties, *doc.Error) {
	b := m.newText()
	plain, marks := v.Unmark()
	switch {
	case plain.IsKnown() && plain.IsNull():
		return Properties{Entries: []doc.Setting{}}, nil
	case !plain.IsKnown() || !isMapLike(plain):
		m.valueText(v, expr, b)
		return mustParse(b, m.pos(expr.Range()))
	}
	base := m.pos(expr.Range())
	if o := originOf(marks); o != nil {
		base = o.pos
	}
	first := true
	for it := plain.ElementIterator(); it.Next(); {
		k, e := it.Element()
		if !first {
			b.addValue("\n", nil, base)
		}
		first = false
		plainE, eMarks := e.UnmarkDeep()
		at := base
		text := m.exprText(expr)
		if o := originOf(eMarks); o != nil {
			at = o.pos
			if o.expr != "" {
				text = o.expr
			}
		}
		b.addValue(k.AsString()+" = ", nil, at)
		s, err := convert.Convert(plainE, cty.String)
		if err != nil || !s.IsKnown() || s.IsNull() || strings.Contains(s.AsString(), refPrefix) {
			b.addUnknown(text, at)
			continue
		}
		b.addMarked(s.AsString(), nil, at, isSensitive(marks) || isSensitive(eMarks))
	}
	return mustParse(b, base)
}

func mustParse(b *textBuilder, fallback doc.Location) (Properties, *doc.Error) {
	props, _, err := b.parse("server properties", fallback)
	return props, err
}

// sourcesOf are the files other than file that the values of attrs are
// written in (their origins: a variable's default, a tfvars assignment, a
// local), sorted.
func (m *module) sourcesOf(file string, ctx *hcl.EvalContext, attrs ...*hcl.Attribute) []string {
	var out []string
	for _, a := range attrs {
		if a == nil {
			continue
		}
		_, marks := m.eval(a.Expr, ctx, 0).UnmarkDeep()
		for mk := range marks {
			if o, ok := mk.(*origin); ok && o.pos.File != "" && o.pos.File != file {
				out = append(out, o.pos.File)
			}
		}
		if a.Range.Filename != file {
			out = append(out, a.Range.Filename)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// number evaluates a whole-number attribute.
func (m *module) number(a *hcl.Attribute, ctx *hcl.EvalContext, source string) *doc.Count {
	if a == nil {
		return nil
	}
	v := m.eval(a.Expr, ctx, 0)
	n, ok := intOf(v)
	if !ok {
		return nil
	}
	c := &doc.Count{Value: n, Text: m.exprText(a.Expr), Source: source, Loc: m.pos(a.Expr.Range())}
	if _, marks := v.UnmarkDeep(); originOf(marks) != nil && originOf(marks).input {
		c.Loc = originOf(marks).pos // the module call's argument
	}
	return c
}

func intOf(v cty.Value) (int, bool) {
	v, _ = v.UnmarkDeep()
	n, err := convert.Convert(v, cty.Number)
	if err != nil || !n.IsKnown() || n.IsNull() {
		return 0, false
	}
	bf := n.AsBigFloat()
	if !bf.IsInt() || bf.Cmp(big.NewFloat(1<<31)) >= 0 || bf.Sign() < 0 {
		return 0, false
	}
	i, _ := bf.Int64()
	return int(i), true
}

// length is the number of elements of a list attribute, when known.
func (m *module) length(a *hcl.Attribute, ctx *hcl.EvalContext, source string) *doc.Count {
	if a == nil {
		return nil
	}
	v, _ := m.eval(a.Expr, ctx, 0).Unmark()
	if !v.IsKnown() || v.IsNull() || !v.CanIterateElements() {
		return nil
	}
	return &doc.Count{Value: v.LengthInt(), Text: m.exprText(a.Expr), Source: source, Loc: m.pos(a.Expr.Range())}
}

// value evaluates a scalar attribute to text; unknown values keep their
// expression text.
func (m *module) value(a *hcl.Attribute, ctx *hcl.EvalContext) *Value {
	if a == nil {
		return nil
	}
	return m.valueOf(m.eval(a.Expr, ctx, 0), a.Expr)
}

func (m *module) valueOf(v cty.Value, expr hcl.Expression) *Value {
	plain, marks := v.UnmarkDeep()
	p := m.pos(expr.Range())
	text := m.exprText(expr)
	if o := originOf(marks); o != nil && o.depth > 0 {
		p = o.pos
		if o.expr != "" {
			text = o.expr
		}
	}
	if plain.IsKnown() && plain.IsNull() {
		return nil
	}
	s, err := convert.Convert(plain, cty.String)
	if err != nil || !s.IsKnown() || strings.Contains(s.AsString(), refPrefix) {
		return &Value{Text: text, Unknown: true, Loc: p}
	}
	return &Value{Text: s.AsString(), Loc: p, Sensitive: isSensitive(marks)}
}

// environment looks for a tag named environment or env, then for the
// module's environment or env variable.
func (m *module) environment(tags *hcl.Attribute, ctx *hcl.EvalContext) *Value {
	if tags != nil {
		v, _ := m.eval(tags.Expr, ctx, 0).Unmark()
		if v.IsKnown() && !v.IsNull() && (v.Type().IsObjectType() || v.Type().IsMapType()) {
			for it := v.ElementIterator(); it.Next(); {
				k, e := it.Element()
				if name := strings.ToLower(k.AsString()); name == "environment" || name == "env" {
					if val := m.valueOf(e, tags.Expr); val != nil && !val.Unknown {
						return val
					}
				}
			}
		}
	}
	for _, name := range []string{"environment", "env"} {
		for _, d := range m.variables[name] {
			v, marks := m.variableValue(d).UnmarkDeep()
			if !v.IsKnown() || v.IsNull() || v.Type() != cty.String {
				continue
			}
			p := m.pos(d.block.DefRange)
			if o := originOf(marks); o != nil {
				p = o.pos
			}
			return &Value{Text: v.AsString(), Loc: p}
		}
	}
	return nil
}

// flatten lists the attributes of some nested blocks as dotted paths.
func (m *module) flatten(body hcl.Body, ctx *hcl.EvalContext, types ...string) []doc.Setting {
	var out []doc.Setting
	var walk func(prefix string, body hcl.Body)
	walk = func(prefix string, body hcl.Body) {
		sb, ok := body.(*hclsyntax.Body)
		if !ok {
			return
		}
		for _, a := range sortedAttrs(attributes(sb)) {
			out = append(out, m.property(prefix+a.Name, m.eval(a.Expr, ctx, 0), a.Expr, m.pos(a.NameRange)))
		}
		for _, blk := range sb.Blocks {
			name := blk.Type
			if blk.Type == "dynamic" && len(blk.Labels) == 1 {
				out = append(out, doc.Setting{Key: prefix + blk.Labels[0], Loc: m.pos(blk.TypeRange), Unknown: true, Expr: "dynamic \"" + blk.Labels[0] + "\""})
				continue
			}
			walk(prefix+name+".", blk.Body)
		}
	}
	for _, t := range types {
		for _, blk := range blocks(body, t) {
			walk(t+".", blk.Body)
		}
	}
	return out
}

// property renders a value as a Kafka-style string.
func (m *module) property(key string, v cty.Value, expr hcl.Expression, p doc.Location) doc.Setting {
	plain, marks := v.UnmarkDeep()
	prop := m.propertyOf(key, plain, marks, expr, p)
	prop.Sensitive = isSensitive(marks) && !prop.Unknown
	return prop
}

func (m *module) propertyOf(key string, plain cty.Value, marks cty.ValueMarks, expr hcl.Expression, p doc.Location) doc.Setting {
	text := strings.Join(strings.Fields(m.exprText(expr)), " ")
	if o := originOf(marks); o != nil && o.depth > 0 {
		p = o.pos
		if o.expr != "" {
			text = o.expr
		}
	}
	unknown := doc.Setting{Key: key, Value: "${" + text + "}", Loc: p, Unknown: true, Expr: "${" + text + "}"}
	if !plain.IsWhollyKnown() {
		return unknown
	}
	if plain.IsNull() {
		return doc.Setting{Key: key, Value: "", Loc: p}
	}
	if plain.Type().IsListType() || plain.Type().IsTupleType() || plain.Type().IsSetType() {
		var parts []string
		for it := plain.ElementIterator(); it.Next(); {
			_, e := it.Element()
			s, err := convert.Convert(e, cty.String)
			if err != nil || s.IsNull() {
				return unknown
			}
			parts = append(parts, s.AsString())
		}
		return doc.Setting{Key: key, Value: strings.Join(parts, ","), Loc: p}
	}
	s, err := convert.Convert(plain, cty.String)
	if err != nil {
		if js, err := ctyjson.Marshal(plain, plain.Type()); err == nil {
			return doc.Setting{Key: key, Value: string(js), Loc: p}
		}
		return unknown
	}
	if strings.Contains(s.AsString(), refPrefix) {
		return unknown
	}
	return doc.Setting{Key: key, Value: s.AsString(), Loc: p}
}

// configMap reads a topic's config map: each key at its map entry.
func (m *module) configMap(a *hcl.Attribute, ctx *hcl.EvalContext) Properties {
	if a == nil {
		return Properties{Entries: []doc.Setting{}}
	}
	// configs = jsonencode({...}) (aws_msk_topic): read the map itself.
	if call, ok := a.Expr.(*hclsyntax.FunctionCallExpr); ok && call.Name == "jsonencode" && len(call.Args) == 1 {
		return m.mapEntries(m.eval(call.Args[0], ctx, 0), call.Args[0])
	}
	return m.configValue(m.eval(a.Expr, ctx, 0), a.Expr)
}

// configValue reads a config map value, or a JSON string holding one.
func (m *module) configValue(v cty.Value, expr hcl.Expression) Properties {
	if plain, marks := v.Unmark(); plain.IsKnown() && !plain.IsNull() && plain.Type() == cty.String {
		decoded, err := stdlib.JSONDecode(cty.StringVal(plain.AsString()))
		if err != nil {
			return Properties{Entries: []doc.Setting{}, Incomplete: true, Unresolved: []string{m.exprText(expr)}}
		}
		v = decoded.WithMarks(marks)
	}
	return m.mapEntries(v, expr)
}

// mapEntries turns a map value into properties located at their entries.
func (m *module) mapEntries(v cty.Value, expr hcl.Expression) Properties {
	props := Properties{Entries: []doc.Setting{}}
	plain, marks := v.Unmark()
	if plain.IsKnown() && plain.IsNull() {
		return props
	}
	if !plain.IsKnown() || !isMapLike(plain) {
		props.Incomplete = true
		text := m.exprText(expr)
		if o := originOf(marks); o != nil && o.expr != "" {
			text = o.expr
		}
		props.Unresolved = append(props.Unresolved, text)
		return props
	}
	fallback := m.pos(expr.Range())
	if o := originOf(marks); o != nil && o.depth > 0 {
		fallback = o.pos
	}
	for it := plain.ElementIterator(); it.Next(); {
		k, e := it.Element()
		if isSensitive(marks) { // a sensitive map: every entry is
			e = e.Mark(sensitiveMark)
		}
		props.Entries = append(props.Entries, m.property(k.AsString(), e, expr, fallback))
	}
	slices.SortStableFunc(props.Entries, func(a, b doc.Setting) int {
		return cmp.Or(cmp.Compare(a.Loc.File, b.Loc.File), cmp.Compare(a.Loc.Line, b.Loc.Line), cmp.Compare(a.Loc.Column, b.Loc.Column))
	})
	return props
}

// isMapLike reports a map or object value.
func isMapLike(v cty.Value) bool {
	return v.Type().IsObjectType() || v.Type().IsMapType()
}
