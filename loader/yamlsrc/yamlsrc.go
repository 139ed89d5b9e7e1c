// Package yamlsrc reads the YAML sources of Kafka configuration — Strimzi
// custom resources, values files of the Bitnami kafka Helm chart and
// docker-compose files — into docs (loader/doc: a node, a client, a topic)
// that keep the line and column of every value. This package knows nothing
// of the cluster model, so it can be tested and fuzzed on its own.
//
// YAML is read with go.yaml.in/yaml/v3 as a node tree: every document of a
// multi-document file, anchors, aliases and `<<` merge keys are supported,
// and a value that came from an anchor is located where the anchor writes
// it (an alias node points at the anchored node, which keeps its position).
package yamlsrc

import (
	"github.com/kafkalint/kafkalint/loader/doc"
)

// filed sets each doc's File to the file its start is in, and its
// Comments (and its SourceComments) to that file's, for inline
// directives.
func filed(docs []doc.Doc, files ...*File) []doc.Doc {
	comments := make(map[string][]doc.Comment, len(files))
	for _, f := range files {
		comments[f.Name] = f.Comments
	}
	for i := range docs {
		docs[i].File = docs[i].Loc.File
		docs[i].Comments = comments[docs[i].File]
		for j := range docs[i].SourceComments {
			docs[i].SourceComments[j].Comments = comments[docs[i].SourceComments[j].File]
		}
	}
	return docs
}
