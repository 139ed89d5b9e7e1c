// Package terraform reads a Terraform module (the .tf, .tf.json, .tfvars
// and .tfvars.json files of one directory) and extracts the Kafka
// configuration it declares: Amazon MSK configurations and clusters, the
// well-known MSK modules, and Kafka topics of the Mongey, Confluent and AWS
// providers. Values are evaluated statically (variables, tfvars, locals,
// Terraform's common functions, for-expressions, count/for_each); whatever
// cannot be known before `terraform apply` is reported as unknown with its
// expression text. Every value keeps the position it was written at.
//
// Load returns what the module declares, positions in loader/doc's types;
// Result.Docs turns it into the docs the loader reads (docs.go), with what
// the platforms decide on their own (MSK's managed keys, Confluent's fixed
// replication factor).
package terraform

import (
	"github.com/kafkalint/kafkalint/loader/doc"
)

// Value is a scalar attribute: its text when known, else the source text of
// the expression that could not be resolved.
type Value struct {
	Text    string `json:"text"`
	Unknown bool   `json:"unknown,omitempty"`
	// Sensitive: the value comes from a variable declared sensitive.
	Sensitive bool         `json:"sensitive,omitempty"`
	Loc       doc.Location `json:"location"`
}

// Properties is a set of Kafka keys: a server_properties text or a topic's
// config map.
type Properties struct {
	Entries    []doc.Setting   `json:"entries"` // the last value of each key, in source order
	Duplicates []doc.Duplicate `json:"duplicates,omitempty"`
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
	// instance) whose block Loc points at.
	Address string `json:"address"`
	// Source says what declares it: aws_msk_cluster, aws_msk_configuration
	// or the module source.
	Source string       `json:"source"`
	File   string       `json:"file"`
	Loc    doc.Location `json:"location"`
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
	PropertiesErr        *doc.Error `json:"properties_error,omitempty"`
	BrokerCount          *doc.Count `json:"broker_count,omitempty"`
	KafkaVersion         *Value     `json:"kafka_version,omitempty"`
	Environment          *Value     `json:"environment,omitempty"`
	// Zones is the number of client subnets (MSK places one per
	// Availability Zone), when known.
	Zones *doc.Count `json:"zones,omitempty"`
	// Attributes are the cluster's security and placement attributes
	// (encryption_info, client_authentication, broker_node_group_info),
	// flattened to dotted paths.
	Attributes []doc.Setting `json:"attributes,omitempty"`
	// UnknownMultiplicity: count/for_each could not be resolved, so this
	// stands for an unknown number of instances.
	UnknownMultiplicity bool `json:"unknown_multiplicity,omitempty"`
	// Sources are the other files its broker count and Kafka version are
	// read from (a variable's default, a tfvars assignment) and, for a
	// module called by a local path, the file declaring the resource.
	Sources []string `json:"sources,omitempty"`
}

// Topic is a Kafka topic resource.
type Topic struct {
	Address string `json:"address"`
	// Source is the resource type (kafka_topic, confluent_kafka_topic,
	// aws_msk_topic).
	Source string       `json:"source"`
	File   string       `json:"file"`
	Loc    doc.Location `json:"location"`
	Group  string       `json:"group"`
	Name   Value        `json:"name"`
	// ReplicationFactor: as written, or Fixed when the platform decides it
	// (Confluent Cloud always uses 3).
	ReplicationFactor   *Value     `json:"replication_factor,omitempty"`
	RFFixed             bool       `json:"replication_factor_fixed,omitempty"`
	Partitions          *Value     `json:"partitions,omitempty"`
	Config              Properties `json:"config"`
	Environment         *Value     `json:"environment,omitempty"`
	UnknownMultiplicity bool       `json:"unknown_multiplicity,omitempty"`
	// Sources: for a module called by a local path, the file declaring
	// the resource.
	Sources []string `json:"sources,omitempty"`
}

// Result is what a module holds.
type Result struct {
	Brokers []*Brokers `json:"brokers"`
	Topics  []*Topic   `json:"topics"`
	// Errors are files that cannot be parsed (the others are still read)
	// and server_properties texts that cannot be read.
	Errors []*doc.Error `json:"errors"`
	// Comments of every file read, by display name.
	Comments map[string][]doc.Comment `json:"comments"`
}
