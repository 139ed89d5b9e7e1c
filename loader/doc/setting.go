package doc

// Setting is one Kafka configuration key as a source states it, before
// typing.
type Setting struct {
	Key   string   `json:"key"`
	Value string   `json:"value"`
	Loc   Location `json:"location"`
	// Unknown marks a value the source cannot resolve statically (a
	// Terraform data source, an unset ${VAR}); Expr is its source text
	// and Value a placeholder for it.
	Unknown bool   `json:"unknown,omitempty"`
	Expr    string `json:"expr,omitempty"`
	// Origin names the source field the value is written in or follows
	// from when that is not the Kafka key itself (Strimzi
	// "spec.kafka.config", a Helm chart key, a compose variable).
	Origin string `json:"origin,omitempty"`
	// Sensitive: the source declares the value sensitive (a Terraform
	// variable with sensitive = true, or a value derived from one; a Helm
	// chart's secretConfig).
	Sensitive bool `json:"sensitive,omitempty"`
}

// Duplicate is a key written more than once in one block or file: Loc is
// the later occurrence, Previous the earlier ones.
type Duplicate struct {
	Key      string     `json:"key"`
	Loc      Location   `json:"location"`
	Previous []Location `json:"previous"`
}

// Count is a number a source states for certain (a broker count, a
// version), with where it is written and what states it.
type Count struct {
	Value  int      `json:"value"`
	Text   string   `json:"text,omitempty"` // as written ("" when it is a default)
	Source string   `json:"source"`         // what states it, in words for a message
	Loc    Location `json:"location"`
}
