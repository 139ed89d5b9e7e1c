package kafkalint.rules.consistency["cluster-setting-inconsistent_test"]

import data.kafkalint.lib.testing as t
import data.kafkalint.rules.consistency["cluster-setting-inconsistent"] as rule

# _defaults are the defaults the loader adds for the keys the rule reads.
_defaults := [
	["security.inter.broker.protocol", "PLAINTEXT", 0],
	["sasl.mechanism.inter.broker.protocol", "GSSAPI", 0],
	["authorizer.class.name", "", 0],
	["min.insync.replicas", 1, 0],
	["default.replication.factor", 1, 0],
	["unclean.leader.election.enable", false, 0],
]

_broker(file, entries) := t.with_settings(
	t.with_listeners(t.with_controller_names(t.node(file, ["broker"], _defaults), "CONTROLLER", 5), "PLAINTEXT://b:9092", 4),
	entries,
)

_controller(file, entries) := t.with_settings(
	t.with_listeners(t.with_controller_names(t.node(file, ["controller"], _defaults), "CONTROLLER", 5), "CONTROLLER://c:9093", 4),
	entries,
)

_why_min_isr := "min.insync.replicas is the minimum in-sync replica count for acks=all writes to topics without their own value, and the value in effect depends on which node leads the partition (or, for controllers, which controller is active), so durability changes with leadership."

_fix_broker := "Give every broker of the cluster the same value, from one template."

# _explained is an expected finding with its own why and fix.
_explained(finding, why) := object.union(finding, {"why": why, "fix": _fix_broker})

test_fail_odd_broker_min_insync_replicas_default if {
	nodes := [
		_broker("b1.properties", [["min.insync.replicas", 2, 9]]),
		_broker("b2.properties", []),
		_broker("b3.properties", [["min.insync.replicas", 2, 9]]),
		_controller("c1.properties", []),
	]
	message := "min.insync.replicas=1 (Kafka's default) on this broker, 2 on the other 2 brokers"
	why := sprintf("%s The other 2 brokers have min.insync.replicas=2: b1.properties, b3.properties.", [_why_min_isr])
	rule.report == {_explained(t.finding_related("b2.properties", 1, "min.insync.replicas", message, [["b1.properties", 9], ["b3.properties", 9]]), why)} with input as t.cluster(nodes, [])
}

test_fail_no_majority_reports_each if {
	nodes := [
		_broker("b1.properties", [["authorizer.class.name", "org.apache.kafka.metadata.authorizer.StandardAuthorizer", 8]]),
		_broker("b2.properties", []),
	]
	why := "Each node enforces ACLs with its own authorizer (a node without one allows every request), so the same client is allowed on some nodes and denied on others. No value is shared by most brokers; the others have "
	rule.report == {
		_explained(
			t.finding_related("b1.properties", 8, "authorizer.class.name", "authorizer.class.name=org.apache.kafka.metadata.authorizer.StandardAuthorizer on this broker, (none) on the other broker", [["b2.properties", 1]]),
			concat("", [why, "authorizer.class.name=(none) in b2.properties."]),
		),
		_explained(
			t.finding_related("b2.properties", 1, "authorizer.class.name", "authorizer.class.name=(none) (Kafka's default) on this broker, unlike the other broker", [["b1.properties", 8]]),
			concat("", [why, "authorizer.class.name=org.apache.kafka.metadata.authorizer.StandardAuthorizer in b1.properties."]),
		),
	} with input as t.cluster(nodes, [])
}

# With several values and no majority the message counts the values; the
# why lists them with their files.
test_fail_three_values_no_majority if {
	nodes := [
		_broker("b1.properties", [["default.replication.factor", 3, 9]]),
		_broker("b2.properties", [["default.replication.factor", 2, 9]]),
		_broker("b3.properties", []),
	]
	findings := rule.report with input as t.cluster(nodes, [])
	count(findings) == 3
	some f in findings
	f.location.file == "b2.properties"
	f.message == "default.replication.factor=2 on this broker; the 3 brokers have 3 different values"
	endswith(f.why, " No value is shared by most brokers; the others have default.replication.factor=1 in b3.properties; default.replication.factor=3 in b1.properties.")
}

test_fail_controller_listener_names if {
	nodes := [
		_controller("c1.properties", []),
		t.with_controller_names(_controller("c2.properties", []), "CTRL", 5),
		_controller("c3.properties", []),
	]
	{[f.location.file, f.location.line, f.key] | some f in rule.report} == {["c2.properties", 5, "controller.listener.names"]} with input as t.cluster(nodes, [])
}

test_fail_controller_listener_protocol if {
	implicit := {"PLAINTEXT": "PLAINTEXT", "SSL": "SSL", "SASL_PLAINTEXT": "SASL_PLAINTEXT", "SASL_SSL": "SASL_SSL", "CONTROLLER": "PLAINTEXT"}
	mapped := t.with_protocol_map(
		t.with_settings(_broker("b3.properties", []), [["listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:SSL", 6]]),
		{"PLAINTEXT": "PLAINTEXT", "CONTROLLER": "SSL"},
	)
	nodes := [t.with_protocol_map(_broker("b1.properties", []), implicit), t.with_protocol_map(_broker("b2.properties", []), implicit), mapped]
	reports := rule.report with input as t.cluster(nodes, [])
	{[f.location.file, f.location.line, f.key] | some f in reports} == {["b3.properties", 6, "listener.security.protocol.map"]}
	some f in reports

	# "(from listener.security.protocol.map)" does not fit in the message.
	f.message == "controller listener CONTROLLER SSL on this broker, CONTROLLER PLAINTEXT on the other 2 brokers"
	endswith(f.why, " This broker has controller listener CONTROLLER SSL (from listener.security.protocol.map). The other 2 brokers have controller listener CONTROLLER PLAINTEXT: b1.properties, b2.properties.")
}

test_fail_inter_broker_listener if {
	nodes := [
		_broker("b1.properties", [["inter.broker.listener.name", "internal", 7]]),
		_broker("b2.properties", [["inter.broker.listener.name", "INTERNAL", 7]]),
		_broker("b3.properties", []),
	]
	{[f.location.file, f.location.line, f.key] | some f in rule.report} == {["b3.properties", 1, "security.inter.broker.protocol"]} with input as t.cluster(nodes, [])
}

test_fail_sasl_mechanism_on_sasl_brokers if {
	sasl := [["security.inter.broker.protocol", "SASL_SSL", 7]]
	nodes := [
		_broker("b1.properties", array.concat(sasl, [["sasl.mechanism.inter.broker.protocol", "SCRAM-SHA-512", 8]])),
		_broker("b2.properties", array.concat(sasl, [["sasl.mechanism.inter.broker.protocol", "SCRAM-SHA-512", 8]])),
		_broker("b3.properties", array.concat(sasl, [["sasl.mechanism.inter.broker.protocol", "PLAIN", 8]])),
	]
	{[f.location.file, f.location.line, f.key] | some f in rule.report} == {["b3.properties", 8, "sasl.mechanism.inter.broker.protocol"]} with input as t.cluster(nodes, [])
}

test_success_sasl_mechanism_unused_without_sasl if {
	nodes := [_broker("b1.properties", [["sasl.mechanism.inter.broker.protocol", "PLAIN", 8]]), _broker("b2.properties", [])]
	count(rule.report) == 0 with input as t.cluster(nodes, [])
}

test_success_roles_compared_separately if {
	nodes := [
		_broker("b1.properties", [["min.insync.replicas", 2, 9], ["unclean.leader.election.enable", true, 10]]),
		_broker("b2.properties", [["min.insync.replicas", 2, 9], ["unclean.leader.election.enable", true, 10]]),
		_controller("c1.properties", []),
		_controller("c2.properties", []),
	]
	count(rule.report) == 0 with input as t.cluster(nodes, [])
}

test_success_same_effective_value if {
	nodes := [_broker("b1.properties", [["default.replication.factor", 1, 9]]), _broker("b2.properties", [])]
	count(rule.report) == 0 with input as t.cluster(nodes, [])
}

test_success_key_absent if {
	nodes := [
		t.with_listeners(t.node("b1.properties", ["broker"], []), "PLAINTEXT://b:9092", 4),
		t.with_listeners(t.with_controller_names(t.node("b2.properties", ["broker"], []), "CONTROLLER", 5), "PLAINTEXT://b:9092", 4),
	]
	count(rule.report) == 0 with input as t.cluster(nodes, [])
}

test_success_unknown_placeholder if {
	unknown := t.with_setting(
		t.with_setting(_broker("b2.properties", []), t.unknown_setting("b2.properties", "min.insync.replicas", "${env:MIN_ISR}", 9)),
		t.unknown_setting("b2.properties", "listener.security.protocol.map", "${env:MAP}", 6),
	)
	nodes := [_broker("b1.properties", [["min.insync.replicas", 2, 9], ["listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:SSL", 6]]), unknown]
	count(rule.report) == 0 with input as t.cluster(nodes, [])
}

test_success_platform_managed_key if {
	managed := object.union(_broker("b2.properties", [["inter.broker.listener.name", "REPLICATION-9091", 7]]), {"managed_keys": ["inter.broker.listener.name"]})
	nodes := [_broker("b1.properties", []), managed]
	count(rule.report) == 0 with input as t.cluster(nodes, [])
}

# A majority value of false must not read as "no majority" (it once made
# the two message clauses conflict and the whole evaluation fail).
test_fail_odd_broker_when_the_majority_value_is_false if {
	nodes := [
		_broker("b1.properties", [["unclean.leader.election.enable", false, 9]]),
		_broker("b2.properties", [["unclean.leader.election.enable", true, 9]]),
		_broker("b3.properties", [["unclean.leader.election.enable", false, 9]]),
	]
	findings := rule.report with input as t.cluster(nodes, [])
	[f.location.file | some f in findings] == ["b2.properties"]
	some f in findings
	f.message == "unclean.leader.election.enable=true on this broker, false on the other 2 brokers"
}

# A disagreement among many nodes (copied configs) lists the 10 nearest
# other parties and counts the rest, and its why names the first files only.
test_fail_many_brokers_capped if {
	files := [sprintf("b%02d.properties", [n]) | some n in numbers.range(1, 12)]
	nodes := array.concat(
		[_broker("b00.properties", [])],
		[_broker(f, [["min.insync.replicas", 2, 9]]) | some f in files],
	)
	message := "min.insync.replicas=1 (Kafka's default) on this broker, 2 on the other 12 brokers"
	why := sprintf(
		"%s The other 12 brokers have min.insync.replicas=2: b01.properties, b02.properties, b03.properties, b04.properties, b05.properties and 7 more.",
		[_why_min_isr],
	)
	expected := object.union(
		_explained(t.finding_related("b00.properties", 1, "min.insync.replicas", message, [[f, 9] | some f in array.slice(files, 0, 10)]), why),
		{"related_omitted": 2},
	)
	rule.report == {expected} with input as t.cluster(nodes, [])
}

_zk(file, entries) := t.with_settings(t.node(file, [], _defaults), entries)

# A message that would not fit names fewer values, never more than 120
# characters: here a long authorizer class on ZooKeeper-mode brokers, whose
# other value the why gives.
test_fail_long_values_fit_the_message if {
	long := "com.example.security.kafka.authorizer.CorporateAuthorizerV2"
	nodes := [
		_zk("z1.properties", [["authorizer.class.name", long, 8]]),
		_zk("z2.properties", [["authorizer.class.name", "kafka.security.authorizer.AclAuthorizer", 8]]),
		_zk("z3.properties", [["authorizer.class.name", "kafka.security.authorizer.AclAuthorizer", 8]]),
	]
	findings := rule.report with input as t.cluster(nodes, [])
	[f.message | some f in findings] == [sprintf("authorizer.class.name=%s, unlike the other 2 ZooKeeper brokers", [long])]
	some f in findings
	count(f.message) <= 120
	contains(f.why, "The other 2 ZooKeeper-mode brokers have authorizer.class.name=kafka.security.authorizer.AclAuthorizer: z2.properties, z3.properties.")
}

# The last resort names the setting only.
test_message_without_values_when_nothing_else_fits if {
	party := {"shown": concat("", ["authorizer.class.name=", concat("", ["x" | some _ in numbers.range(1, 90)])]), "excess": 0}
	d := {"parties": [{}, {}, {}], "groups": [{}, {}], "majority": [{}]}
	shared := {"reference": "authorizer.class.name=y", "short": "y", "excess": 0, "size": 2, "files": "a, b"}
	rule._message("authorizer.class.name", "zookeeper", d, shared, object.union(party, {"brief": party.shown})) == "authorizer.class.name on this ZooKeeper broker differs from the other 2 ZooKeeper brokers"
}

# Built with the loader (kafkalint.parse), not fixtures: one broker of three sets another min.insync.replicas.
test_loader_cluster_setting_inconsistent if {
	clusters := kafkalint.parse_files({
		"prod/kafka/b1.properties": `process.roles=broker
node.id=4
controller.quorum.voters=1@c1:9093,2@c2:9093,3@c3:9093
controller.listener.names=CONTROLLER
listeners=SSL://:9093
min.insync.replicas=2
`,
		"prod/kafka/b2.properties": `process.roles=broker
node.id=5
controller.quorum.voters=1@c1:9093,2@c2:9093,3@c3:9093
controller.listener.names=CONTROLLER
listeners=SSL://:9093
min.insync.replicas=2
`,
		"prod/kafka/b3.properties": `process.roles=broker
node.id=6
controller.quorum.voters=1@c1:9093,2@c2:9093,3@c3:9093
controller.listener.names=CONTROLLER
listeners=SSL://:9093
min.insync.replicas=1
`,
	})
	count(clusters) == 1
	reports := rule.report with input as clusters[0]
	{[f.location.file, f.location.line, object.get(f, "key", "")] | some f in reports} == {["prod/kafka/b3.properties", 6, "min.insync.replicas"]}
}

# The engine cuts a written value of over 60 characters to 61 in the
# message, so only the rest counts against the message's length.
test_excess_of_long_written_values if {
	long := concat("", ["x" | some _ in numbers.range(1, 80)])
	rule._excess(t.setting("b1.properties", "authorizer.class.name", long, 8), long) == 19
	rule._excess(t.setting("b1.properties", "authorizer.class.name", "kafka.security.authorizer.AclAuthorizer", 8), "kafka.security.authorizer.AclAuthorizer") == 0
	rule._excess(t.setting("b1.properties", "controller.listener.names", long, 5), upper(long)) == 0
}
