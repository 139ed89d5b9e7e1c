# The module's inputs, as an MSK module declares them.
variable "number_of_broker_nodes" {
  type    = number
  default = 3
}

variable "kafka_version" {
  type    = string
  default = "3.6.0"
}

variable "server_properties" {
  type = map(string)
  default = {
    "unclean.leader.election.enable" = true
    "min.insync.replicas"            = 2
  }
}

variable "topics" {
  type    = map(number)
  default = {}
}
