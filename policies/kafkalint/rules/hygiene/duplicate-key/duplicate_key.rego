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
package kafkalint.rules.hygiene["duplicate-key"]

import data.kafkalint.lib.result

# One finding per later occurrence, with the earlier ones as related
# locations. Values are not quoted: the key may hold a secret.
report contains result.fail_related({"key": duplicate.key, "location": duplicate.location}, message, duplicate.previous) if {
	some file in input.files
	some duplicate in file.duplicates
	message := sprintf(
		"%s is set again at line %v (earlier at %s): %s",
		[duplicate.key, duplicate.location.line, _lines(duplicate.previous), _why(file.format)],
	)
}

_why(format) := "Java's Properties keeps only the last occurrence, so the earlier value a reader sees first is silently ignored; keep exactly one line for the key" if format == "properties"

_why(format) := "depending on the tool that reads it, only one of the values takes effect or the file is rejected, so the value a reviewer sees may not be the one that runs; keep exactly one entry for the key" if format != "properties"

_lines(locations) := sprintf("line %v", [locations[0].line]) if count(locations) == 1

_lines(locations) := sprintf("lines %s", [concat(", ", [sprintf("%v", [l.line]) | some l in locations])]) if count(locations) != 1
