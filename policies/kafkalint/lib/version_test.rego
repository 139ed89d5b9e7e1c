package kafkalint.lib.version_test

import data.kafkalint.lib.version

test_at_least if {
	version.at_least(4, 0) with input as {"kafka_release": [4, 0]}
	version.at_least(4, 0) with input as {"kafka_release": [4, 3]}
	version.at_least(3, 9) with input as {"kafka_release": [10, 0]}
	not version.at_least(4, 0) with input as {"kafka_release": [3, 9]}
	not version.at_least(3, 10) with input as {"kafka_release": [3, 9]}
}
