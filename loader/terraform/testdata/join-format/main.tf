variable "properties" {
  type = map(string)
  default = {
    "min.insync.replicas" = 1
  }
}

variable "brokers" {
  type    = number
  default = 6
}

variable "extra" {
  type = map(string)
}

locals {
  base = {
    "auto.create.topics.enable"  = false
    "default.replication.factor" = 3
  }
  merged = merge(local.base, var.properties, {
    "log.retention.ms" = tostring(7 * 24 * 3600 * 1000)
  })
  prefix = upper("x")
}

# The terraform-aws-modules idiom.
resource "aws_msk_configuration" "modules_style" {
  name              = "modules-style"
  kafka_versions    = ["3.9.x"]
  server_properties = join("\n", [for k, v in local.merged : format("%s = %s", k, v)])
}

# The cloudposse idiom, over a map with an unknown value.
resource "aws_msk_configuration" "cloudposse_style" {
  name              = "cloudposse-style"
  kafka_versions    = ["3.9.x"]
  server_properties = join("\n", [for k in keys(var.extra) : format("%s = %s", k, var.extra[k])])
}

# Unknown as a whole.
resource "aws_msk_configuration" "unknown" {
  name              = "unknown"
  kafka_versions    = ["3.9.x"]
  server_properties = data.aws_s3_object.props.body
}

resource "aws_msk_cluster" "main" {
  cluster_name           = "main"
  kafka_version          = lookup({ a = "3.9.x" }, "a", "3.8.x")
  number_of_broker_nodes = var.brokers

  broker_node_group_info {
    instance_type   = "kafka.m5.large"
    client_subnets  = ["subnet-a", "subnet-b", "subnet-c"]
    security_groups = ["sg-1"]
  }

  configuration_info {
    arn      = aws_msk_configuration.modules_style.arn
    revision = 1
  }
}

resource "aws_msk_cluster" "external" {
  cluster_name           = "external"
  kafka_version          = "3.9.x"
  number_of_broker_nodes = 3

  broker_node_group_info {
    instance_type   = "kafka.m5.large"
    client_subnets  = ["subnet-a", "subnet-b", "subnet-c"]
    security_groups = ["sg-1"]
  }

  configuration_info {
    arn      = "arn:aws:kafka:eu-west-1:123456789012:configuration/shared/abc"
    revision = 1
  }
}
