package kafkalint.rules.hygiene["kafka-refuses-to-start_test"]

# Tests of group_coordinator.rego.

test_fail_group_max_session_below_min if {
	c := _at("4.3", [_int(_int(_quorum_broker, "group.consumer.min.session.timeout.ms", 20, 9), "group.consumer.max.session.timeout.ms", 10, 10)])
	some f in _reports(c)
	f.location.line == 10
	contains(f.message, "group.consumer.max.session.timeout.ms must be greater than or equal to group.consumer.min.session.timeout.ms")
}

test_fail_group_words_before_4_0 if {
	_fires(_at("3.9", [_int(_quorum_broker, "group.consumer.heartbeat.interval.ms", 20000, 9)]), 9, "group.consumer.heartbeat.interval.ms", "group.consumer.heartbeat.interval.ms must be less than or equals to group.consumer.max.heartbeat.interval.ms")
}

test_fail_group_heartbeat_not_below_session_4_0 if {
	c := _at("4.0", [_int(_int(_quorum_broker, "group.consumer.min.session.timeout.ms", 1000, 9), "group.consumer.session.timeout.ms", 5000, 10)])
	_fires(c, 10, "group.consumer.session.timeout.ms", "group.consumer.heartbeat.interval.ms must be less than group.consumer.session.timeout.ms")
}

test_success_group_heartbeat_equal_session_3_9 if {
	_silent(_at("3.9", [_int(_int(_quorum_broker, "group.consumer.min.session.timeout.ms", 1000, 9), "group.consumer.session.timeout.ms", 5000, 10)]))
}

test_fail_share_group_session_above_max_4_0 if {
	c := _at("4.0", [_int(_int(_quorum_broker, "group.share.max.session.timeout.ms", 20, 9), "group.share.session.timeout.ms", 25, 10)])
	some f in _reports(c)
	f.location.line == 10
	contains(f.message, "group.share.session.timeout.ms must be less than or equal to group.share.max.session.timeout.ms")
}

test_success_share_group_before_4_0 if {
	_silent(_at("3.9", [_int(_int(_quorum_broker, "group.share.max.session.timeout.ms", 20, 9), "group.share.session.timeout.ms", 25, 10)]))
}

test_fail_streams_group_heartbeat_not_below_session_4_1 if {
	c := _at("4.1", [_int(_int(_quorum_broker, "group.streams.min.session.timeout.ms", 1000, 9), "group.streams.session.timeout.ms", 5000, 10)])
	_fires(c, 10, "group.streams.session.timeout.ms", "group.streams.heartbeat.interval.ms must be less than group.streams.session.timeout.ms")
}

test_success_streams_group_before_4_1 if {
	_silent(_at("4.0", [_int(_int(_quorum_broker, "group.streams.min.session.timeout.ms", 1000, 9), "group.streams.session.timeout.ms", 5000, 10)]))
}

test_success_group_within_limits if _silent(_at("4.3", [_int(_quorum_broker, "group.consumer.session.timeout.ms", 50000, 9)]))

test_success_group_placeholder if {
	_silent(_at("4.3", [_unknown(_int(_quorum_broker, "group.consumer.session.timeout.ms", 90000, 9), "group.consumer.max.session.timeout.ms", 10)]))
}
