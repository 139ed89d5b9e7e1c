# METADATA
# title: Line with an empty key
# description: |
#   A properties line that starts with '=' or ':' (say "=changeit", left
#   over when a key name was deleted) is read by Java's Properties as the
#   key "" with the rest of the line as its value. Nothing in Kafka reads
#   that key, so the value a reviewer sees next to the line never takes
#   effect, and the key it was meant for keeps its default.
# related_resources:
#   - description: Java docs, java.util.Properties.load
#     ref: https://docs.oracle.com/en/java/javase/21/docs/api/java.base/java/util/Properties.html#load(java.io.Reader)
# schemas:
#   - input: schema.cluster
# custom:
#   id: KFK9008
#   severity: warning
#   scope: all
#   applies_to: [broker, controller, producer, consumer, admin, client, topic, mirrormaker, meta]
#   keys: []
#   since: unreleased
#   fix: |
#     Put the intended key name back in front of the '=' or ':', or delete the
#     line if it is a leftover.
package kafkalint.rules.hygiene["empty-key"]

import data.kafkalint.lib.result

# The value is never printed: such a line is often a password whose key
# name was lost. A placeholder value does not matter, the key is the
# mistake.
report contains result.fail(s, _message(s)) if {
	some kind in _unit_kinds
	some unit in input[kind]
	s := unit.settings[""]
	s.source == "explicit"
}

# _unit_kinds are the input's lists of units with settings. Each list is
# read in place: a list built of the units (array.concat) would copy every
# unit, settings and all, for the compiled engine (policies/lazyinput.go).
_unit_kinds := ["nodes", "clients", "mirror_makers", "topics", "meta"]

_message(s) := sprintf("line %v has an empty key (it starts with '=' or ':')", [s.location.line])
