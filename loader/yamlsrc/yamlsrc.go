// Package yamlsrc reads the YAML sources of Kafka configuration — Strimzi
// custom resources, values files of the Bitnami kafka Helm chart and
// docker-compose files — into neutral units (a node, a client, a topic)
// that keep the line and column of every value. The loader turns the units
// into its Docs; this package knows nothing of the cluster model, so it can
// be tested and fuzzed on its own.
//
// YAML is read with go.yaml.in/yaml/v3 as a node tree: every document of a
// multi-document file, anchors, aliases and `<<` merge keys are supported,
// and a value that came from an anchor is located where the anchor writes
// it (an alias node points at the anchored node, which keeps its position).
package yamlsrc

// Pos is a place in a source file; lines and columns are 1-based.
type Pos struct {
	File   string
	Line   int
	Column int
}

// Setting is one Kafka configuration key as a source states it.
type Setting struct {
	Key   string
	Value string
	Pos   Pos
	// Unknown: the value cannot be known statically (an unset ${VAR}, a
	// chart default that depends on the chart version); Expr is what the
	// source says instead and Value is a placeholder for it.
	Unknown bool
	Expr    string
	// Origin names the source field the value is written in or follows
	// from when it is not a Kafka key written as such ("spec.kafka.config",
	// "KafkaNodePool spec.roles", "controller.controllerOnly", an
	// environment variable name).
	Origin string
	// Sensitive: the source declares the value secret (a Helm chart's
	// secretConfig, which the chart stores in a Secret).
	Sensitive bool
}

// Count is a number a source states for certain, with where and how.
type Count struct {
	Value  int
	Text   string // as written ("" when it is a default)
	Source string // what states it, in words for a message
	Pos    Pos
}

// Duplicate is a key written again inside one block; Pos is the later
// occurrence, Previous the earlier ones.
type Duplicate struct {
	Key      string
	Pos      Pos
	Previous []Pos
}

// Unit kinds.
const (
	KindNode   = "node"
	KindClient = "client"
	KindTopic  = "topic"
)

// Topic is a topic a source declares.
type Topic struct {
	Name       string
	Pos        Pos
	Replicas   *Setting // replication factor as written
	Partitions *Setting
}

// EnvHint is something a source says that may name an environment (a
// namespace, a label value); From says where it is written.
type EnvHint struct {
	Value string
	From  string
}

// Unit is one piece of Kafka configuration found in YAML.
type Unit struct {
	Kind       string
	ClientKind string // for KindClient: producer | consumer | admin | client
	Format     string // strimzi | helm | compose
	Name       string
	Pos        Pos // where the unit starts
	Settings   []Setting
	// Ignored are keys the source writes that the platform drops before
	// Kafka reads them (Strimzi's forbidden spec.kafka.config keys).
	Ignored    []Setting
	Duplicates []Duplicate
	// Replicas: this unit stands for that many identical nodes.
	Replicas        *Count
	QuorumManaged   bool
	ManagedKeys     []string
	KafkaVersion    *Count
	BrokerCount     *Count
	ControllerCount *Count
	// Group ties units that form one cluster whatever their files.
	Group    string
	EnvHints []EnvHint
	Topic    *Topic
}
