# METADATA
# title: Setting that must agree differs between nodes of the same role
# description: |
#   Nodes of one cluster with the same role (brokers, controllers, combined
#   nodes, ZooKeeper-mode brokers) give different values to a setting that
#   only works when they agree: the controller listener names or their
#   security protocol, the inter-broker listener or SASL mechanism, the
#   authorizer, min.insync.replicas, default.replication.factor or
#   unclean.leader.election.enable. Kafka checks nothing across nodes, so the
#   cluster behaves differently depending on which node serves a request.
# related_resources:
#   - description: Kafka docs, broker configs
#     ref: https://kafka.apache.org/documentation/#brokerconfigs
#   - description: Kafka docs, authorization and ACLs
#     ref: https://kafka.apache.org/documentation/#security_authz
# schemas:
#   - input: schema.cluster
# custom:
#   id: KFK6001
#   severity: warning
#   scope: all
#   applies_to: [broker, controller]
#   keys:
#     - controller.listener.names
#     - listener.security.protocol.map
#     - inter.broker.listener.name
#     - security.inter.broker.protocol
#     - sasl.mechanism.inter.broker.protocol
#     - authorizer.class.name
#     - min.insync.replicas
#     - default.replication.factor
#     - unclean.leader.election.enable
#   since: unreleased
#   fix: |
#     Give every node of the role the same value, from one template (or, for
#     min.insync.replicas and unclean.leader.election.enable, one dynamic
#     cluster-wide default).
package kafkalint.rules.consistency["cluster-setting-inconsistent"]

import data.kafkalint.lib.cluster
import data.kafkalint.lib.result
import data.kafkalint.lib.settings

# Nodes are compared within their role class (cluster.role_class). Values
# are the effective ones: written in the file or Kafka's default (a node
# that leaves min.insync.replicas at 1 differs from one that sets 2). A node
# whose value is unknown (${provider:...}) or invalid takes no part.
# Anchoring: lib/cluster.rego, odd one out, at the node's line for the
# setting (line 1 for a default), with every other party as related.

_role := {"broker": "broker", "controller": "controller", "combined": "combined broker-controller node", "zookeeper": "ZooKeeper-mode broker"}

# Which role classes each aspect is compared in: listener and SASL settings
# of the inter-broker path concern nodes with the broker role only.
_classes := {
	"controller.listener.names": {"broker", "controller", "combined"},
	"controller listener protocol": {"broker", "controller", "combined"},
	"inter.broker.listener.name": {"broker", "combined", "zookeeper"},
	"sasl.mechanism.inter.broker.protocol": {"broker", "combined", "zookeeper"},
	"authorizer.class.name": {"broker", "controller", "combined", "zookeeper"},
	"min.insync.replicas": {"broker", "controller", "combined", "zookeeper"},
	"default.replication.factor": {"broker", "controller", "combined", "zookeeper"},
	"unclean.leader.election.enable": {"broker", "controller", "combined", "zookeeper"},
}

# _why is what breaks when the nodes disagree on an aspect: the first
# sentences of a finding's why.
_why := {
	"controller.listener.names": "Brokers reach the controllers through the first name of controller.listener.names and controllers serve the quorum on these listeners, so a node naming a different listener connects where the controllers may not listen, or with other security settings.",
	"controller listener protocol": "Brokers and controllers connect to the controllers with the controller listener's security protocol, so a node using another one fails the connection or the handshake.",
	"inter.broker.listener.name": "A follower replicates through the leader's listener of the follower's inter-broker listener name, so with different names replication fails wherever the leader has no such listener, and brokers talk to each other with different security settings.",
	"sasl.mechanism.inter.broker.protocol": "Brokers authenticate to each other with sasl.mechanism.inter.broker.protocol, so a broker using a mechanism the others do not expect fails to authenticate and cannot replicate.",
	"authorizer.class.name": "Each node enforces ACLs with its own authorizer (a node without one allows every request), so the same client is allowed on some nodes and denied on others.",
	"min.insync.replicas": "min.insync.replicas is the minimum in-sync replica count for acks=all writes to topics without their own value, and the value in effect depends on which node leads the partition (or, for controllers, which controller is active), so durability changes with leadership.",
	"default.replication.factor": "Topics created without a replication factor get the default.replication.factor of the node that handles the request, so identical requests create topics with different numbers of replicas.",
	"unclean.leader.election.enable": "Whether an out-of-sync replica may become leader and lose acknowledged records (unclean.leader.election.enable) then depends on which node makes the election (the active controller in KRaft mode, the controller broker in ZooKeeper mode).",
}

# _members are the nodes of a class that take part in an aspect, each as
# [node index, setting key, value] (_source): the index, not the node, which
# a list would copy whole for the compiled engine (policies/lazyinput.go).
# A node whose platform sets a key of the aspect itself (managed_keys)
# takes no part: its files do not show the value Kafka gets.
_members(aspect, class) := [[i, source[0], source[1]] |
	some i, node in input.nodes
	_class_of[i] == class
	not _managed(node, aspect)
	source := _source(aspect, node)
]

# _class_of[i] is the role class of node i, and _shared_classes the classes
# with two or more nodes: only those can disagree. Rules without arguments
# are evaluated once per evaluation, so most clusters (one node of each
# class) skip the per-aspect work entirely.
_class_of := {i: cluster.role_class(node) | some i, node in input.nodes}

_shared_classes contains class if {
	some class in {c | some _, c in _class_of}
	count([i | some i, c in _class_of; c == class]) > 1
}

_aspect_keys := {
	"controller.listener.names": {"controller.listener.names"},
	"controller listener protocol": {"controller.listener.names", "listeners", "listener.security.protocol.map"},
	"inter.broker.listener.name": {"inter.broker.listener.name", "security.inter.broker.protocol"},
	"sasl.mechanism.inter.broker.protocol": {"sasl.mechanism.inter.broker.protocol", "inter.broker.listener.name", "security.inter.broker.protocol", "listener.security.protocol.map"},
	"authorizer.class.name": {"authorizer.class.name"},
	"min.insync.replicas": {"min.insync.replicas"},
	"default.replication.factor": {"default.replication.factor"},
	"unclean.leader.election.enable": {"unclean.leader.election.enable"},
}

_managed(node, aspect) if {
	count(node.managed_keys) > 0 # most nodes: none, and no key to look for
	some key in _aspect_keys[aspect]
	key in node.managed_keys
}

# Each set of parties is analysed once (cluster.disagreement), and the parts
# of the findings shared by a disagreement (the majority's text and files,
# the files of each text) are built once per set, not per finding: a
# cluster of copied configs can have a thousand parties. The message names
# this node's value and, when it fits, the others'; the finding's why says
# what breaks and lists the other values with their files.
report contains result.explain(
	result.fail_nearest(party, _message(aspect, class, d, shared, party), cluster.nearest(d, i)),
	_finding_why(aspect, class, d, shared, party),
	sprintf("Give every %s of the cluster the same value, from one template.", [_role[class]]),
) if {
	some class in _shared_classes
	some aspect, classes in _classes
	class in classes
	members := _members(aspect, class)
	count({m[2] | some m in members}) > 1 # most sets of parties agree: theirs are never built

	# The disagreement is analysed on each member's value and location; a
	# member's party, with its texts (_party), is built only when a
	# finding quotes it: the odd ones, and with a majority its first party,
	# whose text stands for the majority's (_quoted). A cluster of copied
	# configs has a thousand parties and a few odd ones.
	d := cluster.disagreement([{"value": m[2], "location": input.nodes[m[0]].settings[m[1]].location} | some m in members])
	count(d.odd) > 0
	parties := {j: _party(aspect, node, node.settings[m[1]], m[2]) | some j in _quoted(d); m := members[j]; node := input.nodes[m[0]]}
	shared := _shared_text(d, parties)
	some i in d.odd
	party := parties[i]
}

# _quoted are the indexes of the parties whose texts a finding quotes.
_quoted(d) := d.odd | {g.indexes[0] | some g in d.majority}

# _shared_text is what every finding of one disagreement says about the
# others (parties are the _quoted ones, by index): with a majority, its
# reference text, short value, size and files; without one (then every
# party is odd, and quoted), the files of each text, the texts of each
# value and each value's first party (firsts, for _other).
_shared_text(d, parties) := {
	"reference": ref.text,
	"short": ref.short,
	"excess": ref.excess,
	"size": count(same),
	"files": cluster.files(d.parties, same),
} if {
	same := d.majority[0].indexes
	ref := parties[same[0]]
}

_shared_text(d, parties) := {
	"text_files": {text: result.names({d.parties[i].location.file | some i in g.indexes}) |
		some g in cluster.groups([{"value": parties[j].text} | some j, _ in d.parties])
		text := g.value
	},
	"texts": {g.value: {parties[i].text | some i in g.indexes} | some g in d.groups},
	"firsts": {g.value: {"short": first.short, "excess": first.excess, "size": count(g.indexes)} |
		some g in d.groups
		first := parties[g.indexes[0]]
	},
} if {
	count(d.majority) == 0
}

# --- message -------------------------------------------------------------------

# _message is the first of _candidates that fits in _max_message characters
# as the reader sees it (the engine cuts a value of over 60 characters to
# 61: excess), else the last, which names no value.
_message(aspect, class, d, shared, party) := fits[0] if {
	candidates := _candidates(aspect, class, d, shared, party)
	fits := [c.text | some c in candidates; count(c.text) - c.excess <= _max_message]
	count(fits) > 0
} else := c.text if {
	candidates := _candidates(aspect, class, d, shared, party)
	c := candidates[count(candidates) - 1]
}

_max_message := 120

# _candidates, longest first, when the others hold one value (a majority,
# or an even split of two values): that value and how many hold it. Each
# form comes with this node's value as shown (with "(from key)" for a
# derived value), then brief (without it).
_candidates(aspect, class, d, shared, party) := [
	{"text": sprintf("%s on this %s, %s on %s", [party.shown, role, other.short, where]), "excess": party.excess + other.excess},
	{"text": sprintf("%s on this %s, %s on %s", [party.brief, role, other.short, where]), "excess": party.excess + other.excess},
	{"text": sprintf("%s on this %s, unlike %s", [party.shown, role, where]), "excess": party.excess},
	{"text": sprintf("%s on this %s, unlike %s", [party.brief, role, where]), "excess": party.excess},
	{"text": sprintf("%s, unlike %s", [party.brief, where]), "excess": party.excess},
	{"text": sprintf("%s on this %s differs from %s", [_label(aspect), role, where]), "excess": 0},
] if {
	other := _other(d, shared, party)
	role := _short_role[class]
	where := _where(other.size, count(d.parties), role)
}

# ... and when they hold several values, none of them most.
_candidates(aspect, class, d, shared, party) := [
	{"text": sprintf("%s on this %s; %s", [party.shown, role, values]), "excess": party.excess},
	{"text": sprintf("%s on this %s; %s", [party.brief, role, values]), "excess": party.excess},
	{"text": sprintf("%s; %s", [party.brief, values]), "excess": party.excess},
	{"text": sprintf("%s differs among the %d %ss (%d values)", [_label(aspect), count(d.parties), role, count(d.groups)]), "excess": 0},
] if {
	not _other(d, shared, party)
	role := _short_role[class]
	values := sprintf("the %d %ss have %d different values", [count(d.parties), role, count(d.groups)])
}

# _other is the value the other parties hold, when they hold one: the
# majority's, or the other of two equal halves.
_other(_, shared, _) := {"short": shared.short, "excess": shared.excess, "size": shared.size} if shared.reference

_other(d, shared, party) := shared.firsts[g.value] if {
	count(d.majority) == 0
	count(d.groups) == 2
	some g in d.groups
	g.value != party.value
}

# _where says which nodes hold the other value: all the others, or some
# (role is the role's name in the text).
_where(1, 2, role) := sprintf("the other %s", [role])

_where(n, total, role) := sprintf("the other %d %ss", [n, role]) if {
	n == total - 1
	n > 1
}

_where(n, total, role) := sprintf("%d other %s%s", [n, role, _s(n)]) if n < total - 1

_s(1) := ""

_s(n) := "s" if n > 1

# _label names an aspect in a message without its value.
_label("controller listener protocol") := "controller listener protocol"

_label("inter.broker.listener.name") := "inter-broker listener"

_label(aspect) := aspect if not aspect in {"controller listener protocol", "inter.broker.listener.name"}

# _short_role names a role class in a message; _role in the why.
_short_role := {"broker": "broker", "controller": "controller", "combined": "combined node", "zookeeper": "ZooKeeper broker"}

# --- why -----------------------------------------------------------------------

_finding_why(aspect, class, d, shared, party) := sprintf("%s%s %s %s %s: %s.", [
	_why[aspect], _derived_note(class, party),
	_capitalized(_where(shared.size, count(d.parties), _role[class])),
	_have(shared.size), shared.reference, shared.files,
]) if {
	shared.reference
}

_finding_why(aspect, class, d, shared, party) := sprintf(
	"%s%s No value is shared by most %ss; the others have %s.",
	[_why[aspect], _derived_note(class, party), _role[class], _others_text(d, shared, party)],
) if {
	shared.text_files
}

# _derived_note says which setting decides a derived value, which the
# message may leave out.
_derived_note(class, party) := sprintf(" This %s has %s.", [_role[class], party.shown]) if {
	party.shown != party.brief
} else := ""

_have(1) := "has"

_have(n) := "have" if n > 1

_capitalized(text) := concat("", [upper(substring(text, 0, 1)), substring(text, 1, -1)])

_others_text(d, shared, party) := concat("; ", [sprintf("%s in %s", [text, shared.text_files[text]]) |
	some text in sort({t | some g in d.groups; g.value != party.value; some t in shared.texts[g.value]})
])

# --- parties -------------------------------------------------------------------

# _source is what a node's party for an aspect is built of: [the key of
# the setting it is anchored at, the value]; undefined when the node takes
# no part. Every node's source is computed, the texts of its party
# (_party) only when a finding quotes them. It names the setting by its key
# rather than holding it: a list holding a setting copies it whole for the
# compiled engine (policies/lazyinput.go), and most sources agree.
_source("controller.listener.names", node) := ["controller.listener.names", names] if {
	setting := node.settings["controller.listener.names"]
	setting.source == "explicit"
	not setting.unknown
	names := cluster.controller_names(node)
	count(names) > 0
}

_source("controller listener protocol", node) := [anchor, protocol] if {
	name := cluster.controller_names(node)[0]
	protocol := node.protocol_map[name]
	anchor := _protocol_anchor(node)
}

_source("inter.broker.listener.name", node) := [key, name] if {
	key := _inter_broker_key(node)
	name := _inter_broker_name(node)
}

_source("sasl.mechanism.inter.broker.protocol", node) := ["sasl.mechanism.inter.broker.protocol", setting.value] if {
	startswith(_inter_broker_protocol(node), "SASL_")
	setting := node.settings["sasl.mechanism.inter.broker.protocol"]
	is_string(setting.value)
}

_source("authorizer.class.name", node) := ["authorizer.class.name", trim_space(setting.value)] if {
	setting := node.settings["authorizer.class.name"]
	is_string(setting.value)
}

_source(key, node) := [key, setting.value] if {
	key in _plain_keys
	setting := node.settings[key]
	not is_null(object.get(setting, "value", null))
}

# _party is a node's party for an aspect, built of its _source: {value,
# text, shown, brief, short, excess, key, location}: the key and location
# of the setting it is anchored at, not the setting, which an object
# holding it copies whole for the compiled engine (policies/lazyinput.go).
_party("controller.listener.names", _, setting, names) := _from(setting, names, concat(",", names))

_party("controller listener protocol", node, anchor, protocol) := _derived(
	anchor, protocol,
	sprintf("%s %s", [cluster.controller_names(node)[0], protocol]), "controller listener",
)

_party("inter.broker.listener.name", _, setting, name) := _derived(setting, name, name, "inter-broker listener")

_party("sasl.mechanism.inter.broker.protocol", _, setting, value) := _from(setting, value, value)

_party("authorizer.class.name", _, setting, value) := _from(setting, value, _authorizer_text(value))

_party(key, _, setting, value) := _from(setting, value, sprintf("%v", [value])) if key in _plain_keys

# _plain_keys are the aspects whose value is their key's, shown as written.
_plain_keys := {"min.insync.replicas", "default.replication.factor", "unclean.leader.election.enable"}

_authorizer_text(value) := "(none)" if trim_space(value) == ""

_authorizer_text(value) := trim_space(value) if trim_space(value) != ""

# _from is a party whose value is a setting's.
_from(setting, value, shown_value) := {
	"value": value,
	"text": text,
	"shown": shown,
	"brief": shown,
	"short": shown_value,
	"excess": _excess(setting, shown_value),
	"key": setting.key,
	"location": setting.location,
} if {
	# concat, not sprintf (shown_value is a string), and the text built
	# once.
	text := concat("=", [setting.key, shown_value])
	shown := concat("", [text, settings.default_note(setting)])
}

# _excess is how many characters of a value the engine cuts from a
# message: it quotes a written value of over 60 characters as its first 60
# and "…" (policies/redact.go).
_excess(setting, shown_value) := count(shown_value) - 61 if {
	shown_value == trim_space(setting.raw)
	count(shown_value) > 61
} else := 0

# _derived is a party whose value Kafka derives from other settings; it is
# anchored at the setting that decides it.
_derived(anchor, value, shown_value, label) := {
	"value": value,
	"text": text,
	"shown": concat("", [text, " (from ", anchor.key, ")"]),
	"brief": text,
	"short": shown_value,
	"excess": 0,
	"key": anchor.key,
	"location": anchor.location,
} if {
	text := concat(" ", [label, shown_value])
}

# The controller listener's protocol is decided by an explicit
# listener.security.protocol.map, else by the listener's name
# (controller.listener.names): the key of the one that decides.
_protocol_anchor(node) := "listener.security.protocol.map" if {
	node.settings["listener.security.protocol.map"].source == "explicit"
} else := "controller.listener.names" if node.settings["controller.listener.names"]

# The inter-broker listener is inter.broker.listener.name when set, else the
# listener named after security.inter.broker.protocol (default PLAINTEXT):
# the key of the one that names it.
_inter_broker_key(node) := "inter.broker.listener.name" if {
	node.settings["inter.broker.listener.name"].source == "explicit"
} else := "security.inter.broker.protocol" if node.settings["security.inter.broker.protocol"]

_inter_broker_name(node) := upper(trim_space(s.value)) if {
	s := node.settings["inter.broker.listener.name"]
	s.source == "explicit"
	is_string(s.value)
} else := upper(trim_space(s.value)) if {
	not node.settings["inter.broker.listener.name"].source == "explicit"
	s := node.settings["security.inter.broker.protocol"]
	is_string(s.value)
}

_inter_broker_protocol(node) := node.protocol_map[_inter_broker_name(node)] if {
	node.settings["inter.broker.listener.name"].source == "explicit"
} else := _inter_broker_name(node)
