resource "kafka_topic" "example" {
  name: "example"
  replication_factor = 1
}
