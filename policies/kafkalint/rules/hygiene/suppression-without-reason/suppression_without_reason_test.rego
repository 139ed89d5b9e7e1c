package kafkalint.rules.hygiene["suppression-without-reason_test"]

import data.kafkalint.rules.hygiene["suppression-without-reason"] as rule

# This rule is computed in Go (custom.engine: go): suppression directives are
# matched against findings after evaluation (cmd/kafkalint/cli/suppress.go,
# tested by TestKFK9002Fail*/Success*). The package holds only its
# metadata block; it must never grow a Rego report of its own.
test_success_package_is_metadata_only if {
	not rule.report
}
