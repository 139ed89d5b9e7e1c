package loader

import (
	"regexp"

	"github.com/kafkalint/kafkalint/loader/doc"
)

// This file defines the normalized cluster model: the `input` every policy
// sees, one Cluster per evaluation. docs/model.md documents it and
// policies/schemas/cluster.json is its JSON Schema; keep the three in step.

// Location points at a place in a source file. Lines and columns are
// 1-based. It is loader/doc's: what a format adapter locates, the model
// shows unchanged (its end fields are never set in the model).
type Location = doc.Location

// Setting sources.
const (
	SourceExplicit = "explicit" // written in the file
	SourceDefault  = "default"  // Kafka's documented default for the cluster's version
	// SourcePlatform: a managed platform fixes the value whatever the
	// source says (Confluent Cloud's replication factor 3).
	SourcePlatform = "platform"
)

// Origin kinds (Setting.OriginKind).
const (
	OriginEnv      = "env"
	OriginPlatform = "platform"
)

// Setting is one configuration value. Value holds the typed value (int64,
// float64, bool, string or []string) parsed once by the loader; it is absent
// when the value is unknown (a ${provider:...} placeholder) or does not parse
// as the key's type, so no rule can compare it.
type Setting struct {
	Key     string `json:"key"`
	Raw     string `json:"raw"`
	Value   any    `json:"value,omitempty"`
	Type    string `json:"type"`
	Unknown bool   `json:"unknown,omitempty"`
	// Sensitive: the value is never printed (in messages, errors or
	// inspect): the key holds a secret (SecretKey), or the source declares
	// the value sensitive (a Terraform variable with sensitive = true, or
	// a value derived from one). loader/secret.go.
	Sensitive bool `json:"sensitive,omitempty"`
	// SecretKey: the key holds a secret: the catalog types it PASSWORD, or
	// its name is a secret's (*.password, *.secret, sasl.jaas.config,
	// basic.auth.user.info), whatever its value (IsSecretKey).
	SecretKey bool     `json:"secret_key,omitempty"`
	Invalid   string   `json:"invalid,omitempty"`
	Source    string   `json:"source"`
	Loc       Location `json:"location"`
	// Origin names the source field the value is written in or follows
	// from when that is not the Kafka key itself: "spec.kafka.config"
	// (Strimzi), "KafkaNodePool spec.roles", a Helm chart key such as
	// "controller.controllerOnly" (with "(not set: ...)" when the chart's
	// default applies), a compose environment variable.
	Origin string `json:"origin,omitempty"`
	// OriginKind says what Origin names, so that no policy parses it:
	// OriginEnv, an environment variable that carries the key (compose's
	// KAFKA_PROCESS_ROLES, a chart's extraEnvVars KAFKA_CFG_NODE_ID), or
	// OriginPlatform, a field of a platform's resource, chart or module
	// that the value is written in or follows from. Set exactly when Origin
	// is; absent, the value is written in the Kafka key itself. setOrigin.
	OriginKind string `json:"origin_kind,omitempty"`
	// Catalog annotations of an explicit setting (loader/validate.go),
	// set only where the catalog covers the unit's kind and the cluster's
	// exact Kafka release line, so that a verdict is certain.
	// KeyStatus is "known", "unknown", "removed" (defined by an older
	// cataloged release, by none since) or "exempt" (read by prefix or by
	// a plugin: listener.name.*, config.providers*, authorizer and vendor
	// keys, client and alias overrides in MirrorMaker 2).
	KeyStatus string `json:"key_status,omitempty"`
	// KeyNotes says more about an unknown or removed key; nil for every
	// other setting (most of them: a 10,000-file tree has a quarter of a
	// million settings, and these fields would be a quarter of their
	// memory). Its fields appear in the model as the setting's own; read
	// them through Notes, which is safe when there are none.
	*KeyNotes
}

// KeyNotes are the catalog's notes on an unknown or removed key.
type KeyNotes struct {
	// Suggestion is the closest known key of an unknown one (did you mean).
	Suggestion string `json:"suggestion,omitempty"`
	// KnownFor names the other kinds that define an unknown key (a consumer
	// key in a producer file, a topic key in a broker file).
	KnownFor []string `json:"known_for,omitempty"`
	// AddedIn is the first cataloged release defining an unknown key that
	// is newer than the cluster's.
	AddedIn string `json:"added_in,omitempty"`
	// RemovedAfter is the last cataloged release defining a removed key.
	RemovedAfter string `json:"removed_after,omitempty"`
}

// envVarRE is an environment variable's name. Every adapter names an
// environment variable origin by the variable alone, and no platform field
// or chart key looks like one (they hold dots, spaces or lower case).
var envVarRE = regexp.MustCompile(`^[A-Z_][A-Z0-9_]*$`)

// setOrigin records where a value comes from and what kind of place that is.
func (s *Setting) setOrigin(origin string) {
	s.Origin, s.OriginKind = origin, ""
	switch {
	case origin == "":
	case envVarRE.MatchString(origin):
		s.OriginKind = OriginEnv
	default:
		s.OriginKind = OriginPlatform
	}
}

// Notes returns the setting's key notes (zero when it has none).
func (s *Setting) Notes() KeyNotes {
	if s.KeyNotes == nil {
		return KeyNotes{}
	}
	return *s.KeyNotes
}

// setNotes records n, or no notes at all when n says nothing.
func (s *Setting) setNotes(n KeyNotes) {
	if n.Suggestion == "" && len(n.KnownFor) == 0 && n.AddedIn == "" && n.RemovedAfter == "" {
		s.KeyNotes = nil
		return
	}
	s.KeyNotes = &n
}

// Endpoint is a host:port pair as written.
type Endpoint struct {
	Host string   `json:"host"`
	Port int      `json:"port"`
	Raw  string   `json:"raw"`
	Loc  Location `json:"location"`
}

// Voter is one entry of controller.quorum.voters. ID and Port are zero and
// Error says why when the entry does not parse.
type Voter struct {
	ID    int      `json:"id"`
	Host  string   `json:"host"`
	Port  int      `json:"port"`
	Raw   string   `json:"raw"`
	Error string   `json:"error,omitempty"`
	Loc   Location `json:"location"`
}

// Quorum is a node's view of the KRaft controller quorum.
type Quorum struct {
	// Mode is "static" (controller.quorum.voters), "dynamic"
	// (controller.quorum.bootstrap.servers), "both", "none", or "managed"
	// (the platform maintains the quorum, e.g. Strimzi).
	Mode             string     `json:"mode"`
	Voters           []Voter    `json:"voters"`
	BootstrapServers []Endpoint `json:"bootstrap_servers"`
}

// Listener is one entry of listeners or advertised.listeners.
type Listener struct {
	Name     string   `json:"name"`
	Host     string   `json:"host"`
	Port     int      `json:"port"`
	Protocol string   `json:"protocol"` // from the effective listener.security.protocol.map; "" if unmapped
	Raw      string   `json:"raw"`
	Error    string   `json:"error,omitempty"`
	Loc      Location `json:"location"`
}

// Node is one broker, controller or combined server configuration.
type Node struct {
	File        string `json:"file"`
	Environment string `json:"environment"`
	// Loc is where the node's configuration starts (line 1 of a properties
	// file, a resource or YAML block); findings about a missing key point here.
	Loc Location `json:"location"`
	// Replicas is set when this entry stands for several identical nodes
	// (a Strimzi node pool, a Helm replicaCount, compose deploy.replicas).
	Replicas *Count `json:"replicas,omitempty"`
	// Platform holds a managed platform's own attributes (MSK
	// encryption_info.encryption_in_transit.client_broker, ...), typed.
	Platform map[string]*Setting `json:"platform,omitempty"`
	// ManagedKeys are keys the platform (operator, managed service) sets itself.
	ManagedKeys []string `json:"managed_keys"`
	// IgnoredSettings are keys the source writes that the platform drops
	// before Kafka reads them (Strimzi's forbidden spec.kafka.config
	// prefixes): they never take effect, so they are not in Settings.
	IgnoredSettings []*Setting `json:"ignored_settings,omitempty"`
	// Mode is "kraft" (process.roles set) or "zookeeper".
	Mode                    string     `json:"mode"`
	Roles                   []string   `json:"roles"`
	IsBroker                bool       `json:"is_broker"`
	IsController            bool       `json:"is_controller"`
	ID                      *int       `json:"id,omitempty"` // node.id, else broker.id; absent when unset or unknown
	Quorum                  Quorum     `json:"quorum"`
	Listeners               []Listener `json:"listeners"`
	Advertised              []Listener `json:"advertised_listeners"`
	ControllerListenerNames []string   `json:"controller_listener_names"`
	// ProtocolMap is the effective listener.security.protocol.map, listener
	// name to protocol as Kafka computes it (protocolMap), so that no policy
	// derives it again; empty and ProtocolMapUnknown set when it is not
	// known (the written map is a placeholder, or the platform sets the key
	// itself and the source does not show it).
	ProtocolMap        map[string]string `json:"protocol_map"`
	ProtocolMapUnknown bool              `json:"protocol_map_unknown,omitempty"`
	// WholeConfiguration: the node's file is all Kafka reads (a properties
	// file, not a template it is rendered from), so a key it does not set
	// takes Kafka's default unless the platform manages it (ManagedKeys).
	// Another format may take the rest of the configuration from elsewhere
	// (an image's own server.properties, an operator).
	WholeConfiguration bool                `json:"whole_configuration,omitempty"`
	Settings           map[string]*Setting `json:"settings"`
	// FlaggedKeys are the keys of the settings the loader flags, sorted:
	// an unknown or removed key, an invalid value, a key holding a secret
	// (flaggedKeys). The rules that look for these read only them, not
	// every setting; absent when there are none.
	FlaggedKeys []string `json:"flagged_keys,omitempty"`
}

// Client is a producer, consumer, admin or generic client configuration.
type Client struct {
	File             string              `json:"file"`
	Environment      string              `json:"environment"`
	Loc              Location            `json:"location"`
	Kind             string              `json:"kind"` // producer | consumer | admin | client
	BootstrapServers []Endpoint          `json:"bootstrap_servers"`
	Settings         map[string]*Setting `json:"settings"`
	FlaggedKeys      []string            `json:"flagged_keys,omitempty"` // as Node's
}

// MetaProperties is a log directory's meta.properties.
type MetaProperties struct {
	File        string `json:"file"`
	Environment string `json:"environment"`
	// NodeFile is the node config in the same or parent directory that this
	// log directory belongs to; empty when none is certain.
	NodeFile string              `json:"node_file"`
	Settings map[string]*Setting `json:"settings"`
}

// MirrorMaker is a MirrorMaker 2 dedicated-mode configuration.
type MirrorMaker struct {
	File        string              `json:"file"`
	Environment string              `json:"environment"`
	Clusters    []string            `json:"clusters"`
	Settings    map[string]*Setting `json:"settings"`
	FlaggedKeys []string            `json:"flagged_keys,omitempty"` // as Node's
	// Loc is where the configuration starts (line 1 of a properties file, a
	// KafkaMirrorMaker2 resource); findings about a missing key point here.
	Loc Location `json:"location"`
	// Aliases are the cluster aliases in clusters or in a flow key.
	Aliases []MirrorAlias `json:"aliases"`
	// Platform is the platform that runs MirrorMaker 2 and reads this
	// configuration ("strimzi": a KafkaMirrorMaker2 resource); absent for a
	// dedicated-mode properties file, which connect-mirror-maker.sh reads.
	Platform string `json:"platform,omitempty"`
	// Flows are every ordered pair of aliases in clusters plus every pair a
	// {source}->{target}. key names (loader/mirrormaker.go).
	Flows []MirrorFlow `json:"flows"`
}

// MirrorAlias is one cluster alias of a MirrorMaker 2 configuration.
type MirrorAlias struct {
	Name string `json:"name"`
	// Declared: the alias is listed in clusters (MirrorMaker 2 ignores flows
	// of other aliases).
	Declared bool `json:"declared"`
	// BootstrapServers is {alias}.bootstrap.servers; absent when not set.
	BootstrapServers *Setting `json:"bootstrap_servers,omitempty"`
	// Loc is the clusters line, else the first key naming the alias.
	Loc Location `json:"location"`
}

// MirrorFlow is a replication flow {source}->{target}.
type MirrorFlow struct {
	Source string `json:"source"`
	Target string `json:"target"`
	// Enabled: the flow runs. {source}->{target}.enabled read as
	// MirrorMaker 2 reads it (Boolean.parseBoolean: only a case-insensitive
	// "true" enables; absent means disabled), and both aliases are in
	// clusters. False when that value is unknown (EnabledSetting then has
	// unknown set).
	Enabled        bool     `json:"enabled"`
	EnabledSetting *Setting `json:"enabled_setting,omitempty"`
	// Loc is the flow's enabled line, else its first key, else clusters.
	Loc Location `json:"location"`
	// Settings are the flow's effective connector settings by key: the
	// {source}->{target}.key override, else the top-level key (explicit or
	// Kafka's default for the keys rules read). An override keeps its full
	// key and location.
	Settings map[string]*Setting `json:"settings"`
}

// Duplicate is a key written more than once in one file: Loc is the later
// occurrence, Previous the earlier ones.
type Duplicate = doc.Duplicate

// SourceFile is one file that contributed to a cluster.
type SourceFile struct {
	Path        string `json:"path"`
	Kind        string `json:"kind"` // node | client | meta | mirrormaker
	Format      string `json:"format"`
	Environment string `json:"environment"`
	// EnvironmentSource says where Environment came from: "flag",
	// "config" (the source names it), "path" or "unknown".
	EnvironmentSource string      `json:"environment_source"`
	Duplicates        []Duplicate `json:"duplicates"`
	// Template: a Jinja template ({% if %} lines), from which the file
	// Kafka reads is rendered, so a key it lacks may be set after all.
	Template bool `json:"template,omitempty"`
	// WholeConfiguration: the file is all Kafka reads (wholeConfiguration).
	WholeConfiguration bool `json:"whole_configuration,omitempty"`
}

// Cluster is the unit of evaluation: the files that describe one Kafka
// cluster (or one unlinked client/MirrorMaker file on its own).
type Cluster struct {
	Name               string `json:"name"`
	KafkaVersion       string `json:"kafka_version"`
	KafkaVersionSource string `json:"kafka_version_source"` // config | flag | default
	// KafkaRelease is KafkaVersion as numbers [major, minor], so policies
	// compare releases without parsing text (arrays compare element-wise).
	KafkaRelease []int `json:"kafka_release"`
	// KafkaVersionLoc is where a source states the version (source "config").
	KafkaVersionLoc *Location `json:"kafka_version_location,omitempty"`
	// BrokerCount and ControllerCount are known only when a source states
	// them for certain; never guessed from the number of files.
	BrokerCount     *Count            `json:"broker_count,omitempty"`
	ControllerCount *Count            `json:"controller_count,omitempty"`
	GroupedBy       []string          `json:"grouped_by"`
	Files           []*SourceFile     `json:"files"`
	Nodes           []*Node           `json:"nodes"`
	Clients         []*Client         `json:"clients"`
	Meta            []*MetaProperties `json:"meta"`
	MirrorMakers    []*MirrorMaker    `json:"mirror_makers"`
	Topics          []*Topic          `json:"topics"`

	// untyped types the settings left untyped (Options.TypeLater).
	untyped []func()
}

// Type types the settings of the cluster's nodes and clients, which a
// load with Options.TypeLater leaves untyped; otherwise, and once done,
// it does nothing.
func (c *Cluster) Type() {
	for _, f := range c.untyped {
		f()
	}
	c.untyped = nil
}

// Count is a number a source states for certain (a broker count, a version),
// with where it is written and what states it.
type Count = doc.Count

// Topic is a topic declared in configuration (Terraform, Strimzi KafkaTopic).
type Topic struct {
	Name              string              `json:"name"`
	File              string              `json:"file"`
	Environment       string              `json:"environment"`
	Loc               Location            `json:"location"`
	ReplicationFactor *Setting            `json:"replication_factor,omitempty"`
	Partitions        *Setting            `json:"partitions,omitempty"`
	Settings          map[string]*Setting `json:"settings"`
	FlaggedKeys       []string            `json:"flagged_keys,omitempty"` // as Node's

	// ConfigUnknown: the topic's config map could not be resolved (a
	// variable, a data source), so it may set keys Settings does not show.
	ConfigUnknown bool `json:"config_unknown,omitempty"`
}
