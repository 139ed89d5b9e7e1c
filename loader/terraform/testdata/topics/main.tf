resource "aws_msk_cluster" "main" {
  cluster_name           = "main"
  kafka_version          = "3.9.x"
  number_of_broker_nodes = 3

  broker_node_group_info {
    instance_type   = "kafka.m5.large"
    client_subnets  = ["subnet-a", "subnet-b", "subnet-c"]
    security_groups = ["sg-1"]
  }
}

provider "kafka" {
  alias             = "msk"
  bootstrap_servers = split(",", aws_msk_cluster.main.bootstrap_brokers_tls)
}

provider "kafka" {
  bootstrap_servers = ["localhost:9092"]
}

locals {
  topics = {
    orders   = { rf = 3, partitions = 12 }
    payments = { rf = 2, partitions = 6, config = { "min.insync.replicas" = "2" } }
  }
}

resource "kafka_topic" "on_msk" {
  provider           = kafka.msk
  for_each           = local.topics
  name               = each.key
  replication_factor = each.value.rf
  partitions         = each.value.partitions
  config             = lookup(each.value, "config", {})
}

resource "kafka_topic" "local" {
  name               = "local"
  replication_factor = 1
  partitions         = 1
  config = {
    "cleanup.policy" = "compact" // trailing comment
  }
}

resource "kafka_topic" "dynamic" {
  for_each           = var.topics
  name               = each.key
  replication_factor = each.value.rf
  partitions         = 1
  config             = each.value.config
}

resource "confluent_kafka_cluster" "basic" {
  display_name = "basic"
  availability = "SINGLE_ZONE"
  basic {}
}

resource "confluent_kafka_topic" "orders" {
  kafka_cluster {
    id = confluent_kafka_cluster.basic.id
  }
  topic_name       = "orders"
  partitions_count = 4
  config = {
    "min.insync.replicas" = "1"
  }
}

resource "aws_msk_topic" "audit" {
  cluster_arn        = aws_msk_cluster.main.arn
  name               = "audit"
  partition_count    = 3
  replication_factor = 3
  configs = jsonencode({
    "retention.ms"        = "86400000"
    "min.insync.replicas" = "2"
  })
}
