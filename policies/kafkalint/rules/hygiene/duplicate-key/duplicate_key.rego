# METADATA
# title: Key set more than once in one file
# description: |
#   Kafka reads .properties files with java.util.Properties, which keeps the
#   last value of a repeated key and silently drops the earlier ones, so a
#   reader who sees the first occurrence misreads the configuration.
# related_resources:
#   - description: Java docs, java.util.Properties.load
#     ref: https://docs.oracle.com/en/java/javase/21/docs/api/java.base/java/util/Properties.html#load(java.io.Reader)
#   - description: Kafka docs, configuration
#     ref: https://kafka.apache.org/documentation/#configuration
# schemas:
#   - input: schema.cluster
# custom:
#   id: KFK9001
#   severity: warning
#   scope: all
#   applies_to: [broker, controller, producer, consumer, admin, client, mirrormaker, meta]
#   keys: []
#   since: unreleased
#   fix: |
#     Keep exactly one line for the key and delete the others. Kafka runs with
#     the last occurrence, so deleting that one changes the running value.
package kafkalint.rules.hygiene["duplicate-key"]

import data.kafkalint.lib.result

# One finding per later occurrence, with the earlier ones as related
# locations. Values are not quoted: the key may hold a secret. A file that
# is not .properties is read by other tools, with their own rule for a
# repeated key: such a finding brings its own why and fix.
report contains _explained(file.format, result.fail_related({"key": duplicate.key, "location": duplicate.location}, message, duplicate.previous)) if {
	some file in input.files
	some duplicate in file.duplicates
	message := sprintf(
		"%s is set again at line %v (earlier at %s)",
		[duplicate.key, duplicate.location.line, _lines(duplicate.previous)],
	)
}

_explained("properties", finding) := finding

_explained(format, finding) := result.explain(
	finding,
	"Depending on the tool that reads the file, only one of the values takes effect or the file is rejected, so the value a reviewer sees may not be the one that runs.",
	"Keep exactly one entry for the key and delete the others.",
) if format != "properties"

# _lines names the earlier lines, the first result.names_cap of a long list
# (related locations list them all, up to their own cap).
_lines(locations) := sprintf("line %v", [locations[0].line]) if count(locations) == 1

_lines(locations) := sprintf("lines %s", [result.names_text(
	[sprintf("%v", [l.line]) | some l in array.slice(locations, 0, result.names_cap + 1)],
	count(locations),
)]) if count(locations) != 1
