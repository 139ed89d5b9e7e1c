variable "env" {
  type    = string
  default = "staging"
}

resource "aws_msk_configuration" "cfg" {
  name              = "cfg"
  kafka_versions    = ["3.9.x"]
  server_properties = "default.replication.factor=3"
}

resource "aws_msk_cluster" "tagged" {
  cluster_name           = "tagged"
  kafka_version          = "3.9.x"
  number_of_broker_nodes = 3
  configuration_info {
    arn      = aws_msk_configuration.cfg.arn
    revision = 1
  }
  tags = {
    Name        = "tagged"
    Environment = "prod-eu"
  }
}

resource "kafka_topic" "by_variable" {
  name               = "by-variable"
  replication_factor = 3
  partitions         = 1
}
