// Package terraform reads a Terraform module (the .tf, .tf.json, .tfvars
// and .tfvars.json files of one directory) and extracts the Kafka
// configuration it declares: Amazon MSK configurations and clusters, the
// well-known MSK modules, and Kafka topics of the Mongey, Confluent and AWS
// providers. Values are evaluated statically (variables, tfvars, locals,
// Terraform's common functions, for-expressions, count/for_each); whatever
// cannot be known before `terraform apply` is reported as unknown with its
// expression text. Every value keeps the position it was written at.
//
// The package returns its own neutral types; the loader maps them into its
// model (loader/adapter_terraform.go).
package terraform

// Pos is a position in a source file; Line and Column are 1-based.
type Pos struct {
	File   string `json:"file"`
	Line   int    `json:"line"`
	Column int    `json:"column"`
}

// Error is a file that cannot be parsed, or Kafka configuration text that
// cannot be read.
type Error struct {
	File    string `json:"file"`
	Line    int    `json:"line"`
	Message string `json:"message"`
}

// Comment is a comment in a source file: HCL comments (#, //, /* */) and
// the comment lines of server_properties heredocs.
type Comment struct {
	File string `json:"file"`
	Line int    `json:"line"`
	Text string `json:"text"` // without the comment marker
	// Trailing: the comment follows code on its line.
	Trailing bool `json:"trailing,omitempty"`
}

// Value is a scalar attribute: its text when known, else the source text of
// the expression that could not be resolved.
type Value struct {
	Text    string `json:"text"`
	Unknown bool   `json:"unknown,omitempty"`
	// Sensitive: the value comes from a variable declared sensitive.
	Sensitive bool `json:"sensitive,omitempty"`
	Pos       Pos  `json:"pos"`
}

// Number is a count a source states (a broker count), with the text that
// states it.
type Number struct {
	Value  int    `json:"value"`
	Text   string `json:"text"`
	Source string `json:"source"`
	Pos    Pos    `json:"pos"`
}

// Property is one Kafka configuration key.
type Property struct {
	Key   string `json:"key"`
	Value string `json:"value"`
	Pos   Pos    `json:"pos"`
	// Unknown: the value holds an expression that cannot be resolved
	// statically; Expr is its source text.
	Unknown bool   `json:"unknown,omitempty"`
	Expr    string `json:"expr,omitempty"`
	// Sensitive: the value comes from a variable declared sensitive (or
	// its line of a server_properties text holds such a value).
	Sensitive bool `json:"sensitive,omitempty"`
}

// Duplicate is a key written more than once: Pos is the later occurrence.
type Duplicate struct {
	Key      string `json:"key"`
	Pos      Pos    `json:"pos"`
	Previous []Pos  `json:"previous"`
}

// Properties is a set of Kafka keys: a server_properties text or a topic's
// config map.
type Properties struct {
	Entries    []Property  `json:"entries"` // the last value of each key, in source order
	Duplicates []Duplicate `json:"duplicates,omitempty"`
	// Incomplete: part of the source could not be resolved, so keys may be
	// set that Entries does not show.
	Incomplete bool `json:"incomplete,omitempty"`
	// Unresolved is the source text of what could not be resolved.
	Unresolved []string `json:"unresolved,omitempty"`
}

// Brokers is the broker fleet of one MSK cluster (an aws_msk_cluster with
// its aws_msk_configuration, or an MSK module call), or an
// aws_msk_configuration that no cluster of the module uses.
type Brokers struct {
	// Address is the Terraform address of the unit (resource or module
	// instance) whose block Pos points at.
	Address string `json:"address"`
	// Source says what declares it: aws_msk_cluster, aws_msk_configuration
	// or the module source.
	Source string `json:"source"`
	File   string `json:"file"`
	Pos    Pos    `json:"pos"`
	// Group names the cluster; brokers and topics with one Group are one
	// cluster.
	Group string `json:"group"`
	// Configuration is the address of the aws_msk_configuration whose
	// server_properties the brokers run ("" when none is linked).
	Configuration string `json:"configuration,omitempty"`
	// ConfigurationUnknown: the cluster names a configuration that cannot
	// be resolved (an ARN from outside the module, a variable).
	ConfigurationUnknown bool       `json:"configuration_unknown,omitempty"`
	Properties           Properties `json:"properties"`
	PropertiesErr        *Error     `json:"properties_error,omitempty"`
	BrokerCount          *Number    `json:"broker_count,omitempty"`
	KafkaVersion         *Value     `json:"kafka_version,omitempty"`
	Environment          *Value     `json:"environment,omitempty"`
	// Zones is the number of client subnets (MSK places one per
	// Availability Zone), when known.
	Zones *Number `json:"zones,omitempty"`
	// Attributes are the cluster's security and placement attributes
	// (encryption_info, client_authentication, broker_node_group_info),
	// flattened to dotted paths.
	Attributes []Property `json:"attributes,omitempty"`
	// UnknownMultiplicity: count/for_each could not be resolved, so this
	// stands for an unknown number of instances.
	UnknownMultiplicity bool `json:"unknown_multiplicity,omitempty"`
}

// Topic is a Kafka topic resource.
type Topic struct {
	Address string `json:"address"`
	// Source is the resource type (kafka_topic, confluent_kafka_topic,
	// aws_msk_topic).
	Source string `json:"source"`
	File   string `json:"file"`
	Pos    Pos    `json:"pos"`
	Group  string `json:"group"`
	Name   Value  `json:"name"`
	// ReplicationFactor: as written, or Fixed when the platform decides it
	// (Confluent Cloud always uses 3).
	ReplicationFactor   *Value     `json:"replication_factor,omitempty"`
	RFFixed             bool       `json:"replication_factor_fixed,omitempty"`
	Partitions          *Value     `json:"partitions,omitempty"`
	Config              Properties `json:"config"`
	Environment         *Value     `json:"environment,omitempty"`
	UnknownMultiplicity bool       `json:"unknown_multiplicity,omitempty"`
}

// Result is what a module holds.
type Result struct {
	Brokers []*Brokers `json:"brokers"`
	Topics  []*Topic   `json:"topics"`
	// Errors are files that cannot be parsed (the others are still read)
	// and server_properties texts that cannot be read.
	Errors []*Error `json:"errors"`
	// Comments of every file read, by display name.
	Comments map[string][]Comment `json:"comments"`
}
