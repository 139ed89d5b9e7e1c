# METADATA
# title: Setting helpers
# description: |
#   What a rule asks of one setting of the model: is it written, is its value
#   known, how a message shows it, and the one value a set of units agrees on.
#   A setting is {key, raw, value?, source, unknown?, location}: source
#   explicit (written), default (Kafka's default, added by the loader for the
#   keys a rule lists in custom.keys) or platform. The functions take their
#   data as arguments and never read input.
package kafkalint.lib.settings

# explicit holds when a unit (a node, a client, a MirrorMaker, a
# meta.properties) writes key.
explicit(unit, key) if unit.settings[key].source == "explicit"

# explicit_value holds for a setting written in its file with a known, valid
# value: not a ${provider:...} placeholder, not invalid.
explicit_value(s) if {
	s.source == "explicit"
	not s.unknown
	s.value != null
}

# known holds for a setting of unit whose value is the one that runs: written
# with a value, or Kafka's default of a key the platform does not manage (on
# Amazon MSK, for instance, the replication factors and min.insync.replicas
# default to MSK's own values, which the model does not know).
known(_, s) if {
	s.source == "explicit"
	_ = s.value
}

known(unit, s) if {
	s.source == "default"
	not s.key in unit.managed_keys
}

# default_note is what a message appends to a value that is Kafka's
# default: " (Kafka's default)", else nothing.
default_note(s) := " (Kafka's default)" if s.source == "default"

default_note(s) := "" if s.source != "default"

# unset_note is default_note saying the file does not set the key.
unset_note(s) := " (Kafka's default, not set in the file)" if s.source == "default"

unset_note(s) := "" if s.source != "default"

# shown renders a written or default setting for a message: key=value, or
# key=value (Kafka's default). Undefined for a platform's value.
shown(s) := sprintf("%s=%v%s", [s.key, s.value, default_note(s)]) if s.source in {"explicit", "default"}

# shown_unset is shown with unset_note: key=value (Kafka's default, not set
# in the file).
shown_unset(s) := sprintf("%s=%v%s", [s.key, s.value, unset_note(s)]) if s.source in {"explicit", "default"}

# agreed is the value of key that every unit has and knows (known), with
# where each unit has it: {"value", "locations" (sorted, without repeats),
# "text"}, text showing it as inherited by a topic that does not set key
# ("min.insync.replicas=2 inherited from the cluster's nodes", or "... from
# the cluster (Kafka's default, not set on its nodes)"). Undefined for no
# units, when a unit's value is unknown, and when the units disagree.
agreed(units, key) := {"value": v, "locations": locations, "text": text} if {
	count(units) > 0
	every unit in units {
		known(unit, unit.settings[key])
	}
	values := {unit.settings[key].value | some unit in units}
	count(values) == 1
	some v in values
	locations := sort({unit.settings[key].location | some unit in units})
	sources := {unit.settings[key].source | some unit in units}
	text := sprintf("%s=%v inherited from the cluster%s", [key, v, _inherited_note(sources)])
}

_inherited_note(sources) := " (Kafka's default, not set on its nodes)" if sources == {"default"}

_inherited_note(sources) := "'s nodes" if sources != {"default"}
