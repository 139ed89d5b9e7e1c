module "msk" {
  source  = "terraform-aws-modules/msk-kafka-cluster/aws"
  version = "~> 2.0"

  name                       = "msk"
  kafka_version              = "3.9.x"
  number_of_broker_nodes     = 3
  broker_node_client_subnets = ["subnet-a", "subnet-b", "subnet-c"]

  encryption_in_transit_client_broker = "TLS"
  client_authentication = {
    sasl = { iam = true }
  }

  configuration_server_properties = {
    "auto.create.topics.enable" = true
    "min.insync.replicas"       = 2
  }

  topics = {
    orders = {
      partition_count    = 6
      replication_factor = 3
      configs            = jsonencode({ "min.insync.replicas" = "2" })
    }
    events = {
      name               = "domain-events"
      partition_count    = 3
      replication_factor = 4
    }
  }

  tags = {
    Environment = "production"
  }
}

module "external_config" {
  source = "git::https://github.com/terraform-aws-modules/terraform-aws-msk-kafka-cluster.git?ref=v2.3.0"

  number_of_broker_nodes = 3
  create_configuration   = false
  configuration_arn      = "arn:aws:kafka:eu-west-1:123456789012:configuration/x/y"
}

module "disabled" {
  source = "terraform-aws-modules/msk-kafka-cluster/aws"
  create = false
}

module "cloudposse" {
  source   = "cloudposse/msk-apache-kafka-cluster/aws"
  version  = "2.4.0"
  for_each = toset(["blue", "green"])

  name            = "cp-${each.key}"
  kafka_version   = "3.7.x"
  broker_per_zone = 2
  subnet_ids      = ["subnet-a", "subnet-b"]
  properties = {
    "default.replication.factor" = 3
  }
}

module "vpc" {
  source = "terraform-aws-modules/vpc/aws"
  name   = "not-kafka"
}
