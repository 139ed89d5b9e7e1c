# An MSK cluster whose brokers also accept clients in clear text.
resource "aws_msk_configuration" "events" {
  name           = "events"
  kafka_versions = ["3.9.x"]

  server_properties = <<-EOT
    auto.create.topics.enable = false
    default.replication.factor = 3
    min.insync.replicas = 2
  EOT
}

resource "aws_msk_cluster" "events" {
  cluster_name           = "events"
  kafka_version          = "3.9.x"
  number_of_broker_nodes = 3

  broker_node_group_info {
    instance_type   = "kafka.m7g.large"
    client_subnets  = ["subnet-a", "subnet-b", "subnet-c"]
    security_groups = ["sg-kafka"]
  }

  configuration_info {
    arn      = aws_msk_configuration.events.arn
    revision = aws_msk_configuration.events.latest_revision
  }

  encryption_info {
    encryption_in_transit {
      # want: KFK2001
      client_broker = "TLS_PLAINTEXT"
      in_cluster    = true
    }
  }
}
