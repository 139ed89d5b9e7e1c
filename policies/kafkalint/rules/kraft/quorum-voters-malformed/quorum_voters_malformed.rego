# METADATA
# title: Malformed controller.quorum.voters entry
# description: |
#   An entry of controller.quorum.voters is not a valid, unique
#   {id}@{host}:{port}: Kafka refuses to start a node whose voter list does not
#   parse or names the non-routable host 0.0.0.0, and silently drops all but
#   the last entry of a duplicated voter id.
# related_resources:
#   - description: Kafka docs, controller.quorum.voters
#     ref: https://kafka.apache.org/documentation/#brokerconfigs_controller.quorum.voters
# schemas:
#   - input: schema.cluster
# custom:
#   id: KFK3007
#   severity: error
#   scope: all
#   applies_to: [broker, controller]
#   keys: [controller.quorum.voters]
#   since: unreleased
#   fix: |
#     Write every entry of controller.quorum.voters once, as
#     {id}@{host}:{port} with a host every node can reach, for example
#     1@controller-1:9093 (IPv6 hosts in brackets: 1@[::1]:9093).
package kafkalint.rules.kraft["quorum-voters-malformed"]

import data.kafkalint.lib.cluster
import data.kafkalint.lib.result

# Any node that sets the key is checked, whatever its roles: Kafka parses the
# list on every node (QuorumConfig.ControllerQuorumVotersValidator). The
# wildcard host and repeated ids only matter to a node that uses the list,
# so a ZooKeeper-mode node (cluster.without_quorum) is spared those. The
# loader gives no entries for a ${provider:...} placeholder, so an unknown
# value is silent.

# Each check has its own why and fix. Entries are parts of the value, which
# the engine does not cut: the message cuts the loader's error to 45
# characters and the entry to what is left of 120 (_cut); the why quotes
# them whole.

# An entry that does not parse.
report contains result.explain(result.fail(setting, message), why, fix) if {
	some node in input.nodes
	some voter in node.quorum.voters
	voter.error
	setting := node.settings["controller.quorum.voters"]
	error := _cut(voter.error, 45)
	message := sprintf("controller.quorum.voters entry %s: %s", [_cut(sprintf("%q", [voter.raw]), 87 - count(error)), error])
	why := sprintf(
		"controller.quorum.voters entry %q is malformed (%s). Kafka parses the whole voter list when it loads the configuration and refuses to start the node.",
		[voter.raw, voter.error],
	)
	fix := "Write every entry as {id}@{host}:{port}, for example 1@controller-1:9093 (IPv6 hosts in brackets: 1@[::1]:9093)."
}

# An entry whose host is the wildcard address.
report contains result.explain(result.fail(setting, message), why, fix) if {
	some node in input.nodes
	not cluster.without_quorum(node)
	some voter in node.quorum.voters
	not voter.error
	voter.host == "0.0.0.0"
	setting := node.settings["controller.quorum.voters"]
	message := sprintf("controller.quorum.voters entry %s uses host 0.0.0.0: Kafka refuses to start the node", [_cut(sprintf("%q", [voter.raw]), 40)])
	why := sprintf(
		"controller.quorum.voters entry %q passes config parsing, but the node fails to start with \"Host string (0.0.0.0) is not routeable\": every broker and controller must connect to voter %d at that address.",
		[voter.raw, voter.id],
	)
	fix := sprintf("Give voter %d a host name or address of that controller that every node can reach.", [voter.id])
}

# A voter id written in more than one entry, reported once per id. The
# entries are grouped by id once (a long list would otherwise be scanned
# once per id).
report contains result.explain(result.fail(setting, message), why, fix) if {
	some node in input.nodes
	not cluster.without_quorum(node)
	parsed := [v | some v in node.quorum.voters; not v.error]
	count(parsed) > count({v.id | some v in parsed}) # some id repeats
	some g in cluster.groups([{"value": v.id} | some v in parsed])
	count(g.indexes) > 1
	id := g.value
	entries := [parsed[k].raw | some k in g.indexes]
	setting := node.settings["controller.quorum.voters"]
	message := sprintf("controller.quorum.voters lists voter id %d in %d entries: Kafka keeps only the last", [id, count(entries)])
	why := sprintf(
		"controller.quorum.voters lists voter id %d in %d entries (%s). Kafka raises no error and silently keeps only the last one (%s), so the quorum has fewer voters than the file shows and the other hosts are never used.",
		[id, count(entries), concat(", ", entries), entries[count(entries) - 1]],
	)
	fix := "Give every controller its own node.id and list each id once."
}

# _cut shortens text to at most n characters, with "…" where it is cut.
_cut(text, n) := text if count(text) <= n

_cut(text, n) := concat("", [substring(text, 0, n - 1), "…"]) if count(text) > n
