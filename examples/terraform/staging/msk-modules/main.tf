# The well-known MSK modules: their inputs say what the cluster will be.

module "payments" {
  source  = "terraform-aws-modules/msk-kafka-cluster/aws"
  version = "~> 2.0"

  name                   = "payments-staging"
  kafka_version          = "3.9.x"
  number_of_broker_nodes = 2

  broker_node_client_subnets  = ["subnet-0a1b2c3d", "subnet-4e5f6a7b"]
  broker_node_instance_type   = "kafka.m7g.large"
  broker_node_security_groups = ["sg-0123456789abcdef0"]

  configuration_server_properties = {
    "auto.create.topics.enable" = false
    # want: KFK1008
    "default.replication.factor" = 3
    "min.insync.replicas"        = 1
  }
}

module "audit" {
  source  = "cloudposse/msk-apache-kafka-cluster/aws"
  version = "2.4.0"

  name                 = "audit-staging"
  kafka_version        = "3.7.x"
  broker_instance_type = "kafka.t3.small"
  vpc_id               = "vpc-0123456789abcdef0"
  # one broker in each of two zones: two brokers
  broker_per_zone = 1
  subnet_ids      = ["subnet-0a1b2c3d", "subnet-4e5f6a7b"]

  properties = {
    # want: KFK1008
    "transaction.state.log.replication.factor" = 3
    "transaction.state.log.min.isr"            = 2
  }
}
