# An MSK module at the repository root: its examples call it with source = "../..".

# Create-before-destroy: a new configuration name whenever the properties change.
resource "random_id" "configuration" {
  byte_length = 4
  keepers = {
    server_properties = join("\n", [for k, v in var.server_properties : format("%s = %s", k, v)])
  }
}

resource "aws_msk_configuration" "this" {
  name              = "kafka-${random_id.configuration.hex}"
  server_properties = random_id.configuration.keepers.server_properties
}

resource "aws_msk_cluster" "this" {
  cluster_name           = "kafka"
  kafka_version          = var.kafka_version
  number_of_broker_nodes = var.number_of_broker_nodes

  configuration_info {
    arn      = aws_msk_configuration.this.arn
    revision = aws_msk_configuration.this.latest_revision
  }
}

resource "aws_msk_topic" "this" {
  for_each           = var.topics
  name               = each.key
  cluster_arn        = aws_msk_cluster.this.arn
  replication_factor = each.value
  partition_count    = 3
}

module "sub" {
  source = "./modules/kafka"
  name   = "sub"
}
