# The server properties are built from a map, as the MSK modules do:
# join("\n", [for k, v in local.properties : format("%s = %s", k, v)]).
# Each key is reported at its entry of the map.

variable "brokers" {
  type    = number
  default = 3
}

locals {
  properties = {
    "auto.create.topics.enable" = false
    "default.replication.factor" = 2
    # want: KFK1008
    "offsets.topic.replication.factor" = 3
    "min.insync.replicas"              = 1
    "log.retention.hours"              = var.retention_hours
  }
}

resource "aws_msk_configuration" "events" {
  name              = "events-staging"
  kafka_versions    = ["3.8.x"]
  server_properties = join("\n", [for k, v in local.properties : format("%s = %s", k, v)])
}

resource "aws_msk_cluster" "events" {
  cluster_name           = "events-staging"
  kafka_version          = "3.8.x"
  number_of_broker_nodes = var.brokers # 2, from terraform.tfvars

  broker_node_group_info {
    instance_type   = "kafka.t3.small"
    client_subnets  = ["subnet-0a1b2c3d", "subnet-4e5f6a7b"]
    security_groups = ["sg-0123456789abcdef0"]
  }

  configuration_info {
    arn      = aws_msk_configuration.events.arn
    revision = 1
  }
}

variable "retention_hours" {
  type = number
}
