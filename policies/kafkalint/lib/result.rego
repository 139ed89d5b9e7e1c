# METADATA
# title: Finding builders
# description: |
#   The only way rules build findings. A finding is anchored at a setting (its
#   key and location) or, for a missing key, at a file. The engine adds the
#   rule's id, slug, severity, environment handling and docs link from the
#   rule's METADATA.
package kafkalint.lib.result

# fail is a finding about a setting (anything with key and location).
fail(setting, message) := {
	"message": message,
	"key": setting.key,
	"location": setting.location,
	"related": [],
}

# fail_related is fail with related locations (other files or lines involved).
fail_related(setting, message, related) := {
	"message": message,
	"key": setting.key,
	"location": setting.location,
	"related": related,
}

# missing is a finding about a key that a node (or client, topic) does not
# set: it points at where that unit's configuration starts (line 1 of a
# properties file, the resource or YAML block of other formats).
missing(unit, key, message) := {
	"message": message,
	"key": key,
	"location": unit.location,
	"related": [],
}
