# Heredocs: plain and indented, with interpolations, an escaped ${, comments.
variable "retention_hours" {
  type    = number
  default = 168
}

locals {
  min_isr = 2
}

resource "aws_msk_configuration" "plain" {
  name           = "plain"
  kafka_versions = ["3.6.0"]
  server_properties = <<EOT
# retention comes from a variable
log.retention.hours=${var.retention_hours}
min.insync.replicas = ${local.min_isr}
default.replication.factor=3
ssl.endpoint.identification.algorithm=$${not_interpolated}
default.replication.factor=2
unclean.leader.election.enable=${data.aws_ssm_parameter.unclean.value}
EOT
}

resource "aws_msk_configuration" "indented" {
  name           = "indented"
  kafka_versions = ["3.9.x"]
  server_properties = <<-EOT
      auto.create.topics.enable = false
      # kafkalint:ignore KFK1004 -- reason
      num.partitions = 3
  EOT
}

resource "aws_msk_cluster" "twin" {
  count                  = 2
  cluster_name           = "twin-${count.index}"
  kafka_version          = "3.9.x"
  number_of_broker_nodes = 3

  broker_node_group_info {
    instance_type   = "kafka.m5.large"
    client_subnets  = ["subnet-a", "subnet-b", "subnet-c"]
    security_groups = ["sg-1"]
  }

  configuration_info {
    arn      = aws_msk_configuration.indented.arn
    revision = aws_msk_configuration.indented.latest_revision
  }

  client_authentication {
    unauthenticated = false
    sasl {
      iam = true
    }
  }
}

resource "aws_msk_configuration" "quoted" {
  name              = "quoted"
  kafka_versions    = ["3.5.1"]
  server_properties = "num.io.threads=8\nnum.network.threads=5"
}
