# An MSK cluster whose configuration is written as a heredoc. Each key of
# server_properties is reported at its own line of the heredoc.

locals {
  partitions = 6
}

resource "aws_msk_configuration" "main" {
  name           = "orders-staging"
  kafka_versions = ["3.9.x"]

  server_properties = <<-EOT
    auto.create.topics.enable=false
    num.partitions=${local.partitions}
    # Three replicas per partition cannot be placed on two brokers.
    # want: KFK1008
    default.replication.factor=3
    min.insync.replicas=1
    # want: KFK1008
    transaction.state.log.replication.factor=3
  EOT
}

resource "aws_msk_cluster" "main" {
  cluster_name           = "orders-staging"
  kafka_version          = "3.9.x"
  number_of_broker_nodes = 2

  broker_node_group_info {
    instance_type   = "kafka.m7g.large"
    client_subnets  = ["subnet-0a1b2c3d", "subnet-4e5f6a7b"]
    security_groups = ["sg-0123456789abcdef0"]
  }

  configuration_info {
    arn      = aws_msk_configuration.main.arn
    revision = aws_msk_configuration.main.latest_revision
  }

  encryption_info {
    encryption_in_transit {
      client_broker = "TLS"
      in_cluster    = true
    }
  }
}

resource "aws_msk_topic" "orders" {
  cluster_arn     = aws_msk_cluster.main.arn
  name            = "orders"
  partition_count = 6
  # want: KFK1008
  replication_factor = 3
  configs = jsonencode({
    "retention.ms" = "604800000"
  })
}
