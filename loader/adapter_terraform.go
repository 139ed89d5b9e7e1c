package loader

// terraformAdapter reads Terraform (.tf, .tf.json, .tfvars) a module
// directory at a time. Not implemented yet: it matches nothing.
var terraformAdapter = &adapter{
	name:   "terraform",
	match:  func(string) bool { return false },
	perDir: true,
	load:   func([]Input) []*Doc { return nil },
}
