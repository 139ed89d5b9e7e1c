# METADATA
# title: Kafka release comparisons
# description: |
#   Rules that depend on the Kafka release compare input.kafka_release
#   ([major, minor], parsed once by the loader); Rego arrays compare
#   element by element.
package kafkalint.lib.version

# at_least holds when the cluster targets Kafka major.minor or newer.
at_least(major, minor) if input.kafka_release >= [major, minor]
