// Package doc defines what every format adapter produces: a Doc, one unit
// of Kafka configuration found in a source (a server config, a client, a
// meta.properties, a MirrorMaker 2 config or a topic), with the position of
// every value it states. The format packages (loader/properties,
// loader/yamlsrc, loader/terraform) return these types; the loader types
// and groups them. The package is a leaf: it imports nothing of kafkalint,
// so a field added here (an end column) is added once for every format.
package doc

// Doc kinds.
const (
	KindNode        = "node"
	KindClient      = "client"
	KindMeta        = "meta"
	KindMirrorMaker = "mirrormaker"
	KindTopic       = "topic"
)

// Doc is one unit of Kafka configuration found in a source. A source that
// cannot be read or parsed yields a Doc with only File and Err.
type Doc struct {
	Err        *Error `json:"error,omitempty"`
	Kind       string `json:"kind,omitempty"`
	ClientKind string `json:"client_kind,omitempty"` // producer | consumer | admin | client
	Format     string `json:"format,omitempty"`      // properties, terraform, strimzi, helm, compose
	// Template: a Jinja template ({% if %} lines read as keys), not the
	// text Kafka reads, which is rendered from it.
	Template bool   `json:"template,omitempty"`
	File     string `json:"file"` // display path
	// Name names the unit inside its file (a resource, CR or service);
	// empty for a properties file.
	Name string `json:"name,omitempty"`
	// Loc is where the unit starts (resource block, YAML document, service);
	// zero means line 1 of File. Findings about missing keys point here.
	Loc        Location    `json:"location"`
	Settings   []Setting   `json:"settings,omitempty"` // the last value of each key, in source order
	Duplicates []Duplicate `json:"duplicates,omitempty"`
	// Environment, when the source states it (a tag, a namespace), wins
	// over the path; EnvironmentFrom names where it came from.
	Environment     string `json:"environment,omitempty"`
	EnvironmentFrom string `json:"environment_from,omitempty"`
	// EnvHints are what the source says that may name an environment (a
	// namespace, a label, a tag); the loader decides which names one and
	// sets Environment.
	EnvHints []EnvHint `json:"env_hints,omitempty"`
	// Group links docs that belong to one cluster whatever their files
	// (a Strimzi cluster name, an MSK cluster resource, a compose project).
	Group string `json:"group,omitempty"`
	// KafkaVersion is the cluster's version when the source states it.
	KafkaVersion *Count `json:"kafka_version,omitempty"`
	// BrokerCount and ControllerCount are cluster sizes known for certain.
	BrokerCount     *Count `json:"broker_count,omitempty"`
	ControllerCount *Count `json:"controller_count,omitempty"`
	// Replicas: this node doc stands for that many identical nodes (a
	// Strimzi node pool, a Helm replicaCount, compose deploy.replicas).
	Replicas *Count `json:"replicas,omitempty"`
	// QuorumManaged: the platform maintains the controller quorum itself,
	// so the config holds no quorum keys by design.
	QuorumManaged bool `json:"quorum_managed,omitempty"`
	// ManagedKeys are keys the platform sets itself.
	ManagedKeys []string `json:"managed_keys,omitempty"`
	// Ignored are keys the source writes that the platform drops before
	// Kafka reads them (Strimzi's forbidden spec.kafka.config keys): they
	// never take effect, so they are not Settings.
	Ignored []Setting `json:"ignored,omitempty"`
	// Platform holds a managed platform's own attributes of the cluster
	// (MSK encryption_info, client_authentication, broker_node_group_info,
	// flattened to dotted paths), for security rules.
	Platform []Setting `json:"platform,omitempty"`
	// Topic is set for KindTopic.
	Topic *Topic `json:"topic,omitempty"`
	// Sources are other files that supply its values though no location
	// points at them (the variables.tf default a Terraform broker count
	// is read from, the files of a module an example calls): they are
	// part of its cluster, not skipped files.
	Sources []string `json:"sources,omitempty"`
	// SourceComments are the comments of other files its values come
	// from (the Kafka resource of a Strimzi node pool kept in a file of
	// its own), for the inline directives there.
	SourceComments []FileComments `json:"source_comments,omitempty"`
	// Comments are the comment lines of the source file (for inline
	// directives such as `# kafkalint:ignore`); every doc of a file may
	// carry the same list.
	Comments []Comment `json:"comments,omitempty"`
}

// Get returns the setting of key.
func (d *Doc) Get(key string) (Setting, bool) {
	for _, s := range d.Settings {
		if s.Key == key {
			return s, true
		}
	}
	return Setting{}, false
}

// Failed is a Doc for a source that cannot be read or parsed.
func Failed(e *Error) *Doc {
	return &Doc{File: e.File, Err: e}
}

// Topic is a topic a source declares.
type Topic struct {
	// Name is the topic's name; an unknown one is written ${expression}.
	Name              string   `json:"name"`
	Loc               Location `json:"location"`
	ReplicationFactor *Setting `json:"replication_factor,omitempty"`
	// FixedReplication: the platform decides the replication factor
	// whatever the source says (Confluent Cloud always uses 3); its Origin
	// says so.
	FixedReplication bool     `json:"fixed_replication,omitempty"`
	Partitions       *Setting `json:"partitions,omitempty"`
	// ConfigUnknown: the topic's config map could not be resolved (a
	// variable, a data source), so it may set keys Settings does not show.
	ConfigUnknown bool `json:"config_unknown,omitempty"`
}

// FileComments are the comments of one file.
type FileComments struct {
	File     string    `json:"file"`
	Comments []Comment `json:"comments,omitempty"`
}

// EnvHint is something a source says that may name an environment (a
// namespace, a label value, a tag); From says where it is written.
type EnvHint struct {
	Value string `json:"value"`
	From  string `json:"from"`
}
