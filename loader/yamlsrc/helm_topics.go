package yamlsrc

import (
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kafkalint/kafkalint/loader/doc"
)

// provisionedTopics are the topics the chart's provisioning job creates
// (`provisioning.enabled: true`, default false): each entry of
// `provisioning.topics` with its `partitions`, `replicationFactor` and
// `config`, the missing counts from `provisioning.numPartitions` and
// `provisioning.replicationFactor` (the chart's defaults: 1 and 1).
func (h *helmValues) provisionedTopics() []doc.Doc {
	if on, _ := boolean(get(h.root, "provisioning", "enabled")); !on {
		return nil
	}
	var units []doc.Doc
	for i, t := range items(get(h.root, "provisioning", "topics")) {
		name := strings.TrimSpace(str(t, "name"))
		if !isMap(t) || name == "" {
			continue
		}
		item := h.key("provisioning", "topics") + "[" + strconv.Itoa(i) + "]"
		loc := pos(h.f.Name, t)
		if e, ok := getEntry(t, "name"); ok {
			loc = pos(h.f.Name, e.Key)
		}
		u := doc.Doc{Kind: doc.KindTopic, Name: item + " " + name, Loc: loc}
		u.Topic = &doc.Topic{Name: name, Loc: loc,
			ReplicationFactor: h.topicCount(t, item, "replicationFactor", "replicationFactor", loc),
			Partitions:        h.topicCount(t, item, "partitions", "numPartitions", loc)}
		es, dups := entries(get(t, "config"))
		for _, d := range dups {
			u.Duplicates = append(u.Duplicates, doc.Duplicate{Key: d.Key, Loc: withFile(h.f.Name, d.Loc), Previous: filePositions(h.f.Name, d.Previous)})
		}
		for _, e := range es {
			if isScalar(e.Value) {
				u.Settings = append(u.Settings, doc.Setting{Key: e.key(), Value: text(e.Value), Loc: pos(h.f.Name, e.Key), Origin: item + ".config"})
			}
		}
		units = append(units, u)
	}
	return units
}

// topicCount is a provisioned topic's own count (field), else the
// provisioning default (def: provisioning.<def>), else the chart's 1,
// located at the topic.
func (h *helmValues) topicCount(t *yaml.Node, item, field, def string, at doc.Location) *doc.Setting {
	if e, ok := getEntry(t, field); ok && isScalar(e.Value) && !isNull(e.Value) {
		return &doc.Setting{Key: field, Value: text(e.Value), Loc: pos(h.f.Name, e.Key), Origin: item + "." + field}
	}
	if e, ok := getEntry(h.root, "provisioning", def); ok && isScalar(e.Value) && !isNull(e.Value) {
		return &doc.Setting{Key: field, Value: text(e.Value), Loc: pos(h.f.Name, e.Key), Origin: h.key("provisioning", def)}
	}
	return &doc.Setting{Key: field, Value: "1", Loc: at, Origin: h.key("provisioning", def) + " (not set: the chart's default 1)"}
}
