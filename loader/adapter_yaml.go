package loader

import (
	"strings"

	"github.com/kafkalint/kafkalint/loader/doc"
	"github.com/kafkalint/kafkalint/loader/yamlsrc"
)

// yamlFormat reads Strimzi custom resources, values files of the Bitnami
// kafka Helm chart and docker-compose files (loader/yamlsrc). The format is
// told by content; a YAML file that is none of them is skipped. It reads a
// directory at a time so that Strimzi node pools and topics can find their
// Kafka resource.
type yamlFormat struct{}

func (yamlFormat) name() string { return "yaml" }

func (yamlFormat) match(path string) bool { return hasSuffix(path, ".yaml", ".yml") }

func (yamlFormat) perDir() bool { return true }

func (yamlFormat) load(inputs []Input) []*Doc {
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
	docs, strimzi := yamlUnit(sources)
	if len(strimzi) > 0 {
		docs = append(docs, &Doc{held: strimzi})
	}
	return append(out, docs...)
}

// join reads the Strimzi resources (and kustomizations) of every
// directory at once, so that a node pool or topic finds its Kafka resource
// in another file of the tree (yamlsrc.Strimzi says which). Files of
// different git work trees are read apart: no evidence crosses them.
func (yamlFormat) join(held []*Doc, dir string) []*Doc {
	var files []*yamlsrc.File
	var recs []*Doc // one per file, for repoRoots
	for _, d := range held {
		if fs, ok := d.held.([]*yamlsrc.File); ok {
			for _, f := range fs {
				files = append(files, f)
				recs = append(recs, &Doc{Doc: doc.Doc{File: f.Name}})
			}
		}
	}
	var order []string
	byRepo := map[string][]*yamlsrc.File{}
	for i, root := range repoRoots(recs, dir) {
		if _, ok := byRepo[root]; !ok {
			order = append(order, root)
		}
		byRepo[root] = append(byRepo[root], files[i])
	}
	var out []*Doc
	for _, root := range order {
		out = append(out, strimziDocs(byRepo[root])...)
	}
	return out
}

func strimziDocs(files []*yamlsrc.File) []*Doc {
	return newDocs(setEnvironment(yamlsrc.Strimzi(files), yamlEnvironment))
}

// yamlSource is one YAML file's content; in locates the files read
// beside it (.env, Chart.yaml).
type yamlSource struct {
	in   Input
	data []byte
}

// yamlDocs turns the YAML files of one directory into Docs.
func yamlDocs(sources []yamlSource) []*Doc {
	docs, strimzi := yamlUnit(sources)
	return append(docs, strimziDocs(strimzi)...)
}

// yamlUnit turns the YAML files of one directory into Docs, except the
// Strimzi resources and kustomizations, which it returns for join.
func yamlUnit(sources []yamlSource) ([]*Doc, []*yamlsrc.File) {
	var out []*Doc
	var strimzi []*yamlsrc.File
	var docs []doc.Doc
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
				out = append(out, newDoc(*doc.Failed(perr)))
			}
			continue
		}
		switch {
		case yamlsrc.IsStrimzi(f) || yamlsrc.IsKustomization(f):
			strimzi = append(strimzi, f)
		case yamlsrc.IsCompose(f):
			// Compose reads the .env beside the file for variable
			// substitution.
			var env map[string]string
			if data := read(src, ".env"); data != nil {
				env = yamlsrc.ParseDotEnv(data)
			}
			docs = append(docs, yamlsrc.Compose(f, env)...)
		default:
			ds, err := helmDocs(src, f, func() []byte { return read(src, "Chart.yaml") })
			if err != nil {
				out = append(out, newDoc(*doc.Failed(err)))
				continue
			}
			docs = append(docs, ds...)
		}
	}
	return append(out, newDocs(setEnvironment(docs, yamlEnvironment))...), strimzi
}

// yamlEnvironment is the environment a namespace or label names
// (kafka-prod, environment=staging), read as a path segment is, but
// without the sample words of paths (a namespace "kafka-demo" does not
// hide the environment a label states).
func yamlEnvironment(hint string) string {
	return envNamed(strings.ToLower(hint))
}

// helmDocs reads a values file of the Bitnami kafka chart: a values*.yaml
// with the chart's key shapes, the values of the kafka chart itself, or the
// kafka dependency's section of an umbrella chart's values (Chart.yaml
// beside the file, which chart returns, says which).
func helmDocs(src yamlSource, f *yamlsrc.File, chart func() []byte) ([]doc.Doc, *doc.Error) {
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
