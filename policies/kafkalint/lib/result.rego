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

# fail_related is fail with related locations (other files or lines
# involved), at most related_cap of them: the nearest to the finding
# (nearest), with related_omitted counting the ones left out.
fail_related(setting, message, related) := fail_nearest(setting, message, nearest(setting.location, related))

# fail_nearest is fail with a selection of related locations made by
# nearest or cluster.nearest: {"related": [...], "omitted": n}.
# related_omitted is written only when some are left out.
# (Two literals, not one merged with the other: a finding of a large
# cluster's disagreement usually leaves some out, and the merge copied it.)
fail_nearest(setting, message, near) := {
	"message": message,
	"key": setting.key,
	"location": setting.location,
	"related": near.related,
} if near.omitted == 0

fail_nearest(setting, message, near) := {
	"message": message,
	"key": setting.key,
	"location": setting.location,
	"related": near.related,
	"related_omitted": near.omitted,
} if near.omitted > 0

# related_cap is the most related locations a finding lists: a disagreement
# among a thousand nodes copied across a monorepo would otherwise list every
# other node in every finding (O(n^2) output). The count left out is exact.
related_cap := 10

# nearest selects up to related_cap locations of related for a finding at
# location: those in the same file first, then those in the same
# directory, then the rest, each by path order (file, line, column); the
# rest are counted in omitted. A list within the cap is kept as it is.
# O(k log k) in the list: a rule reporting many findings over one long list
# builds cluster.location_index once and asks cluster.near instead.
nearest(_, related) := {"related": related, "omitted": 0} if count(related) <= related_cap

nearest(location, related) := {
	"related": [related[r[4]] | some r in array.slice(ranked, 0, related_cap)],
	"omitted": count(related) - related_cap,
} if {
	count(related) > related_cap
	own_dir := dir(location.file)
	ranked := sort([[_distance(location.file, own_dir, l.file), l.file, l.line, object.get(l, "column", 0), k] | some k, l in related])
}

_distance(file, _, file) := 0

_distance(own_file, own_dir, file) := 1 if {
	file != own_file
	dir(file) == own_dir
}

_distance(own_file, own_dir, file) := 2 if {
	file != own_file
	dir(file) != own_dir
}

# dir is the directory of a slash path ("" for a file at the root): what
# precedes its last slash (two builtins, not split's array and a concat:
# the rules ask for the directory of every related location).
dir(file) := substring(file, 0, max(indexof_n(file, "/")))

dir(file) := "" if not contains(file, "/")

# names_cap is the most file (or other) names a message lists before it
# says how many more there are.
names_cap := 5

# names lists a set of names for a message, sorted: all of them up to
# names_cap + 1 (naming one more costs no more than "and 1 more"), else the
# first names_cap and "and N more" (N exact).
names(set_of_names) := names_text(array.slice(sorted, 0, names_cap + 1), count(sorted)) if sorted := sort(set_of_names)

# names_text lists the first names_cap + 1 (or fewer) of total names, as
# names does.
names_text(head, total) := concat(", ", head) if total <= names_cap + 1

names_text(head, total) := sprintf("%s and %d more", [concat(", ", array.slice(head, 0, names_cap)), total - names_cap]) if total > names_cap + 1

# explain gives a finding its own why and fix, for a rule whose findings
# differ in cause and remedy (otherwise the engine takes the rule's METADATA
# description as the why and custom.fix as the fix). The message stays the
# short line: what is wrong, with the value.
explain(finding, why, fix) := object.union(finding, {"why": why, "fix": fix})

# missing is a finding about a key that a node (or client, topic) does not
# set: it points at where that unit's configuration starts (line 1 of a
# properties file, the resource or YAML block of other formats).
missing(unit, key, message) := {
	"message": message,
	"key": key,
	"location": unit.location,
	"related": [],
}
