package loader

// yamlAdapter reads Strimzi custom resources, Bitnami Helm values and
// docker-compose files. Not implemented yet: it matches nothing.
var yamlAdapter = &adapter{
	name:  "yaml",
	match: func(string) bool { return false },
	load:  func([]Input) []*Doc { return nil },
}
