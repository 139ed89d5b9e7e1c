# Topics managed with the Mongey/kafka and Confluent providers. Each topic is
# checked against its own replication factor and min.insync.replicas.

provider "kafka" {
  bootstrap_servers = ["kafka-1.prod.example.com:9092", "kafka-2.prod.example.com:9092", "kafka-3.prod.example.com:9092"]
  tls_enabled       = true
}

locals {
  topics = {
    orders = {
      partitions = 12
      # min.insync.replicas=1 with three replicas: the leader alone acknowledges acks=all writes.
      # want: KFK1004
      min_isr = 1
    }
    payments = {
      partitions = 6
      min_isr    = 2
    }
  }
}

resource "kafka_topic" "service" {
  for_each = local.topics

  name               = each.key
  replication_factor = 3
  partitions         = each.value.partitions

  config = {
    "min.insync.replicas" = each.value.min_isr
    "cleanup.policy"      = "delete"
  }
}

resource "kafka_topic" "audit" {
  name               = "audit"
  replication_factor = 2 # want: KFK5001
  partitions         = 3

  config = {
    # min.insync.replicas equal to the replication factor: one replica down stops acks=all writes.
    # want: KFK1003
    "min.insync.replicas" = "2"
  }
}

resource "confluent_kafka_topic" "invoices" {
  kafka_cluster {
    id = "lkc-abc123"
  }
  topic_name       = "invoices"
  partitions_count = 6

  config = {
    # Confluent Cloud keeps 3 replicas of every topic.
    # want: KFK1004
    "min.insync.replicas" = "1"
  }
}
