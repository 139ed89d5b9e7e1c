resource "kafka_topic" "good" {
  name               = "good"
  replication_factor = 3
  partitions         = 3
}
