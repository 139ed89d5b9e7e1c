# Conftest policies equivalent to kafkalint's single-file rules, for the
# speed comparison in bench/compare.sh (not a product: kafkalint is).
#
# Conftest parses a .properties file into one flat object of strings
# ({"offsets.topic.replication.factor": "1", ...}) and evaluates it on its
# own. So these rules check what one file says, the way a team writing its
# own conftest policies would. What conftest cannot do, and kafkalint does
# (README "Performance"): report the file:line of a finding (conftest names
# only the file), see a key written twice (the parser keeps the last), know
# a file's environment (production-only rules fire everywhere here), know
# Kafka's defaults or catalog (typing, unknown and removed keys), and
# look across files (one cluster's voters, node ids, listeners, clients
# against brokers).
package main

import rego.v1

setting(key) := trim_space(input[key])

number(key) := to_number(setting(key)) if regex.match(`^-?[0-9]+$`, setting(key))

# A server config: process.roles, or a ZooKeeper-era broker.
roles := {trim_space(r) | some r in split(setting("process.roles"), ",")}

# A meta.properties (cluster.id and version, written by kafka-storage.sh) is
# no server config even though it holds node.id or broker.id.
is_meta if {
	input["cluster.id"]
	input.version
}

is_node if input["process.roles"]

is_node if {
	input["broker.id"]
	not is_meta
}

is_node if input["zookeeper.connect"]

is_broker if "broker" in roles

is_broker if {
	not input["process.roles"]
	is_node
}

is_controller if "controller" in roles

is_producer if input.acks

is_producer if input["enable.idempotence"]

is_producer if input["key.serializer"]

voters := [trim_space(v) | some v in split(setting("controller.quorum.voters"), ","); trim_space(v) != ""]

voter_ids := {id |
	some v in voters
	[id, _] := split(v, "@")
}

# KFK1001 offsets-topic-replication-factor-one
deny contains "KFK1001 offsets.topic.replication.factor=1: __consumer_offsets gets a single replica" if {
	is_broker
	number("offsets.topic.replication.factor") == 1
}

# KFK1002 transaction-state-log-replication-factor-one
deny contains "KFK1002 transaction.state.log.replication.factor=1: __transaction_state gets a single replica" if {
	is_broker
	number("transaction.state.log.replication.factor") == 1
}

# KFK1003 min-insync-replicas-not-below-replication-factor (written values only)
deny contains sprintf("KFK1003 min.insync.replicas=%d is not below default.replication.factor=%d", [m, rf]) if {
	is_node
	m := number("min.insync.replicas")
	rf := number("default.replication.factor")
	m >= rf
}

# KFK1004 min-insync-replicas-one
deny contains "KFK1004 min.insync.replicas=1 with a replication factor of 3 or more" if {
	is_node
	number("min.insync.replicas") == 1
	number("default.replication.factor") >= 3
}

# KFK1006 producer-idempotence-conflict
deny contains sprintf("KFK1006 acks=%s with enable.idempotence=true", [setting("acks")]) if {
	is_producer
	lower(setting("enable.idempotence")) == "true"
	setting("acks") in {"0", "1"}
}

deny contains "KFK1006 retries=0 with enable.idempotence=true" if {
	is_producer
	lower(setting("enable.idempotence")) == "true"
	number("retries") == 0
}

deny contains "KFK1006 max.in.flight.requests.per.connection above 5 with idempotence" if {
	is_producer
	lower(setting("enable.idempotence")) != "false"
	number("max.in.flight.requests.per.connection") > 5
}

# KFK1007 unclean-leader-election-enabled
deny contains "KFK1007 unclean.leader.election.enable=true" if {
	lower(setting("unclean.leader.election.enable")) == "true"
}

# KFK1009 transaction-state-log-min-isr-not-below-rf
deny contains "KFK1009 transaction.state.log.min.isr is not below its replication factor" if {
	is_broker
	rf := number("transaction.state.log.replication.factor")
	rf > 1
	number("transaction.state.log.min.isr") >= rf
}

# KFK2002 allow-everyone-if-no-acl
deny contains "KFK2002 allow.everyone.if.no.acl.found=true" if {
	lower(setting("allow.everyone.if.no.acl.found")) == "true"
}

# KFK3001 quorum-too-few-voters
deny contains sprintf("KFK3001 controller.quorum.voters defines %d voters", [count(voter_ids)]) if {
	is_controller
	count(voter_ids) in {1, 2}
}

# KFK3002 quorum-even-voter-count
deny contains sprintf("KFK3002 controller.quorum.voters defines %d voters", [count(voter_ids)]) if {
	is_controller
	count(voter_ids) >= 4
	count(voter_ids) % 2 == 0
}

# KFK3003 quorum-static-and-dynamic-mixed
deny contains "KFK3003 controller.quorum.bootstrap.servers set together with controller.quorum.voters" if {
	setting("controller.quorum.voters") != ""
	setting("controller.quorum.bootstrap.servers") != ""
}

# KFK3005 combined-roles-in-production
deny contains "KFK3005 process.roles=broker,controller in production" if {
	is_broker
	is_controller
}

# KFK3006 quorum-not-configured
deny contains "KFK3006 process.roles is set but no controller quorum is" if {
	count(roles) > 0
	setting("controller.quorum.voters") == ""
	setting("controller.quorum.bootstrap.servers") == ""
}

# KFK3007 quorum-voters-malformed
deny contains sprintf("KFK3007 controller.quorum.voters entry %q is malformed", [v]) if {
	some v in voters
	not regex.match(`^[0-9]+@(\[[0-9A-Fa-f:]+\]|[^:@\s]+):[0-9]+$`, v)
}

# KFK4001 controlled-shutdown-disabled
deny contains "KFK4001 controlled.shutdown.enable=false" if {
	is_broker
	lower(setting("controlled.shutdown.enable")) == "false"
}

# KFK4002 controlled-shutdown-not-explicit
warn contains "KFK4002 controlled.shutdown.enable is not set explicitly" if {
	is_broker
	not input["controlled.shutdown.enable"]
}

# KFK4003 auto-leader-rebalance-disabled
warn contains "KFK4003 auto.leader.rebalance.enable=false" if {
	is_node
	lower(setting("auto.leader.rebalance.enable")) == "false"
}

# KFK2001-like: a client listener without TLS (the listener's name as its protocol).
warn contains sprintf("KFK2001 listener %s uses PLAINTEXT", [l]) if {
	is_broker
	some l in split(setting("listeners"), ",")
	startswith(upper(trim_space(l)), "PLAINTEXT://")
}
