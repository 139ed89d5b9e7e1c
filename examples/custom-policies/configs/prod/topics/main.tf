# Production topics: at most 7 days of retention (ACME001, maximum in
# thresholds.yaml).

resource "kafka_topic" "orders" {
  name               = "orders"
  replication_factor = 3
  partitions         = 12

  config = {
    "retention.ms" = "2592000000" # want: ACME001
  }
}

resource "kafka_topic" "audit" {
  name               = "audit"
  replication_factor = 3
  partitions         = 3

  config = {
    # -1 keeps data forever.
    # want: ACME001
    "retention.ms" = "-1"
  }
}

resource "kafka_topic" "clicks" {
  name               = "clicks"
  replication_factor = 3
  partitions         = 24

  config = {
    "retention.ms" = "86400000"
  }
}
