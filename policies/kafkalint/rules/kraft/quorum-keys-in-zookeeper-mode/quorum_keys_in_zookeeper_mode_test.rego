package kafkalint.rules.kraft["quorum-keys-in-zookeeper-mode_test"]

import data.kafkalint.lib.result
import data.kafkalint.lib.testing as t
import data.kafkalint.rules.kraft["quorum-keys-in-zookeeper-mode"] as rule

_finding(line, key, raw) := result.explain(
	t.finding("server.properties", line, key, sprintf("%s is set on a ZooKeeper-mode node, which has no KRaft quorum", [key])),
	sprintf(
		"%s=%s is set on a ZooKeeper-mode node (zookeeper.connect set, no process.roles). Kafka 3.9 only checks the entries' syntax and never uses them unless zookeeper.metadata.migration.enable=true, so this node has no KRaft quorum and the line describes none.",
		[key, raw],
	),
	"Remove it (a leftover from a KRaft template), or, if the cluster is being migrated to KRaft, set zookeeper.metadata.migration.enable=true and controller.listener.names on every broker as the migration guide says.",
)

_v39(cluster) := object.union(cluster, {"kafka_version": "3.9", "kafka_release": [3, 9]})

_zk_node(entries) := t.node("server.properties", [], array.concat([["broker.id", 1, 1], ["zookeeper.connect", "zk-1:2181", 2]], entries))

test_fail_leftover_voters if {
	node := t.with_voters(_zk_node([]), "1@localhost:9093", 4)
	rule.report == {_finding(4, "controller.quorum.voters", "1@localhost:9093")} with input as _v39(t.cluster([node], []))
}

test_fail_leftover_bootstrap_servers if {
	node := t.with_bootstrap(_zk_node([]), "controller-1:9093", 5)
	rule.report == {_finding(5, "controller.quorum.bootstrap.servers", "controller-1:9093")} with input as _v39(t.cluster([node], []))
}

test_fail_migration_flag_false if {
	node := t.with_voters(_zk_node([["zookeeper.metadata.migration.enable", "false", 3]]), "1@c1:9093", 4)
	count(rule.report) == 1 with input as _v39(t.cluster([node], []))
}

# Migrating to KRaft: the broker reaches the KRaft controllers with the list.
test_success_migrating if {
	node := t.with_voters(_zk_node([["zookeeper.metadata.migration.enable", "true", 3]]), "1@c1:9093", 4)
	count(rule.report) == 0 with input as _v39(t.cluster([node], []))
}

test_success_migration_flag_placeholder if {
	node := t.with_setting(
		t.with_voters(_zk_node([]), "1@c1:9093", 4),
		t.unknown_setting("server.properties", "zookeeper.metadata.migration.enable", "${env:MIGRATE}", 3),
	)
	count(rule.report) == 0 with input as _v39(t.cluster([node], []))
}

test_success_kraft_node if {
	node := t.with_voters(t.node("server.properties", ["broker"], [["node.id", 4, 1]]), "1@c1:9093", 4)
	count(rule.report) == 0 with input as _v39(t.cluster([node], []))
}

# Neither key set: nothing left over.
test_success_keys_absent if {
	count(rule.report) == 0 with input as _v39(t.cluster([_zk_node([])], []))
}

test_success_unknown_placeholder if {
	node := t.with_setting(_zk_node([]), t.unknown_setting("server.properties", "controller.quorum.voters", "${env:VOTERS}", 4))
	count(rule.report) == 0 with input as _v39(t.cluster([node], []))
}

# Kafka 4 has no ZooKeeper mode: the file cannot start (KFK9007).
test_success_kafka_4 if {
	node := t.with_voters(_zk_node([]), "1@localhost:9093", 4)
	count(rule.report) == 0 with input as object.union(t.cluster([node], []), {"kafka_version": "4.0", "kafka_release": [4, 0]})
}

# Built with the loader: a ZooKeeper-mode broker of a docker-compose file
# whose image (Confluent Platform 7.7: Kafka 3.7) gives the version, with a
# leftover single-voter list, is reported here and not as a quorum of one.
test_loader_zookeeper_broker_with_leftover_voters if {
	input_cluster := kafkalint.parse("", "prod/docker-compose.yml", `services:
  kafka:
    image: confluentinc/cp-kafka:7.7.1
    environment:
      KAFKA_BROKER_ID: 1
      KAFKA_ZOOKEEPER_CONNECT: zookeeper:2181
      KAFKA_LISTENERS: SSL://:9093
      KAFKA_CONTROLLER_QUORUM_VOTERS: 1@localhost:9093
`)
	reports := rule.report with input as input_cluster
	{[f.location.file, f.location.line, object.get(f, "key", "")] | some f in reports} == {["prod/docker-compose.yml", 8, "controller.quorum.voters"]}
	count(data.kafkalint.rules.kraft["quorum-too-few-voters"].report) == 0 with input as input_cluster
}
