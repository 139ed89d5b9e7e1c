package loader

import (
	"strings"

	"github.com/kafkalint/kafkalint/loader/yamlsrc"
)

// yamlAdapter reads Strimzi custom resources, values files of the Bitnami
// kafka Helm chart and docker-compose files (loader/yamlsrc). The format is
// told by content; a YAML file that is none of them is skipped. It reads a
// directory at a time so that Strimzi node pools and topics can find their
// Kafka resource.
var yamlAdapter = &adapter{
	name:   "yaml",
	match:  hasSuffix(".yaml", ".yml"),
	perDir: true,
	load:   loadYAML,
}

func loadYAML(inputs []Input) []*Doc {
	var out []*Doc
	var sources []yamlSource
	for _, in := range inputs {
		data, errDoc := readInput(in)
		if errDoc != nil {
			out = append(out, errDoc)
			continue
		}
		sources = append(sources, yamlSource{in: in, data: data})
	}
	return append(out, yamlDocs(sources)...)
}

// yamlSource is one YAML file's content; in locates the files read
// beside it (.env, Chart.yaml).
type yamlSource struct {
	in   Input
	data []byte
}

// yamlDocs turns the YAML files of one directory into Docs.
func yamlDocs(sources []yamlSource) []*Doc {
	var out []*Doc
	comments := map[string][]Comment{}
	var strimzi []*yamlsrc.File
	var units []yamlsrc.Unit
	// The files of one directory share their .env and Chart.yaml: read
	// each once, and report a refused one once.
	beside := map[string][]byte{}
	read := func(src yamlSource, name string) []byte {
		if data, ok := beside[name]; ok {
			return data
		}
		data, errDoc := readBeside(src.in, name)
		if errDoc != nil {
			out = append(out, errDoc)
		}
		beside[name] = data
		return data
	}
	for _, src := range sources {
		f, perr := yamlsrc.Parse(src.in.Display, src.data)
		if perr != nil {
			// A chart template or Jinja file is not YAML until rendered:
			// not ours to report.
			if !yamlsrc.LooksLikeTemplate(src.data) {
				out = append(out, &Doc{File: src.in.Display, Err: &Error{File: src.in.Display, Line: perr.Line, Message: perr.Msg}})
			}
			continue
		}
		for _, c := range f.Comments {
			comments[f.Name] = append(comments[f.Name], Comment{Line: c.Line, Text: c.Text, Trailing: c.Trailing})
		}
		switch {
		case yamlsrc.IsStrimzi(f):
			strimzi = append(strimzi, f)
		case yamlsrc.IsCompose(f):
			// Compose reads the .env beside the file for variable
			// substitution.
			var env map[string]string
			if data := read(src, ".env"); data != nil {
				env = yamlsrc.ParseDotEnv(data)
			}
			units = append(units, yamlsrc.Compose(f, env)...)
		default:
			us, err := helmUnits(src, f, func() []byte { return read(src, "Chart.yaml") })
			if err != nil {
				out = append(out, &Doc{File: src.in.Display, Err: &Error{File: src.in.Display, Line: err.Line, Message: err.Msg}})
				continue
			}
			units = append(units, us...)
		}
	}
	units = append(units, yamlsrc.Strimzi(strimzi)...)
	for _, u := range units {
		out = append(out, unitDoc(u, comments[u.Pos.File]))
	}
	return out
}

// helmUnits reads a values file of the Bitnami kafka chart: a values*.yaml
// with the chart's key shapes, the values of the kafka chart itself, or the
// kafka dependency's section of an umbrella chart's values (Chart.yaml
// beside the file, which chart returns, says which).
func helmUnits(src yamlSource, f *yamlsrc.File, chart func() []byte) ([]yamlsrc.Unit, *yamlsrc.Error) {
	if !yamlsrc.IsValuesName(src.in.Display) || len(f.Docs) == 0 {
		return nil, nil
	}
	self, dep := false, ""
	if data := chart(); data != nil {
		self, dep = yamlsrc.ChartKafka(data)
	}
	switch {
	case dep != "":
		return yamlsrc.Helm(f, dep)
	case self || yamlsrc.BitnamiKafkaShape(f.Docs[0]):
		return yamlsrc.Helm(f, "")
	}
	return nil, nil
}

func location(p yamlsrc.Pos) Location {
	return Location{File: p.File, Line: p.Line, Column: p.Column}
}

func rawSettings(ss []yamlsrc.Setting) []RawSetting {
	out := make([]RawSetting, 0, len(ss))
	for _, s := range ss {
		out = append(out, RawSetting{Key: s.Key, Value: s.Value, Loc: location(s.Pos), Unknown: s.Unknown, Expr: s.Expr, Origin: s.Origin, Sensitive: s.Sensitive})
	}
	return out
}

func count(c *yamlsrc.Count) *Count {
	if c == nil {
		return nil
	}
	return &Count{Value: c.Value, Text: c.Text, Source: c.Source, Loc: location(c.Pos)}
}

// unitDoc turns a YAML unit into a Doc. A namespace or label that names an
// environment (kafka-prod, environment=staging) sets the doc's environment.
func unitDoc(u yamlsrc.Unit, comments []Comment) *Doc {
	d := &Doc{
		Kind: u.Kind, ClientKind: u.ClientKind, Format: u.Format, File: u.Pos.File, Name: u.Name, Loc: location(u.Pos),
		Settings: rawSettings(u.Settings), Replicas: count(u.Replicas), QuorumManaged: u.QuorumManaged,
		ManagedKeys: u.ManagedKeys, KafkaVersion: count(u.KafkaVersion), BrokerCount: count(u.BrokerCount),
		ControllerCount: count(u.ControllerCount), Group: u.Group, Comments: comments,
	}
	if len(u.Ignored) > 0 {
		d.Ignored = rawSettings(u.Ignored)
	}
	for _, dup := range u.Duplicates {
		prev := make([]Location, 0, len(dup.Previous))
		for _, p := range dup.Previous {
			prev = append(prev, location(p))
		}
		d.Duplicates = append(d.Duplicates, Duplicate{Key: dup.Key, Loc: location(dup.Pos), Previous: prev})
	}
	for _, h := range u.EnvHints {
		if env, src := environmentOf(strings.ToLower(h.Value), ""); src != EnvUnknown {
			d.Environment, d.EnvironmentFrom = env, h.From
			break
		}
	}
	if u.Topic != nil {
		t := &Topic{Name: u.Topic.Name, Loc: location(u.Topic.Pos)}
		if s := u.Topic.Replicas; s != nil {
			t.ReplicationFactor = newSetting(s.Key, s.Value, "int", SourceExplicit, location(s.Pos))
			t.ReplicationFactor.setOrigin(s.Origin)
		}
		if s := u.Topic.Partitions; s != nil {
			t.Partitions = newSetting(s.Key, s.Value, "int", SourceExplicit, location(s.Pos))
			t.Partitions.setOrigin(s.Origin)
		}
		d.Topic = t
	}
	return d
}
