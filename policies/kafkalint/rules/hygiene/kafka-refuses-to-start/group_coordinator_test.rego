package kafkalint.rules.hygiene["kafka-refuses-to-start_test"]

# Tests of group_coordinator.rego.

test_fail_group_max_session_below_min if {
	c := _at("4.3", [_int(_int(_quorum_broker, "group.consumer.min.session.timeout.ms", 20, 9), "group.consumer.max.session.timeout.ms", 10, 10)])
	some f in _reports(c)
	f.location.line == 10
	f.message == "group.consumer.max.session.timeout.ms=10 is not >= group.consumer.min.session.timeout.ms=20"
	contains(f.why, "(\"group.consumer.max.session.timeout.ms must be greater than or equal to group.consumer.min.session.timeout.ms\")")
	f.fix == "Raise group.consumer.max.session.timeout.ms to at least 20, or lower group.consumer.min.session.timeout.ms to at most 10 (keep every group coordinator limit within its min/max pair)."
	_explained(f)
}

test_fail_group_words_before_4_0 if {
	c := _at("3.9", [_int(_quorum_broker, "group.consumer.heartbeat.interval.ms", 20000, 9)])
	_refuses(c, 9, "group.consumer.heartbeat.interval.ms", "group.consumer.heartbeat.interval.ms=20000 is not <= group.consumer.max.heartbeat.interval.ms=15000", "pair when the node starts. group.consumer.max.heartbeat.interval.ms=15000 is Kafka's default. Kafka 3.9 refuses to start (\"group.consumer.heartbeat.interval.ms must be less than or equals to group.consumer.max.heartbeat.interval.ms\").")
	some f in _reports(c)
	startswith(f.fix, "Lower group.consumer.heartbeat.interval.ms to at most 15000, or raise group.consumer.max.heartbeat.interval.ms to at least 20000")
}

test_fail_group_heartbeat_not_below_session_4_0 if {
	c := _at("4.0", [_int(_int(_quorum_broker, "group.consumer.min.session.timeout.ms", 1000, 9), "group.consumer.session.timeout.ms", 5000, 10)])
	_refuses(c, 10, "group.consumer.session.timeout.ms", "group.consumer.heartbeat.interval.ms=5000 is not < group.consumer.session.timeout.ms=5000", "group.consumer.heartbeat.interval.ms must be less than group.consumer.session.timeout.ms")
	some f in _reports(c)
	startswith(f.fix, "Lower group.consumer.heartbeat.interval.ms below 5000, or raise group.consumer.session.timeout.ms above 5000")
}

test_success_group_heartbeat_equal_session_3_9 if {
	_silent(_at("3.9", [_int(_int(_quorum_broker, "group.consumer.min.session.timeout.ms", 1000, 9), "group.consumer.session.timeout.ms", 5000, 10)]))
}

test_fail_share_group_session_above_max_4_0 if {
	c := _at("4.0", [_int(_int(_quorum_broker, "group.share.max.session.timeout.ms", 20, 9), "group.share.session.timeout.ms", 25, 10)])
	some f in _reports(c)
	f.location.line == 10
	contains(f.why, "group.share.session.timeout.ms must be less than or equal to group.share.max.session.timeout.ms")
	_explained(f)
}

test_success_share_group_before_4_0 if {
	_silent(_at("3.9", [_int(_int(_quorum_broker, "group.share.max.session.timeout.ms", 20, 9), "group.share.session.timeout.ms", 25, 10)]))
}

test_fail_streams_group_heartbeat_not_below_session_4_1 if {
	c := _at("4.1", [_int(_int(_quorum_broker, "group.streams.min.session.timeout.ms", 1000, 9), "group.streams.session.timeout.ms", 5000, 10)])
	_refuses(c, 10, "group.streams.session.timeout.ms", "group.streams.heartbeat.interval.ms=5000 is not < group.streams.session.timeout.ms=5000", "group.streams.heartbeat.interval.ms must be less than group.streams.session.timeout.ms")
}

test_success_streams_group_before_4_1 if {
	_silent(_at("4.0", [_int(_int(_quorum_broker, "group.streams.min.session.timeout.ms", 1000, 9), "group.streams.session.timeout.ms", 5000, 10)]))
}

test_success_group_within_limits if _silent(_at("4.3", [_int(_quorum_broker, "group.consumer.session.timeout.ms", 50000, 9)]))

test_success_group_placeholder if {
	_silent(_at("4.3", [_unknown(_int(_quorum_broker, "group.consumer.session.timeout.ms", 90000, 9), "group.consumer.max.session.timeout.ms", 10)]))
}

# --- streams standby replicas (4.1+)

test_fail_streams_standby_above_max_4_1 if {
	_refuses(_at("4.1", [_int(_quorum_broker, "group.streams.num.standby.replicas", 3, 9)]), 9, "group.streams.num.standby.replicas", "group.streams.num.standby.replicas=3 is not <= group.streams.max.standby.replicas=2", "group.streams.num.standby.replicas must be less than or equal to group.streams.max.standby.replicas")
}

test_success_streams_standby_at_max if _silent(_at("4.3", [_int(_quorum_broker, "group.streams.num.standby.replicas", 2, 9)]))

test_success_streams_standby_before_4_1 if _silent(_at("4.0", [_int(_quorum_broker, "group.streams.num.standby.replicas", 3, 9)]))

test_success_streams_standby_placeholder if {
	_silent(_at("4.3", [_unknown(_int(_quorum_broker, "group.streams.num.standby.replicas", 3, 9), "group.streams.max.standby.replicas", 10)]))
}

# --- assignment intervals (4.3+)

test_fail_consumer_assignment_interval_above_max_4_3 if {
	_refuses(_at("4.3", [_int(_quorum_broker, "group.consumer.assignment.interval.ms", 20000, 9)]), 9, "group.consumer.assignment.interval.ms", "group.consumer.assignment.interval.ms=20000 is not <=", "group.consumer.assignment.interval.ms must be less than or equal to group.consumer.max.assignment.interval.ms")
}

test_fail_share_assignment_interval_below_min_4_3 if {
	_refuses(_at("4.3", [_int(_quorum_broker, "group.share.min.assignment.interval.ms", 2000, 9)]), 9, "group.share.min.assignment.interval.ms", "group.share.assignment.interval.ms=1000 is not >= group.share.min.assignment.interval.ms=2000", "group.share.assignment.interval.ms must be greater than or equal to group.share.min.assignment.interval.ms")
}

test_fail_streams_max_assignment_interval_below_min_4_3 if {
	c := _at("4.3", [_int(_int(_int(_quorum_broker, "group.streams.min.assignment.interval.ms", 500, 9), "group.streams.max.assignment.interval.ms", 400, 10), "group.streams.assignment.interval.ms", 450, 11)])
	some f in _reports(c)
	f.location.line == 10
	contains(f.why, "group.streams.max.assignment.interval.ms must be greater than or equal to group.streams.min.assignment.interval.ms")
	_explained(f)
}

test_success_assignment_interval_within_limits if {
	c := _at("4.3", [_int(_int(_int(_quorum_broker, "group.consumer.assignment.interval.ms", 500, 9), "group.consumer.min.assignment.interval.ms", 400, 10), "group.consumer.max.assignment.interval.ms", 600, 11)])
	_silent(c)
}

test_success_assignment_interval_before_4_3 if _silent(_at("4.2", [_int(_quorum_broker, "group.consumer.assignment.interval.ms", 20000, 9)]))

test_success_assignment_interval_placeholder if {
	_silent(_at("4.3", [_unknown(_int(_quorum_broker, "group.consumer.assignment.interval.ms", 20000, 9), "group.consumer.max.assignment.interval.ms", 10)]))
}

# --- share group assignors (4.1+)

test_fail_share_assignors_two_4_1 if {
	_refuses(_at("4.1", [_with(_quorum_broker, [["group.share.assignors", "simple, com.example.Custom", 9]])]), 9, "group.share.assignors", "group.share.assignors=simple, com.example.Custom names 2 assignors, not one", "group.share.assignors must contain exactly one assignor, but found 2")
}

test_success_share_assignors_one if _silent(_at("4.3", [_with(_quorum_broker, [["group.share.assignors", "com.example.Custom", 9]])]))

test_success_share_assignors_absent if _silent(_at("4.3", [_quorum_broker]))

test_success_share_assignors_before_4_1 if _silent(_at("4.0", [_with(_quorum_broker, [["group.share.assignors", "simple,com.example.Custom", 9]])]))

test_success_share_assignors_placeholder if _silent(_at("4.3", [_unknown(_quorum_broker, "group.share.assignors", 9)]))

# With none of the keys written every default pair holds, on every version.
test_success_group_limits_absent if {
	every v in ["3.8", "4.0", "4.1", "4.3"] {
		_silent(_at(v, [_quorum_broker]))
	}
}
