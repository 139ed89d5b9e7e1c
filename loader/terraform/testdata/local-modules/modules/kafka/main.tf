variable "name" {
  type = string
}

variable "retention_ms" {
  type    = number
  default = 604800000
}

resource "kafka_topic" "t" {
  name               = var.name
  replication_factor = 3
  partitions         = 6
  config = {
    "retention.ms" = var.retention_ms
  }
}

module "loop" {
  source = "../loop"
}
